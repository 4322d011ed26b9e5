import SAXDispatch

extension PushParser {
    /// Feeds `bytes` in consecutive pieces of `size` bytes (the last may be shorter), without finishing.
    func feed(_ bytes: [UInt8], inPiecesOf size: Int) throws {
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + max(1, size))
            try feed(bytes[offset..<end])
            offset = end
        }
    }
}

/// The parse error that parsing `document` with `dispatcher` ends in, fed one byte at a time
/// and whole (each split must end in the same error): the errors in that order, `nil` where a
/// parse did not throw one.
func parseErrorsInEverySplit(of document: String, with dispatcher: Dispatcher) -> [XMLParseError?] {
    [1, document.utf8.count].map { size in
        let parser = PushParser(dispatcher)
        do {
            try parser.feed(Array(document.utf8), inPiecesOf: size)
            _ = try parser.finish()
            return nil
        } catch {
            return error as? XMLParseError
        }
    }
}

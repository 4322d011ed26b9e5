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

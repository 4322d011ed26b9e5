extension RangeJob {
    /// Parses the range's own document with `dispatcher` on the calling (worker) thread and
    /// says whether it verified: it parsed to its end without an error, and nothing was
    /// delivered while its closing tags were read (`delivered` counts what its handlers
    /// delivered so far), which would be a record open across the range's end.
    func parseVerifying(with dispatcher: Dispatcher, delivered: () -> Int) -> Bool {
        let parser = PushParser(dispatcher, source: source, encoding: encoding)
        parser.driver.documents.rangeOrigin = origin
        do {
            try context.withUnsafeBytes { try parser.feed($0) }
            // In pieces no larger than a sequential parse reads, so that expat's buffer stays
            // as small (and in cache) as it is there.
            for piece in bytes {
                try piece.withUnsafeBytes { piece in
                    var start = 0
                    while start < piece.count {
                        let end = min(piece.count, start + XMLInput.defaultChunkSize)
                        try parser.feed(UnsafeRawBufferPointer(rebasing: piece[start..<end]))
                        start = end
                    }
                }
            }
            // Input held back (a long token across pieces) is parsed now: what the range's
            // bytes deliver is delivered before its closing tags are read.
            try parser.flushHeldInput()
            let before = delivered()
            try closing.withUnsafeBytes { try parser.feed($0) }
            return try parser.finish() == .completed && delivered() == before
        } catch {
            return false
        }
    }
}

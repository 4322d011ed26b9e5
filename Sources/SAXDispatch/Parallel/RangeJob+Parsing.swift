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
            for piece in bytes { try piece.withUnsafeBytes { try parser.feed($0) } }
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

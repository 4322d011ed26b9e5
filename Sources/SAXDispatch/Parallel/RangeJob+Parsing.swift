extension RangeJob {
    /// Parses the range's own document with `dispatcher` on the calling (worker) thread and
    /// says whether it verified: it parsed to its end without an error, and nothing was
    /// delivered while its closing tags were read (`delivered` counts what its handlers
    /// delivered so far), which would be a record open across the range's end.
    ///
    /// `beforeClosing` runs once every event of the range's own bytes was delivered (the
    /// text at its end too), before the events of its closing tags: what handlers
    /// collected by then is the range's.
    ///
    /// A range that verified leaves the names its parser interned in ``internedNames``,
    /// when the parse has a memory limit.
    func parseVerifying(with dispatcher: Dispatcher, delivered: () -> Int, beforeClosing: () -> Void = {}) -> Bool {
        let parser = PushParser(dispatcher, source: source, encoding: encoding)
        parser.driver.documents.rangeOrigin = origin
        let limit = parser.driver.profile.maximumParserMemoryBytes.value
        internedNames.limit = limit
        internedNames.tokenLimit = parser.driver.profile.maximumTokenBytes.value
        let log = limit.map { _ in InternedNameLog() }
        parser.driver.nameLog = log
        // The driver holds the log unretained.
        let verified = withExtendedLifetime(log) { parse(with: parser, delivered: delivered, beforeClosing: beforeClosing) }
        guard verified else {
            internedNames.brokeLimit = parser.driver.exceededMemoryBudget
            return false
        }
        internedNames.names = log?.names(dispatched: parser.engine.names, peakBytes: parser.driver.peakParserMemory)
        return true
    }

    private func parse(with parser: PushParser, delivered: () -> Int, beforeClosing: () -> Void) -> Bool {
        do {
            try context.withUnsafeBytes { try parser.feed($0) }
            // The innermost element the context opened: open at the range's end, the
            // elements around it are the context's too.
            var contextTop: UInt64?
            if endsInItsContext {
                try parser.flushHeldInput()
                contextTop = parser.engine.stack.isEmpty ? nil : parser.engine.stack.top.serial
            }
            let contextDepth = parser.engine.stack.count
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
            if endsInItsContext {
                guard let contextTop, parser.engine.stack.count == contextDepth, parser.engine.stack.top.serial == contextTop
                else { return false }
            }
            guard !closing.isEmpty else {
                let before = delivered()
                let completed = try parser.finish() == .completed
                beforeClosing()
                return completed && delivered() == before
            }
            // The text at the range's end is held until what follows it is known (a line
            // break waits for three more bytes): the first three bytes of the closing tags,
            // `</` and a name's first byte, end it and make no event of their own.
            try closing.prefix(Self.textEndingBytes).withUnsafeBytes { try parser.feed($0) }
            try parser.flushHeldInput()
            let before = delivered()
            beforeClosing()
            try closing.dropFirst(Self.textEndingBytes).withUnsafeBytes { try parser.feed($0) }
            return try parser.finish() == .completed && delivered() == before
        } catch {
            return false
        }
    }

    /// How many of the closing tags' bytes end the range's text: `</` and one byte of a
    /// name, which no end tag is shorter than (`</a>`).
    static let textEndingBytes = 3
}

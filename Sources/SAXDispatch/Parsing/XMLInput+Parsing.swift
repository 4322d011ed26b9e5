extension XMLInput {
    /// Reads the input to its end with `parser`, which it finishes: strings and bytes in
    /// memory in one piece, everything else through its reader into expat's buffer.
    ///
    /// - Parameters:
    ///   - chunkSize: The size of the reads, the input's own unless given.
    ///   - checksCancellation: Whether a cancelled task ends the parse between reads, with
    ///     `CancellationError` (for an asynchronous parse).
    func parse(with parser: PushParser, chunkSize: Int? = nil, checksCancellation: Bool = false) throws -> ParseOutcome {
        if let rangeOrigin { parser.driver.documents.rangeOrigin = rangeOrigin }
        switch source {
        case .string(let text):
            try parser.feed(text)
        case .bytes(let bytes):
            try parser.feed(bytes)
        case .path, .url, .descriptor, .reader:
            let chunkSize = chunkSize ?? self.chunkSize
            if checksCancellation {
                var reader = CancellableReader(base: try makeReader())
                return try parser.parse(reading: &reader, chunkSize: chunkSize)
            }
            var reader = try makeReader()
            return try parser.parse(reading: &reader, chunkSize: chunkSize)
        }
        return try parser.finish()
    }
}

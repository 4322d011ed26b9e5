extension XMLInput {
    /// The same input, with its name and options, whose reads throw `CancellationError`
    /// once `flag` is set: a running parse ends at its next read instead of reading a
    /// whole file nobody waits for. A descriptor that has nothing to read (a quiet pipe)
    /// is polled, so that a parse waiting on it ends too.
    ///
    /// Bytes in memory are parsed in one piece, which nothing would interrupt: they are
    /// left as they are.
    func cancellable(by flag: CancellationFlag) -> XMLInput {
        guard !isInMemory else { return self }
        var wrapped = XMLInput.reader(name: name) { [self] in
            if flag.isSet { throw CancellationError() }
            return FlagCheckingReader(base: try makeReader(stoppingWhen: { flag.isSet }), flag: flag)
        }
        wrapped.chunkSize = chunkSize
        wrapped.encoding = encoding
        wrapped.readsConcatenatedDocuments = readsConcatenatedDocuments
        wrapped.canBeReadAgain = canBeReadAgain
        return wrapped
    }
}

/// Reads another reader until a flag is set, then throws `CancellationError`.
private struct FlagCheckingReader: XMLInputReader {
    var base: any XMLInputReader
    let flag: CancellationFlag

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if flag.isSet { throw CancellationError() }
        return try base.read(into: buffer)
    }

    mutating func failure(explaining parseError: XMLParseError) -> (any Error)? {
        base.failure(explaining: parseError)
    }
}

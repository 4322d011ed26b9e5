extension Dispatcher {
    /// Parses a document with this dispatcher's handlers: a file, a string, bytes, a file
    /// descriptor, standard input, or a reader of your own (``XMLInput``).
    ///
    /// ```swift
    /// try dispatcher.parse(.file("zoo.xml"))
    /// try dispatcher.parse(.string("<zoo><animal>cat</animal></zoo>"))
    /// ```
    ///
    /// Files and descriptors stream in ``XMLInput/chunkSize`` pieces read straight into
    /// expat's buffer; the document is never held whole.
    ///
    /// - Returns: ``ParseOutcome/completed``, or ``ParseOutcome/stopped`` if a handler stopped.
    /// - Throws: ``XMLInputError`` if the input cannot be opened or read (after the events
    ///   of what was read before), what a custom reader throws, as it is, ``XMLParseError``
    ///   for a malformed document or a broken ``SafetyProfile`` limit, or a
    ///   ``HandlerError`` wrapping a handler's error. Each names the input.
    @discardableResult
    public func parse(_ input: XMLInput) throws -> ParseOutcome {
        try input.parse(
            with: PushParser(
                self, source: input.name, encoding: input.encoding,
                readsConcatenatedDocuments: input.readsConcatenatedDocuments))
    }

    /// Parses a document that arrives asynchronously (``AsyncXMLInput``): bytes such as
    /// `URLSession.AsyncBytes`, a sequence of byte chunks, or a file read chunk by chunk.
    ///
    /// ```swift
    /// let (bytes, _) = try await URLSession.shared.bytes(from: url)
    /// try await dispatcher.parse(.bytes(bytes).named(url.absoluteString))
    /// ```
    ///
    /// Runs on the caller's executor; handlers run synchronously between awaits. Reading
    /// stops as soon as a handler stops the parse or an error occurs.
    ///
    /// - Returns: ``ParseOutcome/completed``, or ``ParseOutcome/stopped`` if a handler stopped.
    /// - Throws: ``XMLParseError`` for a malformed document or a broken ``SafetyProfile``
    ///   limit, a ``HandlerError`` wrapping a handler's error, or the error the source
    ///   throws, as it is, after the events of what it delivered before (a file's
    ///   ``XMLInputError``, `CancellationError` between a file's chunks).
    @discardableResult
    nonisolated(nonsending) public func parse(_ input: AsyncXMLInput) async throws -> ParseOutcome {
        let parser = PushParser(
            self, source: input.name, encoding: input.encoding,
            readsConcatenatedDocuments: input.readsConcatenatedDocuments)
        switch input.source {
        case .input(let synchronous) where synchronous.isInMemory:
            return try synchronous.parse(with: parser, chunkSize: input.chunkSize, checksCancellation: true)
        case .input, .producer:
            let reading = input.makeChannelReading()!
            defer { reading.close() }
            do {
                // A failed feed stops the parser, which keeps the error for finish() to throw.
                while try await reading.next({ bytes in _ = try? parser.feed(bytes) }) {
                    if parser.isStopped { break }
                }
            } catch {
                if parser.isStopped { return try parser.finish() }
                throw error
            }
            return try parser.finish()
        case .sequence(let sequence):
            do {
                // A failed feed stops the parser, which keeps the error for finish() to throw.
                try await sequence.forEach(input.chunkSize) { bytes in
                    (try? parser.feed(bytes)) != nil && !parser.isStopped
                }
            } catch {
                // The source failed: an error in the bytes before it, or a stop, comes first.
                if parser.isStopped { return try parser.finish() }
                throw error
            }
            return try parser.finish()
        }
    }
}

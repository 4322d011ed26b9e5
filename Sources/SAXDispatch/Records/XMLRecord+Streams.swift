extension XMLRecord {
    /// The record's models as an asynchronous sequence, built as a document arrives in
    /// byte chunks (`[UInt8]`, `Data`, …); the parser runs only as fast as the consumer
    /// takes models. See ``XMLStream`` for back-pressure, errors and cancellation.
    ///
    /// ```swift
    /// for try await item in Item.record.stream(chunks: download) {
    ///     print(item.title)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - chunks: The document, in pieces of any size.
    ///   - source: A name for the input in error descriptions.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    ///   - diagnostics: Receives the errors of records that the failure policy skipped or
    ///     replaced, as they happen, on the consuming task.
    /// - Returns: A stream whose `next()` throws ``XMLRecordError`` for a record that cannot be
    ///   built (policy ``RecordFailurePolicy/fail``), ``XMLParseError`` for a malformed
    ///   document, or the source's error.
    public func stream<Chunks: AsyncSequence>(
        chunks: Chunks, source: String? = nil, safety: SafetyProfile = .default,
        diagnostics: (@Sendable (XMLRecordError) -> Void)? = nil
    ) -> XMLStream<Model, Chunks> where Chunks.Element: Sequence<UInt8> {
        XMLStream(
            chunks: chunks,
            recipe: XMLStreamRecipe(
                source: source,
                makeDispatcher: { output in
                    dispatcherOwningDocument(
                        source: source, safety: safety, report: { diagnostics?($0) }, deliver: output.yield)
                },
                mapError: { error in (error as? HandlerError).map(Self.unwrapped) ?? error }))
    }

    /// The record's models as an asynchronous sequence, built as a document arrives as
    /// bytes (`URLSession.AsyncBytes`), gathered into chunks of `chunkSize` bytes. See
    /// ``stream(chunks:source:safety:diagnostics:)``.
    public func stream<Bytes: AsyncSequence>(
        bytes: Bytes, chunkSize: Int = Dispatcher.defaultChunkSize, source: String? = nil,
        safety: SafetyProfile = .default, diagnostics: (@Sendable (XMLRecordError) -> Void)? = nil
    ) -> XMLStream<Model, AsyncByteChunks<Bytes>> where Bytes.Element == UInt8 {
        stream(chunks: AsyncByteChunks(bytes, chunkSize: chunkSize), source: source, safety: safety, diagnostics: diagnostics)
    }

    /// The record's models in a file, as an asynchronous sequence read in chunks of
    /// `chunkSize` bytes (``AsyncFileChunks``). See ``stream(chunks:source:safety:diagnostics:)``;
    /// a file that cannot be opened or read is an ``XMLInputError`` from `next()`.
    public func stream(
        contentsOfFile path: String, chunkSize: Int = Dispatcher.defaultChunkSize, safety: SafetyProfile = .default,
        diagnostics: (@Sendable (XMLRecordError) -> Void)? = nil
    ) -> XMLStream<Model, AsyncFileChunks> {
        stream(
            chunks: AsyncFileChunks(path: path, chunkSize: chunkSize), source: path, safety: safety,
            diagnostics: diagnostics)
    }
}

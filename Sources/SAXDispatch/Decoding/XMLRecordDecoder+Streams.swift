extension XMLRecordDecoder {
    /// Each element matching `pattern`, decoded as a `T`, as an asynchronous sequence
    /// built while a document arrives in byte chunks (`[UInt8]`, `Data`, …); the parser
    /// runs only as fast as the consumer takes values. See ``XMLStream`` for
    /// back-pressure, errors and cancellation.
    ///
    /// ```swift
    /// let decoder = XMLRecordDecoder()
    /// for try await animal in decoder.stream(Animal.self, at: "animals/animal", chunks: download) {
    ///     print(animal.name)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode each element as.
    ///   - pattern: Which elements; matches inside a match are part of it.
    ///   - chunks: The document, in pieces of any size.
    ///   - source: A name for the input in error descriptions.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    /// - Returns: A stream whose `next()` throws `DecodingError` for an element that does not
    ///   decode, ``RecordSizeLimitError`` for one larger than ``maximumRecordBytes``,
    ///   ``XMLParseError`` for a malformed document, or the source's error.
    public func stream<T: Decodable & SendableMetatype, Chunks: AsyncSequence>(
        _ type: T.Type, at pattern: ElementPattern, chunks: Chunks, source: String? = nil,
        safety: SafetyProfile = .default
    ) -> XMLStream<T, Chunks> where Chunks.Element: Sequence<UInt8> {
        XMLStream(
            chunks: chunks,
            recipe: XMLStreamRecipe(
                source: source,
                makeDispatcher: { output in
                    dispatcherOwningDocument(T.self, at: pattern, source: source, safety: safety, deliver: output.yield)
                },
                mapError: { error in (error as? HandlerError)?.underlying ?? error }))
    }

    /// Each element matching `pattern`, decoded as a `T`, as an asynchronous sequence built
    /// while a document arrives as bytes (`URLSession.AsyncBytes`), gathered into chunks of
    /// `chunkSize` bytes. See ``stream(_:at:chunks:source:safety:)``.
    public func stream<T: Decodable & SendableMetatype, Bytes: AsyncSequence>(
        _ type: T.Type, at pattern: ElementPattern, bytes: Bytes, chunkSize: Int = Dispatcher.defaultChunkSize,
        source: String? = nil, safety: SafetyProfile = .default
    ) -> XMLStream<T, AsyncByteChunks<Bytes>> where Bytes.Element == UInt8 {
        stream(T.self, at: pattern, chunks: AsyncByteChunks(bytes, chunkSize: chunkSize), source: source, safety: safety)
    }

    /// Each element matching `pattern` in a file, decoded as a `T`, as an asynchronous
    /// sequence read in chunks of `chunkSize` bytes (``AsyncFileChunks``). See
    /// ``stream(_:at:chunks:source:safety:)``; a file that cannot be opened or read is an
    /// ``XMLInputError`` from `next()`.
    public func stream<T: Decodable & SendableMetatype>(
        _ type: T.Type, at pattern: ElementPattern, contentsOfFile path: String,
        chunkSize: Int = Dispatcher.defaultChunkSize, safety: SafetyProfile = .default
    ) -> XMLStream<T, AsyncFileChunks> {
        stream(
            T.self, at: pattern, chunks: AsyncFileChunks(path: path, chunkSize: chunkSize), source: path, safety: safety)
    }
}

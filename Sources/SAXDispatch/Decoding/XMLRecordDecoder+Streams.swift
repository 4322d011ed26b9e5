extension XMLRecordDecoder {
    /// Each element matching `pattern`, decoded as a `T`, as an asynchronous sequence
    /// built while a document arrives (``AsyncXMLInput``: bytes such as
    /// `URLSession.AsyncBytes`, byte chunks, a file); the parser runs only as fast as the
    /// consumer takes values. See ``XMLStream`` for back-pressure, errors and cancellation.
    ///
    /// ```swift
    /// let decoder = XMLRecordDecoder()
    /// for try await animal in decoder.stream(Animal.self, at: "animals/animal", from: .chunks(download)) {
    ///     print(animal.name)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode each element as.
    ///   - pattern: Which elements; matches inside a match are part of it.
    ///   - input: The document, as it arrives.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    /// - Returns: A stream whose `next()` throws ``XMLDecodingError`` for an element that does not
    ///   decode, ``XMLParseError`` for a malformed document or one larger than
    ///   ``maximumRecordBytes`` (``XMLParseError/Code/recordSizeLimitExceeded``), or the source's error (a file's
    ///   ``XMLInputError``), each naming the input.
    public func stream<T: Decodable & SendableMetatype>(
        _ type: T.Type, at pattern: ElementPattern, from input: AsyncXMLInput, safety: SafetyProfile = .default
    ) -> XMLStream<T> {
        XMLStream(
            from: input,
            recipe: XMLStreamRecipe(
                makeDispatcher: { output in
                    dispatcherOwningDocument(T.self, at: pattern, safety: safety, deliver: output.yield)
                },
                mapError: { error in (error as? HandlerError)?.underlying ?? error }))
    }
}

extension XMLRecord {
    /// The record's models as an asynchronous sequence, built as a document arrives
    /// (``AsyncXMLInput``: bytes such as `URLSession.AsyncBytes`, byte chunks, a file);
    /// the parser runs only as fast as the consumer takes models. See ``XMLStream`` for
    /// back-pressure, errors and cancellation.
    ///
    /// ```swift
    /// for try await item in Item.record.stream(from: .bytes(bytes)) {
    ///     print(item.title)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - input: The document, as it arrives.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    ///   - diagnostics: Receives the errors of records that the failure policy skipped or
    ///     replaced, as they happen, on the consuming task.
    /// - Returns: A stream whose `next()` throws ``XMLRecordError`` for a record that cannot be
    ///   built (policy ``RecordFailurePolicy/fail``), ``XMLParseError`` for a malformed
    ///   document, or the source's error (a file's ``XMLInputError``), each naming the input.
    public func stream(
        from input: AsyncXMLInput, safety: SafetyProfile = .default,
        diagnostics: (@Sendable (XMLRecordError) -> Void)? = nil
    ) -> XMLStream<Model> {
        XMLStream(
            from: input,
            recipe: XMLStreamRecipe(
                makeDispatcher: { output in
                    dispatcherOwningDocument(safety: safety, report: { diagnostics?($0) }, deliver: output.yield)
                },
                mapError: { error in (error as? HandlerError).map(Self.unwrapped) ?? error }))
    }
}

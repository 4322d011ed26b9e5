extension Dispatcher {
    /// Builds `record`'s model from every element matching its pattern and calls
    /// `handler` with each one as its element ends, next to this dispatcher's other handlers.
    ///
    /// Only the record's fields are captured; elements the record does not name stay
    /// with this dispatcher's other handlers. A record that cannot be built ends the
    /// parse with a ``HandlerError`` wrapping its ``XMLRecordError``, unless its
    /// ``RecordFailurePolicy`` skips or replaces it: then `diagnostics` receives the
    /// error and the parse goes on.
    ///
    /// ```swift
    /// var dispatcher = Dispatcher()
    /// dispatcher.onRecord(animal) { animals.append($0) }
    /// dispatcher.onEnd("zoo/name") { _, text in zooName = text }
    /// try dispatcher.parse(.file("zoo.xml"))
    /// ```
    public mutating func onRecord<Model>(
        _ record: XMLRecord<Model>, diagnostics: @escaping (XMLRecordError) -> Void = { _ in },
        _ handler: @escaping (Model) throws -> Void
    ) {
        let assembler = RecordAssembler(skipsUnnamed: false, report: diagnostics) { memory in
            try handler(memory.assumingMemoryBound(to: Model.self).move())
        }
        // The record's own bindings resolve its pattern first; this dispatcher's, the rest.
        mount(assembler.handlers(for: record.plan), at: record.pattern.resolvingPrefixes(record.plan.namespaces))
    }
}

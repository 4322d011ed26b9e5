/// What a record parse delivered and what its failure policy set aside.
public struct RecordParseSummary: Sendable {
    /// Records delivered (replacements included).
    public var delivered = 0
    /// Records left out, or replaced by a default, because they could not be built.
    public var failed = 0
    /// The errors of those records, the first ``diagnosticsLimit`` of them.
    public var diagnostics: [XMLRecordError] = []
    /// What the parse found worth a warning (``ParseWarning``): a pattern prefix bound
    /// nowhere that no element read was written with, a record pattern that matched no
    /// element, a field path that matched nothing in any record, each with the names the
    /// document had instead.
    public var warnings: [ParseWarning] = []

    /// Read on workers (``XMLRecord/forEach(in:workers:rangeBytes:safety:diagnostics:_:)``):
    /// how many ranges of the document the workers read and verified; `0` for a sequential read.
    public var rangesReadInParallel = 0
    /// Read on workers: the offset from which the rest of the document was read by one
    /// sequential parse instead, if it was (a range that did not verify, or a document the
    /// framing pass does not read further); `nil` otherwise.
    public var sequentialFrom: Int?

    /// How many diagnostics a summary keeps; a streaming `diagnostics` closure sees them all.
    public static let diagnosticsLimit = 100

    /// Counts a record the failure policy set aside, keeps its error while fewer than
    /// ``diagnosticsLimit`` are kept, and hands it to `diagnostics`.
    mutating func setAside(_ error: XMLRecordError, diagnostics: ((XMLRecordError) -> Void)?) {
        failed += 1
        if self.diagnostics.count < Self.diagnosticsLimit { self.diagnostics.append(error) }
        diagnostics?(error)
    }
}

extension XMLRecord {
    /// Calls `body` with each record's model as its element ends, in document order, in
    /// constant memory: only the open record's fields are held.
    ///
    /// ```swift
    /// try Animal.record.forEach(in: .file("zoo.xml")) { animal in
    ///     print(animal.name)
    /// }
    /// ```
    ///
    /// The record has the dispatcher to itself, so elements no field can reach are
    /// skipped (no handler, no text) along with everything inside them.
    ///
    /// - Parameters:
    ///   - input: The document: a file, a string, bytes, a descriptor, a reader (``XMLInput``).
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    ///   - diagnostics: Receives, as they happen, the errors of records that the failure
    ///     policy skipped or replaced (the summary keeps the first 100).
    ///   - body: Receives each model as its element ends; an error it throws ends the parse
    ///     and is rethrown as it is.
    /// - Returns: How many records were delivered and how many failed.
    /// - Throws: ``XMLRecordError`` for a record that cannot be built (policy ``RecordFailurePolicy/fail``),
    ///   ``XMLParseError`` for a malformed document or a broken ``SafetyProfile`` limit,
    ///   ``XMLInputError`` if the input cannot be opened or read (after the records before),
    ///   or what `body` or a custom reader throws. Each names the input.
    @discardableResult
    public func forEach(
        in input: XMLInput, safety: SafetyProfile = .default, diagnostics: ((XMLRecordError) -> Void)? = nil,
        _ body: (Model) throws -> Void
    ) throws -> RecordParseSummary {
        try run(input, safety: safety, diagnostics: diagnostics, body)
    }

    /// Every record's model in a document, in document order. Holds them all: use
    /// ``forEach(in:safety:diagnostics:_:)`` for documents of any size.
    ///
    /// An empty array can mean a document without such records or a pattern that matched
    /// nothing for want of the right name: `onWarning` tells them apart, with the warnings
    /// of the parse (the record pattern or a field that matched nothing, with the names the
    /// document had instead; see ``ParseWarning``), once the document has been read.
    ///
    /// ```swift
    /// let animals = try Animal.record.all(in: .string(xml)) { warning in print(warning) }
    /// // <string>: warning: record pattern `animl` matched no element; this document has `animal` (2 times)
    /// ```
    ///
    /// - Throws: As ``forEach(in:safety:diagnostics:_:)``; skipped records are left out silently here.
    public func all(
        in input: XMLInput, safety: SafetyProfile = .default, onWarning: ((ParseWarning) -> Void)? = nil
    ) throws -> [Model] {
        var models: [Model] = []
        let summary = try forEach(in: input, safety: safety) { models.append($0) }
        if let onWarning { summary.warnings.forEach(onWarning) }
        return models
    }

    /// The first record's model in a document — the document's root record, for a record
    /// such as `XMLRecord("/zoo", …)`. The parse stops once it is built.
    ///
    /// ```swift
    /// let zoo = try Zoo.record.first(in: .file("zoo.xml"))
    /// ```
    ///
    /// - Parameters:
    ///   - input: The document (``XMLInput``).
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    ///   - diagnostics: Receives the errors of records (this record or nested ones) that
    ///     their failure policy skipped or replaced.
    /// - Throws: ``XMLRecordError`` of kind ``XMLRecordError/Kind/notFound(pattern:skipped:)``
    ///   when no record is built (no element matches the record's pattern, or its failure
    ///   policy skipped every one that does), and the
    ///   errors of ``forEach(in:safety:diagnostics:_:)`` before the first record ends.
    public func first(
        in input: XMLInput, safety: SafetyProfile = .default, diagnostics: ((XMLRecordError) -> Void)? = nil
    ) throws -> Model {
        var found: Model?
        var skipped = 0
        do {
            skipped = try run(input, safety: safety, diagnostics: diagnostics) { found = $0; throw FirstRecordFound() }.failed
        } catch is FirstRecordFound {}
        guard let found else {
            throw XMLRecordError(recordName: name, notFound: pattern.description, skipped: skipped, source: input.name)
        }
        return found
    }

    private func run(
        _ input: XMLInput, safety: SafetyProfile, diagnostics: ((XMLRecordError) -> Void)?, _ body: (Model) throws -> Void
    ) throws -> RecordParseSummary {
        try withoutActuallyEscaping(body) { body in
            var summary = RecordParseSummary()
            var dispatcher = dispatcherOwningDocument(
                safety: safety,
                report: { summary.setAside($0, diagnostics: diagnostics) },
                deliver: { model in
                    summary.delivered += 1
                    try body(model)
                })
            dispatcher.onWarning { summary.warnings.append($0) }
            do {
                try dispatcher.parse(input)
            } catch let error as HandlerError {
                throw Self.unwrapped(error)
            }
            return summary
        }
    }

    /// A dispatcher that reads only this record from a document: `report` receives the
    /// errors the failure policy sets aside, `deliver` each model.
    func dispatcherOwningDocument(
        safety: SafetyProfile, report: @escaping (XMLRecordError) -> Void,
        deliver: @escaping (Model) throws -> Void
    ) -> Dispatcher {
        dispatcherMovingModels(safety: safety, report: report) { memory in
            try deliver(memory.assumingMemoryBound(to: Model.self).move())
        }
    }

    /// A dispatcher that reads only this record from a document, whose `deliver` receives
    /// each model in memory and must move it out (a model buffered for later moves once,
    /// uncopied).
    func dispatcherMovingModels(
        safety: SafetyProfile, report: @escaping (XMLRecordError) -> Void,
        deliver: @escaping (UnsafeMutableRawPointer) throws -> Void
    ) -> Dispatcher {
        var dispatcher = Dispatcher()
        dispatcher.safety = safety
        dispatcher.processesNamespaces = plan.processesNamespaces
        dispatcher.namespaces = plan.namespaces
        // Outside what the fields read, nothing is dispatched. For an anchored pattern the
        // parser's subtree filter skips it, at a few bit operations an element; otherwise (or
        // when the fields have more steps than the filter takes) the assembler skips the
        // children of a record element that no field can reach.
        var filterKeepsFields = false
        if pattern.isAnchored {
            do {
                try dispatcher.skipAll(except: RecordAssembler.keptSubtrees(of: plan, at: pattern))
                filterKeepsFields = true
            } catch {
                try? dispatcher.skipAll(except: pattern)
            }
            dispatcher.keptSubtreesCountSkippedNames = true
        }
        let assembler = RecordAssembler(skipsUnnamed: !filterKeepsFields, report: report, deliver: deliver)
        dispatcher.mount(assembler.handlers(for: plan), at: pattern)
        return dispatcher
    }

    /// The error a record parse throws for a handler's: the record layer's own errors (with
    /// the input's name) and the body's come out unwrapped.
    static func unwrapped(_ error: HandlerError) -> any Error {
        if var recordError = error.underlying as? XMLRecordError {
            recordError.source = recordError.source ?? error.source
            return recordError
        }
        if var sizeError = error.underlying as? XMLParseError, sizeError.code == .recordSizeLimitExceeded {
            sizeError.source = sizeError.source ?? error.source
            return sizeError
        }
        return error.underlying
    }
}

/// Ends a parse once the first record is built.
private struct FirstRecordFound: Error {}

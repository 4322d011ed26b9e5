#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a record parse delivered and what its failure policy set aside.
public struct RecordParseSummary: Sendable {
    /// Records delivered (replacements included).
    public var delivered = 0
    /// Records left out, or replaced by a default, because they could not be built.
    public var failed = 0
    /// The errors of those records, the first ``diagnosticsLimit`` of them.
    public var diagnostics: [XMLRecordError] = []
    /// What the parse found worth a warning (``ParseWarning``), such as a pattern prefix
    /// bound nowhere that no element read was written with.
    public var warnings: [ParseWarning] = []

    /// How many diagnostics a summary keeps; a streaming `diagnostics` closure sees them all.
    public static let diagnosticsLimit = 100
}

extension XMLRecord {
    /// Calls `body` with each record's model as its element ends, in document order, in
    /// constant memory: only the open record's fields are held.
    ///
    /// The record has the dispatcher to itself, so elements no field can reach are
    /// skipped (no handler, no text) along with everything inside them.
    ///
    /// - Parameters:
    ///   - path: The path of the file to read.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    ///   - diagnostics: Receives, as they happen, the errors of records that the failure
    ///     policy skipped or replaced (the summary keeps the first 100).
    ///   - body: Receives each model as its element ends; an error it throws ends the parse
    ///     and is rethrown as it is.
    /// - Returns: How many records were delivered and how many failed.
    /// - Throws: ``XMLRecordError`` for a record that cannot be built (policy ``RecordFailurePolicy/fail``),
    ///   ``XMLParseError`` for a malformed document, ``XMLInputError`` if the file cannot
    ///   be read, or what `body` throws.
    @discardableResult
    public func forEach(
        contentsOfFile path: String, safety: SafetyProfile = .default, diagnostics: ((XMLRecordError) -> Void)? = nil,
        _ body: (Model) throws -> Void
    ) throws -> RecordParseSummary {
        try run(source: path, safety: safety, diagnostics: diagnostics, body) { try $0.parse(contentsOfFile: path) }
    }

    /// Calls `body` with each record's model in a local file named by a `file:` URL. See
    /// ``forEach(contentsOfFile:safety:diagnostics:_:)``.
    ///
    /// - Throws: As ``forEach(contentsOfFile:safety:diagnostics:_:)``, with ``XMLInputError``
    ///   also when `url` is not a `file:` URL.
    @discardableResult
    public func forEach(
        contentsOf url: URL, safety: SafetyProfile = .default, diagnostics: ((XMLRecordError) -> Void)? = nil,
        _ body: (Model) throws -> Void
    ) throws -> RecordParseSummary {
        try run(source: url.isFileURL ? url.path : url.absoluteString, safety: safety, diagnostics: diagnostics, body) {
            try $0.parse(contentsOf: url)
        }
    }

    /// Calls `body` with each record's model in a document held in a string. See
    /// ``forEach(contentsOfFile:safety:diagnostics:_:)``.
    ///
    /// - Throws: ``XMLRecordError`` for a record that cannot be built (policy ``RecordFailurePolicy/fail``),
    ///   ``XMLParseError`` for a malformed document or a broken ``SafetyProfile`` limit, or
    ///   what `body` throws.
    @discardableResult
    public func forEach(
        in xml: String, safety: SafetyProfile = .default, diagnostics: ((XMLRecordError) -> Void)? = nil,
        _ body: (Model) throws -> Void
    ) throws -> RecordParseSummary {
        try run(source: nil, safety: safety, diagnostics: diagnostics, body) { try $0.parse(xml) }
    }

    /// Calls `body` with each record's model in a document held in memory as bytes. See
    /// ``forEach(contentsOfFile:safety:diagnostics:_:)``.
    ///
    /// - Throws: ``XMLRecordError`` for a record that cannot be built (policy ``RecordFailurePolicy/fail``),
    ///   ``XMLParseError`` for a malformed document or a broken ``SafetyProfile`` limit, or
    ///   what `body` throws.
    @discardableResult
    public func forEach(
        in bytes: some Sequence<UInt8>, safety: SafetyProfile = .default, diagnostics: ((XMLRecordError) -> Void)? = nil,
        _ body: (Model) throws -> Void
    ) throws -> RecordParseSummary {
        try run(source: nil, safety: safety, diagnostics: diagnostics, body) { try $0.parse(bytes) }
    }

    /// Calls `body` with each record's model read from an open file descriptor (standard
    /// input, a pipe). The descriptor is not closed. See ``forEach(contentsOfFile:safety:diagnostics:_:)``.
    ///
    /// - Parameters:
    ///   - fileDescriptor: An open descriptor, read in chunks of ``Dispatcher/defaultChunkSize`` bytes.
    ///   - source: A name for the input in error descriptions.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    ///   - diagnostics: Receives the errors of records the failure policy skipped or replaced.
    ///   - body: Receives each model as its element ends; an error it throws ends the parse
    ///     and is rethrown as it is.
    /// - Returns: How many records were delivered and how many failed.
    /// - Throws: As ``forEach(contentsOfFile:safety:diagnostics:_:)``, with ``XMLInputError``
    ///   when a read fails.
    @discardableResult
    public func forEach(
        fileDescriptor: Int32, source: String? = nil, safety: SafetyProfile = .default,
        diagnostics: ((XMLRecordError) -> Void)? = nil, _ body: (Model) throws -> Void
    ) throws -> RecordParseSummary {
        try run(source: source, safety: safety, diagnostics: diagnostics, body) {
            try $0.parse(fileDescriptor: fileDescriptor, source: source)
        }
    }

    /// Calls `body` with each record's model from a document you feed yourself, piece by
    /// piece: bytes from a socket or a decompressor, or read in a loop that reports progress.
    ///
    /// `feed` receives the parser for the record: feed it the document and return. The
    /// parse is finished for you if `feed` did not finish it.
    ///
    /// ```swift
    /// try item.forEach(source: "feed.xml", feeding: { parser in
    ///     for chunk in chunks { try parser.feed(chunk) }
    /// }) { print($0.title) }
    /// ```
    ///
    /// - Parameters:
    ///   - source: A name for the input in error descriptions.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    ///   - diagnostics: Receives the errors of records the failure policy skipped or replaced.
    ///   - feed: Feeds the document to the parser it receives, then returns.
    ///   - body: Receives each model as its element ends; an error it throws ends the parse
    ///     and is rethrown as it is.
    /// - Returns: How many records were delivered and how many failed.
    /// - Throws: As ``forEach(contentsOfFile:safety:diagnostics:_:)``, and what `feed` throws.
    @discardableResult
    public func forEach(
        source: String? = nil, safety: SafetyProfile = .default, diagnostics: ((XMLRecordError) -> Void)? = nil,
        feeding feed: (PushParser) throws -> Void, _ body: (Model) throws -> Void
    ) throws -> RecordParseSummary {
        try run(source: source, safety: safety, diagnostics: diagnostics, body) { dispatcher in
            let parser = PushParser(dispatcher, source: source)
            try feed(parser)
            return try parser.finish()
        }
    }

    /// Every record's model in a file, in document order. Holds them all: use
    /// ``forEach(contentsOfFile:safety:diagnostics:_:)`` for documents of any size.
    ///
    /// - Throws: As ``forEach(contentsOfFile:safety:diagnostics:_:)``; skipped records are left out silently here.
    public func all(contentsOfFile path: String, safety: SafetyProfile = .default) throws -> [Model] {
        var models: [Model] = []
        try forEach(contentsOfFile: path, safety: safety) { models.append($0) }
        return models
    }

    /// Every record's model in a local file named by a `file:` URL, in document order.
    ///
    /// - Throws: As ``forEach(contentsOfFile:safety:diagnostics:_:)``, with ``XMLInputError``
    ///   also when `url` is not a `file:` URL; skipped records are left out silently here.
    public func all(contentsOf url: URL, safety: SafetyProfile = .default) throws -> [Model] {
        var models: [Model] = []
        try forEach(contentsOf: url, safety: safety) { models.append($0) }
        return models
    }

    /// Every record's model in a document held in a string, in document order.
    ///
    /// - Throws: ``XMLRecordError`` for a record that cannot be built (policy ``RecordFailurePolicy/fail``),
    ///   or ``XMLParseError`` for a malformed document or a broken ``SafetyProfile`` limit;
    ///   skipped records are left out silently here.
    public func all(in xml: String, safety: SafetyProfile = .default) throws -> [Model] {
        var models: [Model] = []
        try forEach(in: xml, safety: safety) { models.append($0) }
        return models
    }

    /// The first record's model in a file — the document's root record, for a record
    /// such as `XMLRecord("/zoo", …)`. The parse stops once it is built.
    ///
    /// - Parameters:
    ///   - path: The path of the file to read.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    ///   - diagnostics: Receives the errors of records (this record or nested ones) that
    ///     their failure policy skipped or replaced.
    /// - Throws: ``RecordNotFoundError`` when no element matches the record's pattern, and
    ///   the errors of ``forEach(contentsOfFile:safety:diagnostics:_:)``.
    public func first(
        contentsOfFile path: String, safety: SafetyProfile = .default, diagnostics: ((XMLRecordError) -> Void)? = nil
    ) throws -> Model {
        try first(source: path, safety: safety, diagnostics: diagnostics) { try $0.parse(contentsOfFile: path) }
    }

    /// The first record's model in a local file named by a `file:` URL. See ``first(contentsOfFile:safety:diagnostics:)``.
    ///
    /// - Throws: As ``first(contentsOfFile:safety:diagnostics:)``, with ``XMLInputError``
    ///   also when `url` is not a `file:` URL.
    public func first(
        contentsOf url: URL, safety: SafetyProfile = .default, diagnostics: ((XMLRecordError) -> Void)? = nil
    ) throws -> Model {
        try first(source: url.isFileURL ? url.path : url.absoluteString, safety: safety, diagnostics: diagnostics) {
            try $0.parse(contentsOf: url)
        }
    }

    /// The first record's model in a document held in a string. See ``first(contentsOfFile:safety:diagnostics:)``.
    ///
    /// - Throws: ``RecordNotFoundError`` when no record is built (no element matches the
    ///   record's pattern, or its failure policy skipped every one that does),
    ///   ``XMLRecordError`` for a record that cannot be built (policy ``RecordFailurePolicy/fail``),
    ///   or ``XMLParseError`` for a malformed document or a broken ``SafetyProfile`` limit
    ///   before the first record ends.
    public func first(
        in xml: String, safety: SafetyProfile = .default, diagnostics: ((XMLRecordError) -> Void)? = nil
    ) throws -> Model {
        try first(source: nil, safety: safety, diagnostics: diagnostics) { try $0.parse(xml) }
    }

    private func first(
        source: String?, safety: SafetyProfile, diagnostics: ((XMLRecordError) -> Void)?,
        _ parse: (Dispatcher) throws -> ParseOutcome
    ) throws -> Model {
        var found: Model?
        var skipped = 0
        do {
            skipped = try run(
                source: source, safety: safety, diagnostics: diagnostics, { found = $0; throw FirstRecordFound() }, parse
            ).failed
        } catch is FirstRecordFound {}
        guard let found else {
            throw RecordNotFoundError(recordName: name, pattern: pattern.description, source: source, skipped: skipped)
        }
        return found
    }

    private func run(
        source: String?, safety: SafetyProfile, diagnostics: ((XMLRecordError) -> Void)?, _ body: (Model) throws -> Void,
        _ parse: (Dispatcher) throws -> ParseOutcome
    ) throws -> RecordParseSummary {
        try withoutActuallyEscaping(body) { body in
            var summary = RecordParseSummary()
            var dispatcher = dispatcherOwningDocument(
                source: source, safety: safety,
                report: { error in
                    summary.failed += 1
                    if summary.diagnostics.count < RecordParseSummary.diagnosticsLimit { summary.diagnostics.append(error) }
                    diagnostics?(error)
                },
                deliver: { model in
                    summary.delivered += 1
                    try body(model)
                })
            dispatcher.onWarning { summary.warnings.append($0) }
            do {
                _ = try parse(dispatcher)
            } catch let error as HandlerError {
                throw Self.unwrapped(error)
            }
            return summary
        }
    }

    /// A dispatcher that reads only this record from a document: `report` receives the
    /// errors the failure policy sets aside, `deliver` each model.
    func dispatcherOwningDocument(
        source: String?, safety: SafetyProfile, report: @escaping (XMLRecordError) -> Void,
        deliver: @escaping (Model) throws -> Void
    ) -> Dispatcher {
        var dispatcher = Dispatcher()
        dispatcher.safety = safety
        dispatcher.processesNamespaces = node.processesNamespaces
        dispatcher.namespaces = node.namespaces
        // Outside what the fields read, nothing is dispatched. For an anchored pattern the
        // parser's subtree filter skips it, at a few bit operations an element; otherwise (or
        // when the fields have more steps than the filter takes) the assembler skips the
        // children of a record element that no field can reach.
        var filterKeepsFields = false
        if pattern.isAnchored {
            do {
                try dispatcher.skipAll(except: RecordAssembler.keptSubtrees(of: node, at: pattern))
                filterKeepsFields = true
            } catch {
                try? dispatcher.skipAll(except: pattern)
            }
        }
        let assembler = RecordAssembler(skipsUnnamed: !filterKeepsFields, source: source, report: report) { memory in
            try deliver(memory.assumingMemoryBound(to: Model.self).move())
        }
        dispatcher.mount(assembler.handlers(for: node), at: pattern)
        return dispatcher
    }

    /// The error a record parse throws for a handler's: the record layer's own errors (with
    /// the input's name) and the body's come out unwrapped.
    static func unwrapped(_ error: HandlerError) -> any Error {
        if var recordError = error.underlying as? XMLRecordError {
            recordError.source = recordError.source ?? error.source
            return recordError
        }
        if var sizeError = error.underlying as? RecordSizeLimitError {
            sizeError.source = sizeError.source ?? error.source
            return sizeError
        }
        return error.underlying
    }
}

/// Ends a parse once the first record is built.
private struct FirstRecordFound: Error {}

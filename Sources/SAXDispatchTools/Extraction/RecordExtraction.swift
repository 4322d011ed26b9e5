import SAXDispatch

/// What `saxdispatch extract` does: streams a document, builds one row per element
/// matching a pattern from the named fields, and writes the rows as JSON Lines, CSV or
/// TSV, in constant memory.
///
/// ```swift
/// let extraction = RecordExtraction(
///     pattern: "animal", fields: [try ExtractField(parsing: "kind"), try ExtractField(parsing: "url:url")])
/// let summary = try extraction.run(DocumentInput(path: "zoo.xml"), output: { write($0) }, diagnostic: { print($0) })
/// ```
public struct RecordExtraction {
    /// The elements that become rows.
    public var pattern: ElementPattern
    /// The columns, in order.
    public var fields: [ExtractField]
    /// How rows are written.
    public var format: RowWriter.Format
    /// Whether a record that cannot be built is skipped (with a diagnostic) instead of
    /// ending the run.
    public var skipsFailures: Bool
    /// The limits the document must keep.
    public var safety: SafetyProfile
    /// Whether names are matched by namespace (the default) or as written
    /// (`--no-namespaces`); see ``Dispatcher/processesNamespaces``.
    public var processesNamespaces: Bool

    /// What a finished run wrote and skipped.
    public struct Summary: Sendable, Hashable {
        /// Rows written.
        public var records = 0
        /// Records skipped because they could not be built.
        public var skipped = 0
        /// Bytes of input read.
        public var bytes = 0
    }

    public init(
        pattern: ElementPattern, fields: [ExtractField], format: RowWriter.Format = .jsonl,
        skipsFailures: Bool = false, safety: SafetyProfile = .default, processesNamespaces: Bool = true
    ) {
        self.pattern = pattern
        self.fields = fields
        self.format = format
        self.skipsFailures = skipsFailures
        self.safety = safety
        self.processesNamespaces = processesNamespaces
    }

    /// Reads the pattern of the elements that become rows, as given on a command line.
    ///
    /// - Throws: ``ElementPatternError`` when `text` is not a valid ``ElementPattern``, or
    ///   when a name in it is not an XML name (`item?`), which no element could match.
    public static func recordPattern(_ text: String) throws(ElementPatternError) -> ElementPattern {
        let pattern = try ElementPattern(text)
        if let problem = PatternNames.firstProblem(inPattern: text) {
            throw ElementPatternError(pattern: text, column: problem.column, message: problem.message)
        }
        return pattern
    }

    /// The record that reads one row, named after the pattern in messages.
    var record: Record<[ExtractedValue]> {
        let record = Record(pattern, fields: fields.map(\.recordField)) { $0 }.named(pattern.description)
            .processingNamespaces(processesNamespaces)
        return skipsFailures ? record.onFailure(.skip) : record
    }

    /// Extracts the rows of `input`.
    ///
    /// Rows written before an error are all handed to `output` before the error is thrown.
    ///
    /// - Parameters:
    ///   - input: The document, how it is fed, and the progress meter (counting rows).
    ///   - output: Receives the written rows, in large pieces.
    ///   - diagnostic: Receives the error of each skipped record, as it happens.
    /// - Throws: ``RecordError`` for a record that cannot be built (unless failures are
    ///   skipped), ``XMLParseError`` for a malformed document, ``XMLInputError`` when the
    ///   input cannot be read.
    public func run(
        _ input: DocumentInput, output: @escaping (UnsafeRawBufferPointer) -> Void,
        diagnostic: @escaping (RecordError) -> Void
    ) throws -> Summary {
        var writer = RowWriter(format: format, names: fields.map(\.name), sink: output)
        writer.writeHeader()
        defer { writer.flush() }
        var summary = Summary()
        let parsed = try record.forEach(
            source: input.path, safety: safety,
            diagnostics: { error in
                input.progress?.clear()
                diagnostic(error)
            },
            feeding: { parser in summary.bytes = try input.feed(parser) { summary.records } }
        ) { row in
            writer.write(row)
            summary.records += 1
        }
        summary.skipped = parsed.failed
        return summary
    }
}

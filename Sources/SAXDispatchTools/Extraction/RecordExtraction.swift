import SAXDispatch

/// What `saxdispatch extract` does: streams a document, builds one row per element
/// matching a pattern from the named fields, and writes the rows as JSON Lines, CSV or
/// TSV, in constant memory.
///
/// ```swift
/// let extraction = RecordExtraction(
///     pattern: "animal", fields: [try ExtractField(parsing: "kind"), try ExtractField(parsing: "url:url")])
/// let summary = try extraction.run(.file("zoo.xml"), output: { write($0) }, diagnostic: { print($0) })
/// ```
public struct RecordExtraction: Sendable {
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
    /// The prefixes the pattern and the field paths resolve through (`-N PREFIX=URI`).
    public var namespaces: NamespaceBindings
    /// Whether names are matched by namespace (the default) or as written
    /// (`--no-namespaces`); see ``Dispatcher/processesNamespaces``.
    public var processesNamespaces: Bool
    /// Whether a CSV or TSV run starts with its header row: true unless set; the files
    /// after the first of many leave it out, so that their rows make one table.
    public var writesHeader = true
    /// Read only the records whose start tags begin at these byte offsets of the document
    /// (``XMLRecord/forEach(in:startingIn:framingFrom:safety:diagnostics:_:)``), or every record.
    public var offsets: Range<Int>?
    /// Where the framing pass of a range read may begin instead of the document's start:
    /// ranges of the same document and record (`saxdispatch split`'s), the last one at or
    /// before ``offsets`` used.
    public var checkpoints: [XMLDocumentRange] = []
    /// Whether each row begins with the record's byte offset in the document, in a column
    /// named ``offsetColumn``.
    public var writesOffsets = false
    /// The name of the byte offset's column.
    public static let offsetColumn = "offset"

    /// What a finished run wrote and skipped.
    public struct Summary: Sendable, Hashable {
        /// Rows written.
        public var records = 0
        /// Records skipped because they could not be built.
        public var skipped = 0
        /// Bytes of input read.
        public var bytes = 0
        /// What the parse found worth a warning: a prefix of the pattern or a field that
        /// is bound nowhere and that no element read was written with, so its names matched
        /// nothing (said in the command line's terms, `-N`; none with names read as
        /// written); the record pattern that matched no element, or a field that matched
        /// nothing in any record (``ParseWarning/Code/isUnmatched``: exit status 3).
        public var warnings: [ParseWarning] = []

        /// Nothing written, skipped or read yet: what a run starts from.
        public init() {}
    }

    public init(
        pattern: ElementPattern, fields: [ExtractField], format: RowWriter.Format = .jsonl,
        skipsFailures: Bool = false, safety: SafetyProfile = .default, namespaces: NamespaceBindings = NamespaceBindings(),
        processesNamespaces: Bool = true
    ) {
        self.pattern = pattern
        self.fields = fields
        self.format = format
        self.skipsFailures = skipsFailures
        self.safety = safety
        self.namespaces = namespaces
        self.processesNamespaces = processesNamespaces
    }

    /// Reads the pattern of the elements that become rows, as given on a command line.
    ///
    /// - Throws: ``XMLPatternError`` when `text` is not a valid ``ElementPattern``, or
    ///   when a name in it is not an XML name (`item?`), which no element could match.
    public static func recordPattern(_ text: String) throws(XMLPatternError) -> ElementPattern {
        let pattern = try ElementPattern(text)
        if let problem = PatternNames.firstProblem(inPattern: text) {
            throw XMLPatternError(.elementPattern, text: text, column: problem.column, message: problem.message)
        }
        return pattern
    }

    /// The record that reads one row, named after the pattern in messages.
    var record: XMLRecord<[ExtractedValue]> {
        // As XML, a row is the record element itself, whatever fields say.
        var columns = format == .xml ? [RecordField.outerMarkup(".").map { ExtractedValue.string($0) }] : fields.map(\.recordField)
        if writesOffsets { columns.insert(RecordField.byteOffset.map { ExtractedValue.integer($0) }, at: 0) }
        let record = XMLRecord(pattern, fields: columns) { $0 }.named(pattern.description)
            .namespaces(namespaces).processingNamespaces(processesNamespaces)
        return skipsFailures ? record.onFailure(.skip) : record
    }

    /// Extracts the rows of `input`.
    ///
    /// Rows written before an error are all handed to `output` before the error is thrown.
    ///
    /// - Parameters:
    ///   - input: The document.
    ///   - meter: A progress meter to update as the input is read, counting rows.
    ///   - output: Receives the written rows, in large pieces.
    ///   - diagnostic: Receives the error of each skipped record, as it happens.
    /// - Throws: ``XMLRecordError`` for a record that cannot be built (unless failures are
    ///   skipped), ``XMLParseError`` for a malformed document, ``XMLInputError`` when the
    ///   input cannot be read, ``DecompressionError`` when it is compressed and cannot be
    ///   decompressed.
    public func run(
        _ input: XMLInput, progress meter: (any ProgressDisplay)? = nil, output: @escaping (UnsafeRawBufferPointer) -> Void,
        diagnostic: @escaping (XMLRecordError) -> Void
    ) throws -> Summary {
        var summary = Summary()
        try run(input, progress: meter, output: output, diagnostic: diagnostic, summary: &summary)
        return summary
    }

    /// Extracts the rows of `input`, keeping count in `summary` as it goes, so that a run
    /// that throws still says what it wrote: the rows before an error are in the output,
    /// and `summary.records` counts them. With `workers` above 1 the document is read in
    /// ranges on that many threads (``XMLRecord/forEach(in:workers:rangeBytes:safety:diagnostics:_:)``),
    /// the rows in the same order.
    ///
    /// - Throws: what ``run(_:progress:output:diagnostic:)`` throws, with `summary` as it
    ///   stood when the error came.
    public func run(
        _ input: XMLInput, progress meter: (any ProgressDisplay)? = nil, workers: Int = 1,
        output: @escaping (UnsafeRawBufferPointer) -> Void, diagnostic: @escaping (XMLRecordError) -> Void,
        summary result: inout Summary
    ) throws {
        var writer = RowWriter(format: format, names: columnNames, sink: output)
        if writesHeader { writer.writeHeader() } else { writer.omitHeader() }
        defer { writer.flush() }
        var summary = Summary()
        // The closures below keep the count; `result` takes it however the run ends.
        defer { result = summary }
        let progress = ReadProgress(meter: meter) { summary.records }
        defer { progress.finish() }
        func report(_ error: XMLRecordError) {
            meter?.clear()
            diagnostic(error)
        }
        func write(_ row: [ExtractedValue]) {
            writer.write(row)
            summary.records += 1
        }
        let parsed =
            if let offsets {
                try record.forEach(
                    in: progress.reading(input), startingIn: offsets,
                    framingFrom: checkpoints.last { $0.start <= offsets.lowerBound }, safety: safety, diagnostics: report, write)
            } else {
                try record.forEach(in: progress.reading(input), workers: workers, safety: safety, diagnostics: report, write)
            }
        summary.skipped = parsed.failed
        summary.bytes = progress.bytes
        // Names read as written have no bindings to suggest: the prefix warnings are for
        // names matched by namespace. What matched nothing, and warnings about the document, are
        // said in every mode.
        summary.warnings = parsed.warnings.filter { processesNamespaces || $0.code != .unboundPatternPrefix }
            .map(Self.commandLineWarning)
    }

    /// The names of the columns, in order: the byte offset's first when written.
    public var columnNames: [String] { (writesOffsets ? [Self.offsetColumn] : []) + fields.map(\.name) }

    /// The notes that go with `error`: for each field that is missing from the record and
    /// whose last step could have meant a prefixed name (``ExtractField/spellingNote``),
    /// the field's name and how to write that name, as a `SOURCE:LINE:COLUMN: note: …` line.
    ///
    /// A missing field whose path has a prefix that no `-N` binds gets the note that says to
    /// bind it, in every `--on-error` mode: the warning that says so at the end of a parse
    /// comes only when the parse reads to the end.
    public func notes(for error: XMLRecordError) -> [(field: String, text: String)] {
        error.failures.compactMap { failure in
            guard case .missing = failure.reason, let field = fields.first(where: { $0.name == failure.fieldName }),
                let note = field.spellingNote ?? unboundPrefixNote(field)
            else { return nil }
            return (failure.fieldName, "\(error.source ?? "<input>"):\(failure.line):\(failure.column): note: \(note)")
        }
    }

    /// The hint to bind the first prefix of `field`'s path that no `-N` binds, or `nil`.
    func unboundPrefixNote(_ field: ExtractField) -> String? {
        guard processesNamespaces,
            let prefix = PatternNames.prefixes(inPath: field.path.description).first(where: {
                $0 != "xml" && namespaces.uri(for: $0) == nil
            })
        else { return nil }
        return "the prefix '\(prefix)' of --field '\(field.path.description)' is bound by no -N, so it matches only"
            + " elements written with that prefix: bind it with -N \(prefix)=URI, or write the name in Clark notation"
            + " ('{URI}local')"
    }

    /// A warning of the parse, said with what the command line offers: `-N` rather than
    /// the dispatcher's `namespaces`.
    static func commandLineWarning(_ warning: ParseWarning) -> ParseWarning {
        guard let prefix = warning.prefix else { return warning }
        var rewritten = warning
        rewritten.message =
            "the prefix '\(prefix)' of --record or --field is bound nowhere and no element read was written with it,"
            + " so its names matched nothing: bind it with -N \(prefix)=URI, or write the names in Clark notation"
            + " ('{URI}local')"
        return rewritten
    }

    /// Why the pattern and fields cannot be read as given with names read as written
    /// (`--no-namespaces`), or `nil`: Clark names and bindings need namespace processing,
    /// and without it would match nothing.
    public static func namespaceProblem(
        pattern: String, fields: [String], namespaces: NamespaceBindings, processesNamespaces: Bool
    ) -> String? {
        guard !processesNamespaces else { return nil }
        if !namespaces.isEmpty {
            return "-N binds prefixes to namespace URIs, which --no-namespaces does not read: leave out one or the other"
        }
        for (option, text) in [("--record", pattern)] + fields.map({ ("--field", $0) }) where PatternNames.hasClarkName(text) {
            return "\(option) '\(text)': a name in Clark notation ({URI}local) needs namespace processing,"
                + " which --no-namespaces turns off: leave it out, or write the name as the document does"
        }
        return nil
    }
}

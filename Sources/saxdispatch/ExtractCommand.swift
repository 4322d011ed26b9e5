import ArgumentParser
import SAXDispatch
import SAXDispatchTools

struct ExtractCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Stream one row per record, with typed fields, as JSON Lines, CSV or TSV, or each record as XML.",
        discussion: """
            Every element matching --record PATTERN becomes one row, built from the \
            fields named with --field NAME=RELPATH[:TYPE], in constant memory whatever \
            the document's size.

            RELPATH is relative to the record: 'kind' (a child's text), 'a/b' (a \
            grandchild's), '//name' (anywhere inside), '.' (the record's own text), \
            '@id' (the record's attribute), 'link/@href' (a child's attribute), \
            'link[@rel='alternate']/@href' (a child chosen by attribute). NAME= may be \
            left out: the column is then named after the path.

            An element's text is its own: text inside its child elements is the \
            children's. string(RELPATH) reads its whole text instead, its own and all \
            its descendants' in document order, as XPath's string() does; string(.) is \
            the record's own whole text. For <p>Plain <em>and</em> simple</p>, 'p' \
            reads "Plain  simple" and 'string(p)' "Plain and simple". A TYPE may \
            follow: --field 'total=string(price):decimal'.

            Names match by namespace URI. Bind a prefix with -N PREFIX=URI (repeat it, \
            as in xmlstarlet): with -N atom=http://www.w3.org/2005/Atom, 'atom:entry' \
            matches the entry elements of that namespace whatever prefix the document \
            writes them with, a default namespace included. A name in Clark notation, \
            '{http://www.w3.org/2005/Atom}entry' (quoted for the shell), needs no \
            binding. A prefix that no -N binds matches the prefix as the document \
            writes it; an unprefixed name matches unprefixed elements in any default \
            namespace; '*:customer' matches a local name in any namespace or none, \
            with any prefix (a SOAP body whose URI varies by vendor). A prefix that no \
            -N binds and no element read was written with matches nothing: once the \
            document is read, FILE: warning: ... on standard error says so. \
            'saxdispatch paths' lists the \
            prefixes and URIs a document uses. --no-namespaces reads names as written \
            (prefix included; no -N, no Clark names), for legacy documents that are \
            not namespace-well-formed.

            TYPE: string (default), int, double, decimal, bool (true/false/1/0), url, \
            date (ISO 8601), date-rfc822, date-epoch. Add '?' for an optional field \
            (null when absent, nil-marked, or empty and not a string; an empty string? \
            is "") or '[]' for every occurrence (a list). \
            A last step PREFIX:NAME whose NAME is also a type (dc:date, x:int) is the \
            element PREFIX:NAME, as text, when PREFIX is bound with -N; otherwise it is \
            PREFIX converted to NAME, as id:int is id as an int, and when PREFIX is then \
            missing from a record, a note says how to write the other. Write the type to \
            leave no doubt: dc:date:string, dc:date:date, or \
            '{http://purl.org/dc/elements/1.1/}date:date'. A mistyped type (price:integer, price:strng, \
            tag:strings[]) is a usage error that names the type meant; so is a name \
            that no element or attribute can have (t?, @@x, a:).

            A required field that is absent, or text that does not convert, fails the \
            record: --on-error fail (default) prints FILE:LINE:COLUMN: error: … for each \
            bad field and fails the file after the rows before it; --on-error skip prints the \
            same diagnostics, leaves the record out and goes on.

            One file is read on --jobs N threads (default: the number of processors): \
            a fast framing pass cuts it into ranges at the records, each range is parsed \
            on a thread of its own, and the rows come in document order, the same as \
            with --jobs 1 (anything a range's own parse cannot verify, and the rest of \
            the file, is read by one sequential parse). \
            --range START-END reads only the records whose start tag begins at byte \
            START to END (END excluded) of FILE, as a task of a distributed engine reads \
            the byte range it was given: tasks given adjacent ranges (0-K, K-M, M-) \
            write every record exactly once, whatever the offsets, and a record that \
            begins in a range and ends past it is read whole by that range (Hadoop's \
            rule; saxdispatch split proposes ranges of equal size). A framing pass reads \
            FILE from its start to the range's end (reading, not parsing), and the range \
            is parsed as a document of its own, with lines, columns and offsets counted \
            from the file's start. --with-offset begins each row with its record's byte \
            offset (a column named offset). --checkpoints RANGES (what saxdispatch \
            split printed for FILE and the same record) lets the framing pass begin at \
            the last of those ranges at or before START instead of the file's start: \
            a task then reads from there only. To resume a job that stopped: drop a last \
            line that does not end in a line feed, take the offset K of the last row, \
            and append what --range K+1- (or K+1-END) writes.

            Many files are read --jobs N at a time (default: the number of processors); \
            their rows come in the order the files were given, one file's never between \
            another's, under one CSV or TSV header, and a summary line ends the run \
            (saxdispatch extract: 8 files read, 1 failed, 1,204,331 records). A file \
            that fails (malformed, unreadable, or a record that cannot be built) is \
            reported and the others are read; add stop (--on-error stop, or \
            --on-error skip,stop) to start no file after one fails. The exit status is \
            1 when any file failed.

            A --record that matched no element of a document, or a --field that matched \
            nothing in any of its records, is said once the document is read, in every \
            --on-error mode: FILE: warning: record pattern `itme` matched no element; \
            this document has `item` (1,048 times). The exit status is then 3 (unless a \
            file failed: 1), as grep exits 1 when nothing matched.

            JSON Lines: one object per record, keys in field order, dates as ISO 8601 in \
            UTC. CSV (RFC 4180) and TSV have a header row; CSV quotes values holding a \
            comma, quote or line break; TSV writes tab, newline and backslash as \\t, \\n \
            and \\\\; null is an empty value and a list is its JSON array text.

            Examples:
              saxdispatch extract zoo.xml --record animal --field kind \\
                  --field name=nested_nonsense/name
              saxdispatch extract map.osm --record node --field id=@id:int \\
                  --field lat=@lat:double --field lon=@lon:double \\
                  --field "name=tag[@k='name']/@v:string?" --format csv
              saxdispatch extract dump.xml.gz --record page \\
                  --field title --field id:int
              saxdispatch extract feed.xml --record item --field title \\
                  --field 'text=string(description)' --format csv
              saxdispatch extract feed.atom -N atom=http://www.w3.org/2005/Atom \\
                  --record atom:entry --field atom:title --field updated=atom:updated:date
              saxdispatch extract feed.atom --record '{http://www.w3.org/2005/Atom}entry' \\
                  --field 'title={http://www.w3.org/2005/Atom}title'
              saxdispatch extract feed.atom -N atom=http://www.w3.org/2005/Atom \\
                  --record atom:entry --format xml
              saxdispatch extract response.xml --record '*:customer' \\
                  --field id=@id --field 'name=*:name'
              saxdispatch extract enwiki.xml --record page --field title \\
                  --range 1073741824-2147483648 --with-offset
              saxdispatch extract pubmed/*.xml.gz --record PubmedArticle \\
                  --field pmid=MedlineCitation/PMID:int --jobs 4 --format csv
            """
    )

    @Argument(help: "The documents to read; '-' reads standard input.")
    var files: [String] = []

    @Option(name: .customLong("record"), help: ArgumentHelp("The elements that become rows.", valueName: "pattern"))
    var recordPattern: String

    @Option(
        name: .customLong("field"),
        help: ArgumentHelp(
            "A column: NAME=RELPATH[:TYPE], or NAME=string(RELPATH)[:TYPE] for a whole text, in output order (repeat it).",
            valueName: "name=relpath:type"))
    var fieldArguments: [String] = []

    @Option(
        help: ArgumentHelp(
            "Output format: jsonl, csv, tsv, or xml (each record element whole, one per line, with the"
                + " namespace declarations it needs; no --field).", valueName: "format"))
    var format: RowWriter.Format = .jsonl

    @Option(
        name: .customLong("on-error"),
        help: ArgumentHelp(
            "What a record that cannot be built does: fail (its file) or skip (the record); and what a failed "
                + "file does: continue (the others are read) or stop (no file starts after it). One of each, "
                + "joined by a comma: skip,stop.",
            valueName: "mode"))
    var onError = FailureMode()

    @Option(
        name: [.customShort("N"), .customLong("namespace")],
        help: ArgumentHelp("Bind PREFIX to a namespace URI for --record and --field names (repeat it).", valueName: "prefix=uri"))
    var namespaceArguments: [String] = []

    @Option(
        name: .customLong("range"),
        help: ArgumentHelp(
            "Read only the records whose start tag begins at byte START to END (END excluded) of the one FILE;"
                + " START- reads to the end (to resume a job).",
            valueName: "start-end"))
    var rangeArgument: String?

    @Option(
        name: .customLong("checkpoints"),
        help: ArgumentHelp(
            "With --range: the output of saxdispatch split for FILE and the same record name; the framing pass "
                + "begins at the last range at or before START instead of the file's start.",
            valueName: "file"))
    var checkpointsPath: String?

    @Flag(
        name: .customLong("with-offset"),
        help: "Begin each row with the record's byte offset in the file: a column named offset (with --format xml, the offset and a tab).")
    var withOffset = false

    @OptionGroup var options: DocumentOptions

    @OptionGroup var namespaceProcessing: NamespaceProcessingOption

    @OptionGroup var undeclaredEntities: UndeclaredEntitiesOption

    @OptionGroup var manyFiles: ManyFilesOptions

    /// `--on-error`: what a bad record does (fail its file, or be skipped) and what a
    /// failed file does (the others continue, or none starts after it).
    struct FailureMode: ExpressibleByArgument, Equatable {
        var skipsRecords = false
        var stopsFiles = false

        init() {}

        init?(argument: String) {
            var record: Bool?
            var file: Bool?
            for word in argument.split(separator: ",", omittingEmptySubsequences: false) {
                switch word {
                case "fail" where record == nil: record = false
                case "skip" where record == nil: record = true
                case "continue" where file == nil: file = false
                case "stop" where file == nil: file = true
                default: return nil
                }
            }
            skipsRecords = record ?? false
            stopsFiles = file ?? false
        }

        static var allValueStrings: [String] { ["fail", "skip", "continue", "stop", "skip,stop"] }

        var defaultValueDescription: String { "fail,continue" }
    }

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give a FILE to read, or '-' for standard input") }
        try ManyFilesOptions.validate(files: files)
        if rangeArgument != nil && (files.count != 1 || files[0] == "-") {
            throw ValidationError("--range reads a range of one FILE, by its offsets: give one file, not standard input")
        }
        if checkpointsPath != nil && rangeArgument == nil {
            throw ValidationError("--checkpoints is for --range: give the range to read")
        }
        _ = try extraction()
    }

    /// The byte offsets `--range` names.
    func offsets() throws -> Range<Int>? {
        guard let rangeArgument else { return nil }
        guard let offsets = ByteRangeArgument.parse(rangeArgument) else {
            throw ValidationError(
                "--range takes START-END or START- in bytes, START at most END (as saxdispatch split prints them): not '\(rangeArgument)'")
        }
        return offsets
    }

    /// The extraction the options describe.
    func extraction() throws -> RecordExtraction {
        if format == .xml {
            guard fieldArguments.isEmpty else {
                throw ValidationError("--format xml writes each record element whole: leave out --field")
            }
        } else if fieldArguments.isEmpty {
            throw ValidationError("give at least one --field NAME=RELPATH[:TYPE], or --format xml for whole records")
        }
        let namespaces: NamespaceBindings
        do {
            namespaces = try NamespaceArguments.bindings(namespaceArguments)
        } catch {
            throw ValidationError(error.description)
        }
        let processesNamespaces = namespaceProcessing.processesNamespaces
        if let problem = RecordExtraction.namespaceProblem(
            pattern: recordPattern, fields: fieldArguments, namespaces: namespaces, processesNamespaces: processesNamespaces)
        {
            throw ValidationError(problem)
        }
        let pattern: ElementPattern
        do {
            pattern = try RecordExtraction.recordPattern(recordPattern)
        } catch {
            throw ValidationError("--record: \(error)")
        }
        var fields: [ExtractField] = []
        for argument in fieldArguments {
            do {
                fields.append(try ExtractField(parsing: argument, namespaces: namespaces))
            } catch {
                throw ValidationError(error.description)
            }
        }
        var seen: Set<String> = withOffset ? [RecordExtraction.offsetColumn] : []
        for field in fields where !seen.insert(field.name).inserted {
            if withOffset && field.name == RecordExtraction.offsetColumn {
                throw ValidationError("--with-offset adds a column named offset: name the field otherwise with NAME=")
            }
            throw ValidationError("two fields are named '\(field.name)'; name them with NAME=")
        }
        var extraction = RecordExtraction(
            pattern: pattern, fields: fields, format: format, skipsFailures: onError.skipsRecords,
            safety: undeclaredEntities.applied(to: try options.profile()), namespaces: namespaces,
            processesNamespaces: processesNamespaces)
        extraction.offsets = try offsets()
        if let checkpointsPath {
            do {
                extraction.checkpoints = try RangeLine.ranges(inFile: checkpointsPath)
            } catch {
                throw ValidationError("--checkpoints: \(error)")
            }
        }
        extraction.writesOffsets = withOffset
        return extraction
    }

    func run() async throws {
        let extraction = try extraction()
        let run = FileRun(
            files: files, options: options, jobs: manyFiles.jobCount, failurePolicy: onError.stopsFiles ? .stop : .continue,
            unit: .records, streamsOutput: true)
        var records = 0
        var matchedNothing = false
        // One file is read on the cores, in ranges; many files a file per job.
        let workers = files.count == 1 ? manyFiles.jobCount : 1
        let summary = try await run.run { file in
            var extraction = extraction
            // One header for the rows of all the files: theirs make one table.
            extraction.writesHeader = file.index == 0
            return try Self.extract(file, with: extraction, workers: workers)
        } delivered: { summary, _, _ in
            records += summary.records
            if summary.warnings.contains(where: \.code.isUnmatched) { matchedNothing = true }
        } failed: { error, _ in
            // A failed file's rows before its error are in the output: the summary counts them.
            records += (error as? DocumentFailure)?.recordsWritten ?? 0
        }
        if files.count > 1 {
            Output.standardError(FileRun.summaryLine(command: "extract", summary, count: (records, .records)))
        }
        if summary.failed > 0 { throw ExitCode.failure }
        if matchedNothing { throw ExitCode(Self.matchedNothingStatus) }
    }

    /// The exit status when no file failed but --record or a --field matched nothing in a
    /// file (a warning on standard error said which), as grep exits 1 when nothing matched:
    /// 1 and 2 are taken by failures and usage errors.
    static let matchedNothingStatus: Int32 = 3

    /// Extracts the rows of one file into its channel, with its diagnostics, warnings and
    /// count of skipped records.
    ///
    /// - Throws: ``DocumentFailure``, rendered with the notes of a record that cannot be built.
    private static func extract(
        _ file: FileRun.File, with extraction: RecordExtraction, workers: Int
    ) throws -> RecordExtraction.Summary {
        let output = file.output
        var summary = RecordExtraction.Summary()
        // A field's note is said once, with its first missing element: a skipped record
        // after another would only repeat it.
        var notedFields: Set<String> = []
        func explained(_ error: XMLRecordError) -> String {
            let notes = extraction.notes(for: error).filter { notedFields.insert($0.field).inserted }
            return ([error.description] + notes.map(\.text)).joined(separator: "\n")
        }
        do {
            try extraction.run(
                file.input, progress: file.meter(), workers: workers,
                output: { output.write($0, to: .output) },
                diagnostic: { output.write(explained($0) + "\n", to: .error) }, summary: &summary)
        } catch let error as XMLRecordError {
            var failure = DocumentFailure(error, path: file.path)
            failure.message = explained(error)
            failure.recordsWritten = summary.records
            throw failure
        } catch {
            var failure = DocumentFailure(error, path: file.path)
            failure.recordsWritten = summary.records
            throw failure
        }
        for warning in summary.warnings {
            output.write(warning.description + "\n", to: .error)
        }
        if summary.skipped > 0 {
            output.write(
                "saxdispatch: skipped \(ProgressMeter.grouped(summary.skipped)) of "
                    + "\(ProgressMeter.grouped(summary.records + summary.skipped)) records that could not be built\n",
                to: .error)
        }
        return summary
    }
}

extension RowWriter.Format: ExpressibleByArgument {}

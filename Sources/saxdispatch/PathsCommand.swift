import ArgumentParser
import SAXDispatch
import SAXDispatchTools

struct PathsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paths",
        abstract: "List every distinct element path with its count, depth and attribute names.",
        discussion: """
            The way to discover what a large document holds before writing patterns for \
            it: one pass, in memory that grows with the number of distinct paths, not \
            with the document.

            Columns: PATH (absolute, from the root element), COUNT (elements with that \
            path), DEPTH (1 for the root), BELOW (the most levels of elements found \
            inside one of them; 0 for leaves), ATTRIBUTES (names seen on them, in order \
            of first appearance), and with --samples, SAMPLE: the first non-empty text \
            of an element with that path, whitespace collapsed, shortened to 60 \
            characters. --format jsonl writes one object per path with the keys path, \
            count, depth, levelsBelow, attributes, namespaceURIs (the URIs of its \
            elements: none, one, or more where its prefix is bound differently in \
            different places) and sample.

            Names keep the prefixes the document wrote. When names are in namespaces, a \
            table of PREFIX and NAMESPACE comes first, one row for each URI a prefix \
            stood for, '(default)' for a default namespace: bind those with -N to match \
            them in 'extract', whatever prefix another document uses. --format jsonl \
            writes it as a first object, {"namespaces":[{"prefix":null,"uri":"..."}, \
            ...]}, the default namespace's prefix null. With --no-namespaces, names are \
            read as written and xmlns declarations are attributes.

            A document with more than --max-entries distinct paths, attribute names \
            and namespace bindings together, or whose paths and names take more than \
            64 MiB, stops with an error instead of growing without bound. When the \
            document fails part of the way (malformed, truncated, too many paths), the \
            paths seen before the error are printed, then the error, and the exit \
            status is 1.

            Many files, parsed --jobs N at a time (default: the number of processors), \
            make one census: the paths of all of them, counts added up, attribute \
            names, namespaces and samples in order of first appearance over the files \
            as given (--max-entries bounds each file and the whole), then a summary \
            line on standard error (saxdispatch paths: 8 files read, 0 failed, \
            10,480,792 elements). The paths a failed file gave before its error count. \
            --on-error stop starts no file after one fails. One FILE is read on \
            --jobs N threads: a fast framing pass cuts it into ranges at the root's \
            children, each counted on a thread of its own, with the same output as \
            --jobs 1, its first error too.

            Examples:
              saxdispatch paths map.osm
              saxdispatch paths map.osm --sort count --samples
              saxdispatch paths feed.atom
              saxdispatch paths enwiki.xml.bz2 --format jsonl
              saxdispatch paths pubmed/*.xml.gz --sort count
            """
    )

    @Argument(help: "The documents to read; '-' reads standard input.")
    var files: [String]

    @Flag(help: "Show one sample text per path.")
    var samples = false

    @Option(help: ArgumentHelp("Order: document (first appearance) or count (most frequent first).", valueName: "order"))
    var sort: PathCensus.Order = .document

    @Option(help: ArgumentHelp("Output format: table or jsonl.", valueName: "format"))
    var format: PathReport.Format = .table

    @Option(
        name: .customLong("max-entries"),
        help: ArgumentHelp("The most distinct paths, attribute names and namespace bindings kept.", valueName: "n"))
    var maximumEntries = 100_000

    @OptionGroup var options: DocumentOptions

    @OptionGroup var namespaceProcessing: NamespaceProcessingOption

    @OptionGroup var manyFiles: ManyFilesOptions

    @OptionGroup var onError: FileFailureOption

    func validate() throws {
        guard maximumEntries > 0 else { throw ValidationError("--max-entries must be positive") }
        guard !files.isEmpty else { throw ValidationError("give a FILE to read, or '-' for standard input") }
        try ManyFilesOptions.validate(files: files)
    }

    func run() async throws {
        let census = PathCensus(
            safety: try options.profile(), collectsSamples: samples, maximumEntries: maximumEntries,
            processesNamespaces: namespaceProcessing.processesNamespaces)
        let run = FileRun(
            files: files, options: options, jobs: manyFiles.jobCount, failurePolicy: onError.policy, unit: .elements,
            streamsOutput: false)
        var merged = PathCensusMerge(maximumEntries: maximumEntries)
        // The paths seen before an error are printed too: a truncated dump still says
        // what it held.
        // One file is read on the cores, in ranges; many files a file per job. Standard
        // input is read once: what only the whole document decides cannot be read again.
        let workers = files.count == 1 && files[0] != "-" ? manyFiles.jobCount : 1
        let summary = try await run.run { file in
            let outcome = census.run(file.input, workers: workers, progress: file.meter(), order: .document)
            if let failure = outcome.failure {
                throw PartialCensus(outcome: outcome, message: DocumentFailure(failure, path: file.path).message)
            }
            return outcome
        } delivered: { outcome, _, _ in
            merged.add(outcome)
        } failed: { error, _ in
            if let partial = error as? PartialCensus { merged.add(partial.outcome) }
        }
        let entries = merged.entries(order: sort)
        var text = PathReport.text(entries, namespaces: merged.namespaces, format: format, samples: samples)
        if !entries.isEmpty { text.withUTF8 { Output.standardOutput(UnsafeRawBufferPointer($0)) } }
        var failed = summary.failed > 0
        if merged.isTruncated {
            Output.standardError(
                "saxdispatch paths: the files have more than \(ProgressMeter.grouped(maximumEntries)) distinct paths"
                    + " together (--max-entries): the paths past it are left out\n")
            failed = true
        }
        if files.count > 1 {
            Output.standardError(FileRun.summaryLine(command: "paths", summary, count: (merged.elements, .elements)))
        }
        if failed { throw ExitCode.failure }
    }
}

/// A census that ended early: its error, rendered, with the paths seen before it, which
/// are printed too.
private struct PartialCensus: RenderedFailure {
    var outcome: PathCensus.Outcome
    var message: String
}

extension PathCensus.Order: ExpressibleByArgument {}
extension PathReport.Format: ExpressibleByArgument {}

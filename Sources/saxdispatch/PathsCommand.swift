import ArgumentParser
import SAXDispatch
import SAXDispatchTools

struct PathsCommand: ParsableCommand {
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

            Examples:
              saxdispatch paths map.osm
              saxdispatch paths map.osm --sort count --samples
              saxdispatch paths feed.atom
              saxdispatch paths enwiki.xml.bz2 --format jsonl
            """
    )

    @Argument(help: "The document to read; '-' reads standard input.")
    var file: String

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

    func validate() throws {
        guard maximumEntries > 0 else { throw ValidationError("--max-entries must be positive") }
    }

    func run() throws {
        let census = PathCensus(
            safety: try options.profile(), collectsSamples: samples, maximumEntries: maximumEntries,
            processesNamespaces: namespaceProcessing.processesNamespaces)
        // The paths seen before an error are printed too: a truncated dump still says
        // what it held.
        let outcome = census.run(
            options.input(file), progress: options.progressMeter(reading: file, streamsOutput: false), order: sort)
        var text = PathReport.text(outcome.entries, namespaces: outcome.namespaces, format: format, samples: samples)
        if !outcome.entries.isEmpty { text.withUTF8 { Output.standardOutput(UnsafeRawBufferPointer($0)) } }
        if let failure = outcome.failure { throw DocumentFailure(failure, path: file) }
    }
}

extension PathCensus.Order: ExpressibleByArgument {}
extension PathReport.Format: ExpressibleByArgument {}

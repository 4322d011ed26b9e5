import SAXDispatch

/// Counts what a document contains, as `saxdispatch stats` reports it.
public struct DocumentStatistics: Sendable, Equatable {
    public var elements = 0
    public var distinctNames = 0
    public var maximumDepth = 0
    public var attributes = 0
    public var textBytes = 0
    public var bytesRead = 0
    /// The distinct names, as written: what ``distinctNames`` counts, kept so that the
    /// statistics of many files can count the names of all of them.
    public var names: Set<String> = []

    public init() {}

    /// Streams a document through a dispatcher that counts its events.
    ///
    /// - Parameters:
    ///   - safety: The limits the document must keep.
    ///   - source: Names the document in error messages.
    ///   - processesNamespaces: Whether names are read by namespace (the default) or as
    ///     written (``Dispatcher/processesNamespaces``); distinct names are counted as written.
    ///   - feed: Feeds the document to the parser it is given and finishes it, by
    ///     ``PushParser/parse(_:)`` or piece by piece; its second argument reads the number
    ///     of elements so far (for a progress meter).
    /// - Throws: What parsing throws.
    public static func collect(
        safety: SafetyProfile = .default, source: String? = nil, processesNamespaces: Bool = true,
        _ feed: (PushParser, _ elements: @escaping () -> Int) throws -> Void
    ) throws -> DocumentStatistics {
        let counter = Counter()
        var dispatcher = Dispatcher()
        counter.count(with: &dispatcher, safety: safety, processesNamespaces: processesNamespaces)
        let parser = PushParser(dispatcher, source: source)
        try feed(parser) { counter.statistics.elements }
        var statistics = counter.counted
        statistics.bytesRead = parser.byteCount
        return statistics
    }

    /// Counts what `input` contains, reading it in ranges on `workers` threads
    /// (``Dispatcher/parse(_:workers:rangeBytes:handlers:merge:)``) when above 1: the same
    /// counts, and the same first error, as one parse.
    ///
    /// - Parameters:
    ///   - input: The document.
    ///   - workers: How many threads read it; 1 reads it in one parse.
    ///   - safety: The limits the document must keep, over the whole document: one that
    ///     the ranges end with expat's memory budget, which may come earlier there, is read
    ///     again in one parse when the input can be read again.
    ///   - processesNamespaces: Whether names are read by namespace; distinct names are
    ///     counted as written.
    ///   - progress: A meter to update as the input is read, counting elements.
    /// - Throws: What parsing throws.
    public static func collect(
        _ input: XMLInput, workers: Int, safety: SafetyProfile = .default, processesNamespaces: Bool = true,
        progress meter: (any ProgressDisplay)? = nil
    ) throws -> DocumentStatistics {
        guard workers > 1 else {
            // One parse: the meter counts its elements as they come.
            return try collect(safety: safety, processesNamespaces: processesNamespaces) { parser, elements in
                let progress = ReadProgress(meter: meter, count: elements)
                defer { progress.finish() }
                try parser.parse(progress.reading(input))
            }
        }
        var total = DocumentStatistics()
        let progress = ReadProgress(meter: meter) { total.elements }
        defer { progress.finish() }
        do {
            try Dispatcher.parse(progress.reading(input), workers: workers) { range, dispatcher in
                let counter = Counter()
                counter.count(with: &dispatcher, safety: safety, processesNamespaces: processesNamespaces, owns: range.owns)
                return { counter.counted }
            } merge: { part in
                StatisticsTable.add(part, to: &total)
            }
        } catch let error as XMLParseError where error.code == .memoryLimitExceeded && input.canBeReadAgain {
            // Read in ranges, the memory budget may end the read earlier than one parse
            // would: one parse says where, or that it does not.
            return try collect(input, workers: 1, safety: safety, processesNamespaces: processesNamespaces)
        }
        total.bytesRead = progress.decompressedBytes
        return total
    }

    /// What one parse's handlers count.
    private final class Counter {
        var statistics = DocumentStatistics()
        var names: Set<String> = []

        /// Counts, through `dispatcher`, the elements `owns` accepts (a range's own, on
        /// workers) and every piece of text.
        func count(
            with dispatcher: inout Dispatcher, safety: SafetyProfile, processesNamespaces: Bool,
            owns: @escaping (ElementContext) -> Bool = { _ in true }
        ) {
            dispatcher.safety = safety
            dispatcher.processesNamespaces = processesNamespaces
            dispatcher.onAnyStart { [self] element in
                guard owns(element) else { return }
                statistics.elements += 1
                statistics.attributes += element.attributes.count
                if element.depth > statistics.maximumDepth { statistics.maximumDepth = element.depth }
                names.insert(element.name)
            }
            dispatcher.onAnyText { [self] _, chunk in statistics.textBytes += chunk.count }
        }

        /// The counts so far, with the distinct names.
        var counted: DocumentStatistics {
            var counted = statistics
            counted.names = names
            counted.distinctNames = names.count
            return counted
        }
    }
}

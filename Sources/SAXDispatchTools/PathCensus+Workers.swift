import SAXDispatch

extension PathCensus {
    /// Counts the paths of `input` reading it in ranges on `workers` threads when above 1
    /// (``Dispatcher/parse(_:workers:rangeBytes:handlers:merge:)``): the same entries in the
    /// same order, and the same failure, as ``run(_:progress:order:)``.
    ///
    /// Each range counts the elements it owns into a census of its own, merged in document
    /// order. What only the whole document decides is decided on it: when the merged census
    /// has more entries or bytes than the limits allow, or samples are kept and the root
    /// has text of its own (its sample is its text read whole), the document is read again
    /// in one parse, which fails or samples as it does without workers. So is a document
    /// that a read in ranges ends with expat's memory budget (``XMLParseError/Code/memoryLimitExceeded``),
    /// which may come earlier there than in one parse, when the input can be read again.
    ///
    /// - Parameters:
    ///   - input: The document.
    ///   - workers: How many threads read it; 1 reads it in one parse.
    ///   - meter: A meter to update as the input is read, counting elements.
    ///   - order: The order of the entries.
    public func run(
        _ input: XMLInput, workers: Int, progress meter: (any ProgressDisplay)? = nil, order: Order = .document
    ) -> Outcome {
        guard workers > 1 else { return run(input, progress: meter, order: order) }
        var merged = PathCensusMerge(maximumEntries: Int.max)
        var elements = 0
        var rootHasText = false
        var failure: (any Error)?
        do {
            let progress = ReadProgress(meter: meter) { elements }
            defer { progress.finish() }
            let census = self
            try Dispatcher.parse(progress.reading(input), workers: workers) { range, dispatcher in
                // The limits are checked on the merged census.
                let tally = Tally(maximumEntries: Int.max, maximumBytes: Int.max)
                let root = RootText()
                dispatcher.safety = census.safety
                dispatcher.processesNamespaces = census.processesNamespaces
                dispatcher.onAnyStart { element in try tally.start(element, counts: range.owns(element)) }
                if census.collectsSamples {
                    dispatcher.onAnyEnd(whitespace: .collapse) { _, text in tally.end(text: text) }
                } else {
                    dispatcher.onAnyEnd { _ in tally.end(text: nil) }
                }
                // A catch-all: a pattern for the root would take it from the catch-alls above.
                dispatcher.onAnyText { element, chunk in
                    if element.depth == 1 && !chunk.isWhitespace { root.hasText = true }
                }
                return { (Outcome(entries: tally.entries(order: .document), namespaces: tally.namespaces), tally.elements, root.hasText) }
            } merge: { outcome, count, hasText in
                merged.add(outcome)
                elements += count
                rootHasText = rootHasText || hasText
            }
        } catch {
            failure = error
        }
        let brokeMemoryLimit = (failure as? XMLParseError)?.code == .memoryLimitExceeded && input.canBeReadAgain
        if exceedsLimits(merged) || (collectsSamples && rootHasText) || brokeMemoryLimit {
            return run(input, progress: nil, order: order)
        }
        return Outcome(entries: merged.entries(order: order), namespaces: merged.namespaces, failure: failure)
    }

    /// Whether a census of the whole document would have failed with ``TooManyPaths``: its
    /// entries (each path, each attribute name of a path, each URI of a path past its first,
    /// each namespace binding) and their bytes, counted as one census counts them.
    func exceedsLimits(_ merged: PathCensusMerge) -> Bool {
        var entries = merged.namespaces.count
        var bytes = merged.namespaces.reduce(0) { $0 + ($1.prefix?.utf8.count ?? 0) + $1.uri.utf8.count }
        for entry in merged.entries(order: .document) {
            entries += 1 + entry.attributes.count + max(0, entry.namespaceURIs.count - 1)
            bytes += entry.path.utf8.count + entry.attributes.reduce(0) { $0 + $1.utf8.count }
            bytes += entry.namespaceURIs.dropFirst().reduce(0) { $0 + $1.utf8.count }
        }
        return entries > maximumEntries || bytes > maximumBytes
    }

    /// Whether the root element had text of its own, not white space, in a range.
    private final class RootText {
        var hasText = false
    }
}

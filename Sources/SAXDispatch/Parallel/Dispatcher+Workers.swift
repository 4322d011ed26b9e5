extension Dispatcher {
    /// Reads one document on `workers` threads with a set of handlers per range, and hands
    /// what each range's handlers collected to `merge`, in document order: statistics,
    /// counts, indexes, any state that can be made per part of a document and added up.
    ///
    /// ```swift
    /// final class Count { var elements = 0 }
    /// var elements = 0
    /// try Dispatcher.parse(.file("planet.osm"), workers: 8) { range, handlers in
    ///     let count = Count()
    ///     handlers.onAnyStart { element in if range.owns(element) { count.elements += 1 } }
    ///     return { count.elements }
    /// } merge: { elements += $0 }
    /// ```
    ///
    /// A fast framing pass on the calling thread cuts the document into ranges of about
    /// `rangeBytes` at the start tags of the root's children, and each worker parses a
    /// range as a document of its own (``XMLDocumentRange``) with the handlers `handlers`
    /// makes for it: they see the start tags of the elements open at the range's start
    /// first (its context, read by the range before it too: ``XMLParseRange/owns(_:)``
    /// tells them apart), then the range's own events. What they collected is taken, with
    /// the closure `handlers` returns, once the range's bytes are parsed and before the
    /// end tags that close the range's document are read, so those are seen by no range
    /// but the one where they are written.
    ///
    /// A range is verified by its own parse: the document must be open at the range's end
    /// as the framing pass found. The first range that fails, and everything after it, is
    /// read by one sequential parse from where it begins (with handlers made for that
    /// range), so the first error is the one a parse of the whole reports, at the same line
    /// and column, after every range before it was merged. So is the rest of a document the
    /// framing pass stops reading (another encoding than UTF-8, US-ASCII or ISO-8859-1), or
    /// one whose root has a child larger than 16 MiB. A document whose internal subset
    /// declares an entity with replacement text or an attribute default is read in one
    /// parse: the amplification ratios count from its first byte. Expat's memory budget
    /// (``SafetyProfile/maximumParserMemoryBytes``) holds over the whole document: once the
    /// distinct names of the ranges merged could fill it in one parse of the whole, the
    /// rest is read by one parse whose budget starts charged for at least what those names
    /// and one parse's reads would hold, so the limit ends the read no later than one
    /// parse of the whole would, perhaps earlier (what the ranges merged cannot be taken
    /// back to read the document again: records and `Decodable` values can, and are exact
    /// to the byte). With `workers` below 2, an input
    /// whose encoding is set to another than UTF-8, or that holds documents one after
    /// another, the document is read on the calling thread with one set of handlers.
    ///
    /// - Parameters:
    ///   - input: The document.
    ///   - workers: How many threads parse ranges (the calling thread frames and merges).
    ///   - rangeBytes: About how large each range is: 1 MiB unless given. The last ranges are
    ///     smaller when the input's length is known (a file, bytes in memory), so that the
    ///     workers end together.
    ///   - handlers: Sets up the handlers of one range, and any options (safety,
    ///     namespaces) in the dispatcher it is given, on the thread that parses the range;
    ///     returns what takes their result. Each range's handlers are its own: what they
    ///     share, they must guard. They may parse a range whose result is then dropped (one
    ///     that did not verify, and the ranges after it): only what `merge` receives counts.
    ///   - merge: Receives each range's result, in document order, on the calling thread;
    ///     after an error, what the range it is in collected before it too.
    /// - Returns: How many ranges the workers read, and where a sequential parse took over,
    ///   if one did.
    /// - Throws: ``XMLParseError`` for the first error of the document, ``HandlerError``
    ///   with what a handler threw (the sequential parse's), ``XMLInputError`` when the
    ///   input cannot be read, or what `merge` throws.
    @discardableResult
    public static func parse<Partial: Sendable>(
        _ input: XMLInput, workers: Int, rangeBytes: Int = 1 << 20,
        handlers: @escaping @Sendable (XMLParseRange, inout Dispatcher) -> () -> Partial,
        merge: (Partial) throws -> Void
    ) throws -> XMLParallelReadSummary {
        guard let parallel = ParallelRangeParse(input: input, workers: workers, rangeBytes: rangeBytes) else {
            var dispatcher = Dispatcher()
            let collected = handlers(XMLParseRange(start: 0), &dispatcher)
            do {
                try dispatcher.parse(input)
            } catch {
                try? merge(collected())
                throw error
            }
            try merge(collected())
            return XMLParallelReadSummary()
        }
        var fallback: (() -> Partial)?
        // What the sequential parse's handlers collected before an error is merged first.
        defer { if let fallback { try? merge(fallback()) } }
        let report = try parallel.run(
            parse: { job in
                var dispatcher = Dispatcher()
                let collected = handlers(XMLParseRange(start: job.origin?.byteOffset ?? 0), &dispatcher)
                var partial: Partial?
                guard job.parseVerifying(with: dispatcher, delivered: { 0 }, beforeClosing: { partial = collected() }) else {
                    return nil
                }
                return partial
            },
            deliver: merge,
            sequential: { start in
                var dispatcher = Dispatcher()
                // What the ranges' handlers collected cannot be taken back: the rest is read
                // from where it begins, never from the document's start.
                guard case .rest(let offset) = start else { return dispatcher }
                fallback = handlers(XMLParseRange(start: offset), &dispatcher)
                return dispatcher
            })
        if let collected = fallback {
            fallback = nil
            try merge(collected())
        }
        return XMLParallelReadSummary(rangesReadInParallel: report.rangesReadInParallel, sequentialFrom: report.sequentialFrom)
    }
}

/// How a document read on many threads was read: how many ranges the workers parsed, and
/// where one sequential parse took over, if one did.
public struct XMLParallelReadSummary: Sendable, Hashable {
    /// How many ranges of the document the workers read and verified; `0` for a
    /// sequential read.
    public var rangesReadInParallel = 0
    /// The offset from which the rest of the document was read by one sequential parse
    /// instead (a range that did not verify, or a document the framing pass does not read
    /// further); `nil` otherwise.
    public var sequentialFrom: Int?
}

/// Where the handlers of an ``XMLStream`` put the values the stream produces.
///
/// Each ``yield(_:)`` pauses the parse once the current event is handled, so the
/// stream's consumer takes the value before the parser reads on: however much input
/// one chunk holds, only the values of an event or two wait at a time (expat still
/// reports the end of an empty element paused at its start).
///
/// ```swift
/// let titles = XMLStream(bytes: response) { dispatcher, output in
///     dispatcher.onEnd("feed/entry/title") { _, text in output.yield(text) }
/// }
/// for try await title in titles { print(title) }
/// ```
///
/// An output belongs to one iteration of its stream and is used from its handlers;
/// it is not `Sendable`. Values yielded after the iteration ended are dropped.
public final class XMLStreamOutput<Element> {
    // The members the iteration uses per value are inlinable, so that a stream's
    // `next()` is specialized for its element type in the caller's module.

    // One iteration uses an output from one task at a time, so the per-value state
    // goes without dynamic exclusivity checks.

    /// Values yielded and not yet taken, from `head` on.
    @exclusivity(unchecked) @usableFromInline var values: [Element] = []
    @exclusivity(unchecked) @usableFromInline var head = 0
    @exclusivity(unchecked) @usableFromInline var isClosed = false
    /// The parser to pause; weak, because the parser's handlers hold the output.
    @usableFromInline weak var parser: PushParser?
    /// The most values that waited at once in this iteration; tests check the bound.
    @exclusivity(unchecked) @usableFromInline var mostWaiting = 0

    @usableFromInline init() {}

    /// The most values that may wait for the consumer while the parse cannot pause.
    ///
    /// Normally the values of one event wait: each value pauses the parse after the event.
    /// Inside an internal entity's replacement text (`&items;` declared in the DTD) the
    /// parse cannot pause (expat 2.5.0 loses the rest of an outer entity when resumed
    /// inside a nested one), so all the values of one reference wait; past this many the
    /// parse fails with ``XMLParseError/Code/streamBacklogExceeded``, after the values
    /// before it, rather than hold without bound what the entity limits allow. The values
    /// a handler yields for one event outside an entity are its own to bound, as are a
    /// synchronous parse's handlers, which need no waiting.
    public static var maximumWaitingValues: Int { 65_536 }

    /// Hands `value` to the stream's consumer, in order, and pauses the parse after
    /// the current event.
    @inlinable
    public func yield(_ value: Element) {
        guard !isClosed else { return }
        let waiting = values.count - head + 1
        if _slowPath(waiting > Self.maximumWaitingValues), let parser, parser.isPauseDeferred {
            parser.failStreamBacklog(limit: Self.maximumWaitingValues)
            return
        }
        values.append(value)
        if waiting > mostWaiting { mostWaiting = waiting }
        parser?.requestSuspension()
    }

    /// The oldest value waiting, removed from the output.
    @inlinable
    func take() -> Element? {
        guard head < values.count else { return nil }
        let value = values[head]
        head += 1
        if head == values.count {
            values.removeAll(keepingCapacity: true)
            head = 0
        }
        return value
    }

    /// Ends the iteration: drops waiting values and ignores later ones.
    @usableFromInline
    func close() {
        isClosed = true
        values = []
        head = 0
    }
}

@available(*, unavailable)
extension XMLStreamOutput: Sendable {}

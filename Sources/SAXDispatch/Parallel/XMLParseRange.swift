/// The part of a document that one set of handlers reads, when a document is read on many
/// threads (``Dispatcher/parse(_:workers:rangeBytes:handlers:merge:)``).
///
/// A range is parsed as a document of its own: first the start tags of the elements open
/// where it begins (its context, which the range before it read too), then its own
/// bytes. A start handler counts an element once by asking ``owns(_:)``:
///
/// ```swift
/// handlers.onAnyStart { element in
///     if range.owns(element) { count += 1 }
/// }
/// ```
public struct XMLParseRange: Sendable, Hashable {
    /// The offset in the document of the range's first byte: 0, or the `<` of the start
    /// tag it begins with.
    public let start: Int

    /// Makes the range that begins at `start`.
    public init(start: Int) {
        self.start = start
    }

    /// Whether `element`'s start tag is in this range's own bytes, rather than in its
    /// context (an element open around the range, which the range before it read).
    public func owns(_ element: ElementContext) -> Bool {
        element.byteOffset >= start
    }
}

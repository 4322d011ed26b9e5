/// How the coalesced text of an element is shaped before a handler receives it.
///
/// XML whitespace is space, tab, line feed and carriage return. Expat has already
/// normalized line ends to line feeds.
///
/// ```swift
/// dispatcher.onEnd("p", whitespace: .collapse) { _, text in print(text) }
/// ```
public enum WhitespacePolicy: Sendable, Hashable {
    /// The text exactly as it appeared, after entity and character references.
    case preserve
    /// Leading and trailing whitespace removed; whitespace-only text becomes `""`.
    /// The default.
    case trim
    /// Trimmed, and every inner run of whitespace replaced by a single space.
    case collapse
}

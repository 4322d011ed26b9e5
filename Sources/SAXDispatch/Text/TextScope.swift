/// Which text of an element a text-taking end handler receives: its own, or its whole text.
///
/// An element's own text is what it contains directly; text inside its child elements is
/// the children's. Its whole text (XPath's string value, ElementTree's `itertext()`) is the
/// text of the element and of all its descendants, in document order:
///
/// ```swift
/// // <p>Plain <em>and</em> simple</p>
/// dispatcher.onEnd("p") { _, text in }                  // "Plain  simple"
/// dispatcher.onEnd("p", text: .whole) { _, text in }    // "Plain and simple"
/// ```
///
/// Both include CDATA sections and the replacement text of entity and character
/// references, and leave out comments and processing instructions. The whitespace policy
/// applies to the text as a whole.
public enum TextScope: Sendable, Hashable {
    /// The element's own text: what it contains directly. The default.
    case own
    /// The element's whole text: its own and all its descendants', in document order.
    ///
    /// It is gathered only while an element whose whole text is wanted is open, in a
    /// buffer of its own, and counts against ``SafetyProfile/maximumTextBytes`` (as the
    /// element's text, from its first byte, leading whitespace included) and
    /// ``SafetyProfile/maximumCollectedTextBytes``.
    case whole
}

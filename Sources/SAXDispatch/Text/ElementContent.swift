/// What of an element's content a text-taking end handler receives as a `String`.
enum ElementContent: Sendable, Hashable {
    /// What the element contains directly.
    case ownText
    /// The text of the element and all its descendants, in document order.
    case wholeText
    /// The serialized markup between the element's tags (``MarkupWriter``).
    case innerMarkup
    /// The serialized element itself, its tags included.
    case outerMarkup

    init(_ scope: TextScope) {
        switch scope {
        case .own: self = .ownText
        case .whole: self = .wholeText
        }
    }
}

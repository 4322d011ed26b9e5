/// The names of the open elements from the root down to one element.
///
/// Rendered as the names joined by `/`, for example `zoo/facilities/toilet`.
public struct ElementPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// The element names, root first.
    public var components: [String]

    /// Creates a path from element names, root first.
    public init(_ components: [String]) {
        self.components = components
    }

    /// Creates a path from a literal list of names, root first: `["zoo", "animals"]`.
    public init(arrayLiteral elements: String...) {
        self.components = elements
    }

    /// Whether the path is empty (outside the root element).
    public var isEmpty: Bool { components.isEmpty }

    /// The names joined by `/`, or `(document)` outside the root element.
    public var description: String {
        components.isEmpty ? "(document)" : components.joined(separator: "/")
    }

    /// The description, with the middle of a path deeper than `2 × ends` elements
    /// replaced by `…` and the depth added: `a/a/a/…/a/a/a (256 levels)`. Error messages
    /// use it, so that a depth-limit error stays one readable line.
    public func abbreviated(keepingAtEachEnd ends: Int = 4) -> String {
        guard components.count > 2 * ends + 1, ends > 0 else { return description }
        let head = components.prefix(ends).joined(separator: "/")
        let tail = components.suffix(ends).joined(separator: "/")
        return "\(head)/…/\(tail) (\(components.count) levels)"
    }
}

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
}

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

    /// The description for a message: names longer than 40 characters cut to their start,
    /// with their length (`averylongname… (50000 bytes)`), and the middle of a path deeper
    /// than `2 × ends + 1` elements replaced by `…`, with the depth: `a/a/a/…/a/a/a (256 levels)`.
    /// When that is still longer than 300 characters, fewer elements are kept at each end,
    /// down to one. Error messages use it, so that an error stays one readable line
    /// whatever the names and the depth.
    public func abbreviated(keepingAtEachEnd ends: Int = 4) -> String {
        guard !components.isEmpty else { return description }
        let names = components.map(MessageText.name)
        guard ends > 0 else { return names.joined(separator: "/") }
        var kept = ends
        while true {
            let text =
                components.count > 2 * kept + 1
                ? names.prefix(kept).joined(separator: "/") + "/…/" + names.suffix(kept).joined(separator: "/")
                    + " (\(components.count) levels)"
                : names.joined(separator: "/")
            if kept == 1 || text.count <= Self.abbreviatedCharacters { return text }
            kept = max(1, min(kept, components.count / 2) - 1)
        }
    }

    /// The length ``abbreviated(keepingAtEachEnd:)`` keeps to when it can.
    private static let abbreviatedCharacters = 300
}

/// The handlers registered for one pattern (or for the catch-all), in
/// registration order, and the flags the hot path checks before touching them.
///
/// Closures are wrapped in non-generic structs: a closure stored directly in an
/// `Array` is kept at its most general representation and every call would go
/// through a reabstraction thunk.
struct Route {
    struct StartHandler {
        let call: (ElementContext) throws -> Void
    }

    enum EndHandler {
        case plain((ElementContext) throws -> Void)
        case text(WhitespacePolicy?, (ElementContext, String) throws -> Void)
    }

    struct TextHandler {
        let call: (ElementContext, TextChunk) throws -> Void
    }

    var start: [StartHandler] = []
    var end: [EndHandler] = []
    var text: [TextHandler] = []
    /// Attributes to keep while the element is open, for its descendants' handlers.
    var retainedAttributes: [String] = []

    var handlerCount: Int { start.count + end.count + text.count }

    var flags: RouteFlags {
        var flags: RouteFlags = []
        if !retainedAttributes.isEmpty { flags.insert(.retainsAttributes) }
        if !start.isEmpty { flags.insert(.start) }
        if !end.isEmpty { flags.insert(.end) }
        if !text.isEmpty { flags.insert(.textChunks) }
        if end.contains(where: { if case .text = $0 { true } else { false } }) {
            flags.insert(.collectsText)
        }
        // An unresolved policy (nil) is counted as preserving: routes are resolved
        // against the dispatcher's policy before their flags are read.
        if end.contains(where: { if case .text(let policy, _) = $0 { policy == nil || policy == .preserve } else { false } }) {
            flags.insert(.preservesText)
        }
        return flags
    }

    /// Adds another route's handlers after this one's.
    mutating func append(_ other: Route) {
        start += other.start
        end += other.end
        text += other.text
        retain(other.retainedAttributes)
    }

    /// Adds attributes to keep, each once.
    mutating func retain(_ attributes: [String]) {
        for attribute in attributes where !retainedAttributes.contains(attribute) {
            retainedAttributes.append(attribute)
        }
    }

    /// Fills in the dispatcher's default whitespace policy where a handler named none.
    func resolvingWhitespace(_ policy: WhitespacePolicy) -> Route {
        var copy = self
        copy.end = end.map {
            if case .text(nil, let handler) = $0 { return .text(policy, handler) }
            return $0
        }
        return copy
    }
}

/// What a route needs from the dispatcher, checked once per event.
struct RouteFlags: OptionSet {
    var rawValue: UInt8

    static let start = RouteFlags(rawValue: 1 << 0)
    static let end = RouteFlags(rawValue: 1 << 1)
    static let textChunks = RouteFlags(rawValue: 1 << 2)
    static let collectsText = RouteFlags(rawValue: 1 << 3)
    /// Only in the route table: the element's patterns must be matched against its ancestors.
    static let matchesAncestors = RouteFlags(rawValue: 1 << 4)
    /// Some of the element's attributes are kept while it is open.
    static let retainsAttributes = RouteFlags(rawValue: 1 << 5)
    /// A handler takes the element's text with `.preserve`: leading whitespace is kept.
    /// Without it, whitespace before the first other character is never gathered, so a
    /// container's indentation costs no memory and does not count towards the text limit.
    static let preservesText = RouteFlags(rawValue: 1 << 6)
    /// Only on open elements: the element's text is counted against the text limits,
    /// not kept (``Dispatcher/limitsAllText``).
    static let measuresText = RouteFlags(rawValue: 1 << 7)

    /// Character data must reach the dispatcher while this element is innermost.
    var wantsCharacters: Bool { !isDisjoint(with: [.textChunks, .collectsText, .measuresText]) }
    /// Somebody listens to this element at all.
    var isListened: Bool { rawValue != 0 }
    /// A handler runs for this element (keeping attributes alone does not count: the
    /// catch-all handlers still run where only that matched).
    var hasHandlers: Bool { !subtracting([.retainsAttributes, .measuresText]).isEmpty }
}

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
        /// The element's whole text or inner markup, which ``ContentCapture`` gathers from
        /// its descendants' events.
        case content(ElementContent, WhitespacePolicy?, (ElementContext, String) throws -> Void)

        /// The handler for `content`: own text as ``text(_:_:)``, which the hot path reads directly.
        init(_ content: ElementContent, _ policy: WhitespacePolicy?, _ handler: @escaping (ElementContext, String) throws -> Void) {
            self = content == .ownText ? .text(policy, handler) : .content(content, policy, handler)
        }
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
        for handler in end {
            // An unresolved policy (nil) is counted as preserving: routes are resolved
            // against the dispatcher's policy before their flags are read.
            switch handler {
            case .plain: break
            case .text(let policy, _), .content(.ownText, let policy, _):
                flags.insert(.collectsText)
                if policy == nil || policy == .preserve { flags.insert(.preservesText) }
            case .content(.wholeText, _, _): flags.insert(.wholeText)
            case .content(.innerMarkup, _, _): flags.insert(.innerMarkup)
            case .content(.outerMarkup, _, _): flags.insert(.outerMarkup)
            }
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
            switch $0 {
            case .text(nil, let handler): .text(policy, handler)
            case .content(let content, nil, let handler): .content(content, policy, handler)
            default: $0
            }
        }
        return copy
    }
}

/// What a route needs from the dispatcher, checked once per event.
struct RouteFlags: OptionSet {
    var rawValue: UInt16

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
    /// A handler takes the element's whole text: its descendants' text too.
    static let wholeText = RouteFlags(rawValue: 1 << 8)
    /// A handler takes the element's inner markup.
    static let innerMarkup = RouteFlags(rawValue: 1 << 9)
    /// Only on open elements: the element is, or is inside, one whose whole text or inner
    /// markup is wanted, so its events go to ``ContentCapture`` too.
    static let inCapture = RouteFlags(rawValue: 1 << 10)
    /// A handler takes the element's outer markup: its inner markup within its own tags.
    static let outerMarkup = RouteFlags(rawValue: 1 << 11)
    /// The flags that make an element's start tag go to ``ContentCapture``: on the element,
    /// or on its parent.
    static let capturesContent: RouteFlags = [.wholeText, .innerMarkup, .outerMarkup, .inCapture]

    /// Character data must reach the dispatcher while this element is innermost.
    var wantsCharacters: Bool {
        !isDisjoint(with: [.textChunks, .collectsText, .measuresText, .wholeText, .innerMarkup, .outerMarkup, .inCapture])
    }

    /// Where character data goes while this element is innermost.
    @inline(__always)
    var characterData: ExpatDriver.CharacterData {
        guard wantsCharacters else { return .ignored }
        return isDisjoint(with: [.inCapture, .measuresText]) ? .common : .rare
    }
    /// Somebody listens to this element at all.
    var isListened: Bool { rawValue != 0 }
    /// A handler runs for this element (keeping attributes alone does not count: the
    /// catch-all handlers still run where only that matched).
    var hasHandlers: Bool { !subtracting([.retainsAttributes, .measuresText, .inCapture]).isEmpty }
}

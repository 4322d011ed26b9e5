/// The handlers registered for one pattern (or for the catch-all), in
/// registration order, and the flags the hot path checks before touching them.
///
/// Closures are wrapped in non-generic structs: a closure stored directly in an
/// `Array` is kept at its most general representation and every call would go
/// through a reabstraction thunk.
struct Route {
    /// A start handler: a closure, or a handler object's handler with the object it
    /// mutates (``HandlerRegistry``), which the engine passes to it. The object form lets
    /// the registry hand over one closure that captures nothing but the user's handler, so
    /// the compiler can inline the user's closure into it: one call per event instead of a
    /// closure that captures the object and forwards to the user's.
    ///
    /// Both forms keep the closure first and take the element first, the object last: the
    /// two calls then pass the same arguments in the same registers, and the object form
    /// only adds one.
    enum StartHandler {
        case closure((ElementContext) throws -> Void)
        case object((ElementContext, AnyObject) throws -> Void, AnyObject)
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

    /// A text-chunk handler: a closure, or a handler object's handler with the object it
    /// mutates, as for ``StartHandler``.
    enum TextHandler {
        case closure((ElementContext, TextChunk) throws -> Void)
        case object((ElementContext, TextChunk, AnyObject) throws -> Void, AnyObject)
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

extension RouteFlags {
    /// Where character data goes while an element with these flags is innermost.
    @inline(__always)
    var characterData: ExpatDriver.CharacterData {
        guard wantsCharacters else { return .ignored }
        return isDisjoint(with: [.inCapture, .measuresText]) ? .common : .rare
    }
}

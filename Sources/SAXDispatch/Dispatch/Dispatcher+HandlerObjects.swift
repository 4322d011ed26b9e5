/// The registrations ``HandlerRegistry`` makes for a handler object: each handler comes
/// with the object it mutates, and the engine passes that object back to it.
///
/// The registry's methods are inlined where the object's type is declared, and there the
/// closure they pass here captures only the user's handler. When that handler is a closure
/// literal that captures nothing (the usual `{ $0.count += 1 }`), the compiler specialises
/// the passed closure on it and inlines the user's code: the engine then makes one call per
/// handler and event. A closure that captured the object as well could not be specialised,
/// and would forward to the user's closure in a second call.
extension Dispatcher {
    /// Calls `handler` with `object` at the start tag of every element matching `pattern`.
    @usableFromInline
    mutating func onStart(
        _ pattern: ElementPattern, object: AnyObject, _ handler: @escaping (ElementContext, AnyObject) throws -> Void
    ) {
        modifyRoute(pattern) { $0.start.append(.object(handler, object)) }
    }

    /// Calls `handler` with `object` and each piece of character data of elements matching
    /// `pattern`.
    @usableFromInline
    mutating func onText(
        _ pattern: ElementPattern, object: AnyObject,
        _ handler: @escaping (ElementContext, TextChunk, AnyObject) throws -> Void
    ) {
        modifyRoute(pattern) { $0.text.append(.object(handler, object)) }
    }

    /// Calls `handler` with `object` at the start of every element that no handler's pattern
    /// matches.
    @usableFromInline
    mutating func onAnyStart(object: AnyObject, _ handler: @escaping (ElementContext, AnyObject) throws -> Void) {
        fallback.start.append(.object(handler, object))
    }

    /// Calls `handler` with `object` and each piece of character data of every element that
    /// no handler's pattern matches.
    @usableFromInline
    mutating func onAnyText(
        object: AnyObject, _ handler: @escaping (ElementContext, TextChunk, AnyObject) throws -> Void
    ) {
        fallback.text.append(.object(handler, object))
    }
}

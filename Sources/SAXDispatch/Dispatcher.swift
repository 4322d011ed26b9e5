/// Routes the events of an XML document to handlers registered by element name.
///
/// Register closures for the elements you care about, then parse. Each event costs
/// one integer-indexed lookup; elements nobody listens to cost almost nothing, and
/// text is collected only for elements whose handlers receive it.
///
/// ```swift
/// var names: [String] = []
/// var dispatcher = Dispatcher()
/// dispatcher.onStart("animal") { element in
///     print("animal at line", element.line)
/// }
/// dispatcher.onEnd("name") { element, text in
///     if element.ancestor(at: 1) == "nested_nonsense" { names.append(text) }
/// }
/// try dispatcher.parse(contentsOfFile: "zoo.xml")
/// ```
///
/// Several handlers for one name all run, in registration order. Elements whose
/// name has no handler of any kind go to the catch-all handlers (`onAnyStart`,
/// `onAnyEnd`, `onAnyText`), if any.
///
/// A `Dispatcher` is a value: copying it copies its registrations. Handlers run
/// synchronously inside the parse call, on the caller's thread, so they may capture
/// and mutate local state.
public struct Dispatcher {
    /// The whitespace policy for text handlers that do not name one. Default: `.trim`.
    public var whitespace: WhitespacePolicy = .trim

    /// What documents may contain and how large anything may grow; ``SafetyProfile/default``
    /// unless you choose ``SafetyProfile/strict`` or change a limit.
    public var safety: SafetyProfile = .default

    private(set) var names: [String] = []
    private var routeIndex: [String: Int] = [:]
    private(set) var routes: [Route] = []
    private(set) var fallback = Route()
    private(set) var processingInstructionHandlers: [(String, String) throws -> Void] = []
    private(set) var commentHandlers: [(String) throws -> Void] = []
    private(set) var doctypeHandlers: [(DoctypeDeclaration) throws -> Void] = []
    private(set) var notationHandlers: [(NotationDeclaration) throws -> Void] = []

    /// Creates a dispatcher with no handlers.
    public init() {}

    // MARK: Element handlers by name

    /// Calls `handler` at the start tag of every element named `name`.
    ///
    /// The handler sees the element's attributes (valid during the call only),
    /// depth, ancestors and position. Throwing stops the parse; the parse call
    /// rethrows the same error.
    public mutating func onStart(_ name: String, _ handler: @escaping (ElementContext) throws -> Void) {
        modifyRoute(name) { $0.start.append(Route.StartHandler(call: handler)) }
    }

    /// Calls `handler` at the end tag of every element named `name`, without its text.
    ///
    /// Registering this handler alone collects no text.
    public mutating func onEnd(_ name: String, _ handler: @escaping (ElementContext) throws -> Void) {
        modifyRoute(name) { $0.end.append(.plain(handler)) }
    }

    /// Calls `handler` at the end tag of every element named `name`, with the
    /// element's own text, coalesced.
    ///
    /// The text is everything the element contains directly, in document order,
    /// across entity references, CDATA sections and buffer boundaries; text inside
    /// child elements belongs to the children. `<p>a <b>b</b> c</p>` gives `p` the
    /// text `"a  c"` with `.preserve` and `"a c"` with `.collapse`.
    ///
    /// - Parameter whitespace: How to shape the text; `nil` (the default) uses the
    ///   dispatcher's `whitespace` property.
    public mutating func onEnd(
        _ name: String, whitespace: WhitespacePolicy? = nil,
        _ handler: @escaping (ElementContext, String) throws -> Void
    ) {
        modifyRoute(name) { $0.end.append(.text(whitespace, handler)) }
    }

    /// Calls `handler` with the character data of elements named `name` in pieces,
    /// as it streams past, before the element ends.
    ///
    /// A piece is the text between two pieces of markup (child tags, comments,
    /// processing instructions), up to 64 KiB, or what the bytes fed so far hold.
    /// Its boundaries therefore depend on how the input is split; concatenated, the
    /// pieces are always the element's own text, unchanged (no whitespace policy).
    /// Use this to stream text of any size in bounded memory; use
    /// ``onEnd(_:whitespace:_:)`` to receive it whole. The chunk is valid only
    /// during the call.
    public mutating func onText(_ name: String, _ handler: @escaping (ElementContext, TextChunk) throws -> Void) {
        modifyRoute(name) { $0.text.append(Route.TextHandler(call: handler)) }
    }

    // MARK: Catch-all handlers

    /// Calls `handler` at the start of every element whose name has no handler registered.
    public mutating func onAnyStart(_ handler: @escaping (ElementContext) throws -> Void) {
        fallback.start.append(Route.StartHandler(call: handler))
    }

    /// Calls `handler` at the end of every element whose name has no handler registered.
    public mutating func onAnyEnd(_ handler: @escaping (ElementContext) throws -> Void) {
        fallback.end.append(.plain(handler))
    }

    /// Calls `handler` with the coalesced text at the end of every element whose name
    /// has no handler registered.
    public mutating func onAnyEnd(
        whitespace: WhitespacePolicy? = nil, _ handler: @escaping (ElementContext, String) throws -> Void
    ) {
        fallback.end.append(.text(whitespace, handler))
    }

    /// Calls `handler` with each piece of character data of every element whose name
    /// has no handler registered. See ``onText(_:_:)``.
    public mutating func onAnyText(_ handler: @escaping (ElementContext, TextChunk) throws -> Void) {
        fallback.text.append(Route.TextHandler(call: handler))
    }

    // MARK: Other events

    /// Calls `handler` with the target and data of every processing instruction,
    /// including those in the internal DTD subset.
    public mutating func onProcessingInstruction(_ handler: @escaping (_ target: String, _ data: String) throws -> Void) {
        processingInstructionHandlers.append(handler)
    }

    /// Calls `handler` with the text of every comment, including those in the DTD.
    public mutating func onComment(_ handler: @escaping (String) throws -> Void) {
        commentHandlers.append(handler)
    }

    /// Calls `handler` at the start of the document type declaration, if there is one.
    public mutating func onDoctype(_ handler: @escaping (DoctypeDeclaration) throws -> Void) {
        doctypeHandlers.append(handler)
    }

    /// Calls `handler` for every notation declared in the DTD.
    public mutating func onNotationDeclaration(_ handler: @escaping (NotationDeclaration) throws -> Void) {
        notationHandlers.append(handler)
    }

    // MARK: Compilation

    private mutating func modifyRoute(_ name: String, _ body: (inout Route) -> Void) {
        if let index = routeIndex[name] {
            body(&routes[index])
        } else {
            var route = Route()
            body(&route)
            routeIndex[name] = routes.count
            names.append(name)
            routes.append(route)
        }
    }
}

/// Where an ``ElementHandlers`` type registers its handlers: the registration methods
/// of ``Dispatcher``, with handlers that receive the object.
///
/// Each registration binds the handler to the object once; when an event arrives, the
/// dispatcher calls it like any closure.
///
/// The registration methods are inlinable so that the closure binding a handler to the
/// object is compiled in the module that declares the object, for its type: a generic
/// binding would pass the object indirectly through reabstraction thunks on every call.
/// Start and text handlers are registered with the object beside them, which the engine
/// passes back, so that the closure capturing the handler captures nothing else and the
/// compiler can inline a handler literal into it (see `Dispatcher+HandlerObjects`).
public struct HandlerRegistry<Object> {
    /// The dispatcher being built.
    public var dispatcher: Dispatcher { building }
    @usableFromInline var building = Dispatcher()
    @usableFromInline let state: HandlerState<Object>

    init(state: HandlerState<Object>) {
        self.state = state
    }

    /// The whitespace policy of text handlers that do not name one; see ``Dispatcher/whitespace``.
    public var whitespace: WhitespacePolicy {
        get { building.whitespace }
        set { building.whitespace = newValue }
    }

    /// The safety profile used when this type parses on its own; see ``Dispatcher/safety``.
    public var safety: SafetyProfile {
        get { building.safety }
        set { building.safety = newValue }
    }

    /// The prefixes this type's patterns may use; see ``Dispatcher/namespaces``.
    public var namespaces: NamespaceBindings {
        get { building.namespaces }
        set { building.namespaces = newValue }
    }

    /// Whether names are read by namespace when this type parses on its own; see
    /// ``Dispatcher/processesNamespaces``.
    public var processesNamespaces: Bool {
        get { building.processesNamespaces }
        set { building.processesNamespaces = newValue }
    }

    // MARK: Handlers that receive the object

    /// Calls `handler` with the object at the start of every element matching `pattern`.
    @inlinable
    public mutating func onStart(
        _ pattern: ElementPattern, _ handler: @escaping (inout Object, ElementContext) throws -> Void
    ) {
        building.onStart(pattern, object: state) { try handler(&HandlerState<Object>.passed($1).value, $0) }
    }

    /// Calls `handler` with the object at the end of every element matching `pattern`.
    @inlinable
    public mutating func onEnd(
        _ pattern: ElementPattern, _ handler: @escaping (inout Object, ElementContext) throws -> Void
    ) {
        let state = state
        building.onEnd(pattern) { try handler(&state.value, $0) }
    }

    /// Calls `handler` with the object and the element's coalesced text (its own, or with
    /// `text: .whole` its whole text) at the end of every element matching `pattern`; see
    /// ``Dispatcher/onEnd(_:text:whitespace:_:)``.
    ///
    /// ```swift
    /// handlers.onEnd("item/description", text: .whole) { $0.describe($1, $2) }
    /// ```
    @inlinable
    public mutating func onEnd(
        _ pattern: ElementPattern, text scope: TextScope = .own, whitespace: WhitespacePolicy? = nil,
        _ handler: @escaping (inout Object, ElementContext, String) throws -> Void
    ) {
        let state = state
        building.onEnd(pattern, text: scope, whitespace: whitespace) { try handler(&state.value, $0, $1) }
    }

    /// Calls `handler` with the object and each piece of text of elements matching
    /// `pattern`; see ``Dispatcher/onText(_:_:)``.
    @inlinable
    public mutating func onText(
        _ pattern: ElementPattern, _ handler: @escaping (inout Object, ElementContext, TextChunk) throws -> Void
    ) {
        building.onText(pattern, object: state) { try handler(&HandlerState<Object>.passed($2).value, $0, $1) }
    }

    /// Calls `handler` with the object at the start of every element no pattern matches;
    /// see ``Dispatcher/onAnyStart(_:)``.
    @inlinable
    public mutating func onAnyStart(_ handler: @escaping (inout Object, ElementContext) throws -> Void) {
        building.onAnyStart(object: state) { try handler(&HandlerState<Object>.passed($1).value, $0) }
    }

    /// Calls `handler` with the object and the coalesced text (own, or whole with
    /// `text: .whole`) at the end of every element no pattern matches; see
    /// ``Dispatcher/onAnyEnd(text:whitespace:_:)``.
    @inlinable
    public mutating func onAnyEnd(
        text scope: TextScope = .own, whitespace: WhitespacePolicy? = nil,
        _ handler: @escaping (inout Object, ElementContext, String) throws -> Void
    ) {
        let state = state
        building.onAnyEnd(text: scope, whitespace: whitespace) { try handler(&state.value, $0, $1) }
    }

    /// Calls `handler` with the object and each piece of text of every element no pattern
    /// matches; see ``Dispatcher/onAnyText(_:)``.
    @inlinable
    public mutating func onAnyText(_ handler: @escaping (inout Object, ElementContext, TextChunk) throws -> Void) {
        building.onAnyText(object: state) { try handler(&HandlerState<Object>.passed($2).value, $0, $1) }
    }

    /// Keeps attributes of matching elements for their descendants; see
    /// ``Dispatcher/retainAttributes(_:of:)``.
    public mutating func retainAttributes(_ attributes: String..., of pattern: ElementPattern) {
        building.retainAttributes(attributes, of: pattern)
    }

    /// Mounts a handler set; see ``Dispatcher/mount(_:at:)``.
    public mutating func mount(_ handlers: Dispatcher, at mountPoint: ElementPattern) {
        building.mount(handlers, at: mountPoint)
    }
}

extension HandlerRegistry where Object: AnyObject {
    /// Calls the object's method `method` at the start of every element matching `pattern`.
    ///
    /// ```swift
    /// handlers.onStart("animal", Self.beginAnimal)   // func beginAnimal(_ element: ElementContext)
    /// ```
    @inlinable
    public mutating func onStart(_ pattern: ElementPattern, _ method: @escaping (Object) -> (ElementContext) throws -> Void) {
        building.onStart(pattern, method(state.value))
    }

    /// Calls the object's method `method` at the end of every element matching `pattern`.
    @inlinable
    public mutating func onEnd(_ pattern: ElementPattern, _ method: @escaping (Object) -> (ElementContext) throws -> Void) {
        building.onEnd(pattern, method(state.value))
    }

    /// Calls the object's method `method` with the coalesced text (own, or whole with
    /// `text: .whole`) at the end of every element matching `pattern`.
    ///
    /// ```swift
    /// handlers.onEnd("animal/kind", Self.kind)   // func kind(_ element: ElementContext, _ text: String)
    /// handlers.onEnd("animal/story", text: .whole, Self.story)
    /// ```
    @inlinable
    public mutating func onEnd(
        _ pattern: ElementPattern, text scope: TextScope = .own, whitespace: WhitespacePolicy? = nil,
        _ method: @escaping (Object) -> (ElementContext, String) throws -> Void
    ) {
        building.onEnd(pattern, text: scope, whitespace: whitespace, method(state.value))
    }

    /// Calls the object's method `method` with each piece of text of elements matching `pattern`.
    @inlinable
    public mutating func onText(
        _ pattern: ElementPattern, _ method: @escaping (Object) -> (ElementContext, TextChunk) throws -> Void
    ) {
        building.onText(pattern, method(state.value))
    }
}

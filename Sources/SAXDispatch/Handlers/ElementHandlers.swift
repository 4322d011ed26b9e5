/// A type that declares its element handlers together, as its own methods: the Swift
/// form of a delegate whose `handleElement_animal:` methods are found by name, except
/// that the compiler checks every registration.
///
/// Declare the handlers in ``registerHandlers(_:)``, next to the methods they call. A
/// class can name its methods directly (`Self.beginAnimal`); a struct, whose methods
/// are `mutating`, names them through a closure (`{ $0.beginAnimal($1) }`). The
/// registrations run once, when a dispatcher is made from the type, not per event:
/// no selectors are built from strings and nothing is looked up by reflection, so a
/// handler costs what a closure costs.
///
/// ```swift
/// struct AnimalCounter: ElementHandlers {
///     var kinds: [String: Int] = [:]
///
///     static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
///         handlers.onEnd("animal/kind") { $0.count(kind: $1, $2) }
///     }
///
///     mutating func count(kind element: ElementContext, _ text: String) {
///         kinds[text, default: 0] += 1
///     }
/// }
///
/// var counter = AnimalCounter()
/// try counter.parse(.file("zoo.xml"))   // counter.kinds == ["cat": 1, "dog": 1]
/// ```
///
/// A class instance can also become a ``Dispatcher`` with ``Dispatcher/init(handling:)``,
/// to be parsed with or mounted in another dispatcher like any handler set.
public protocol ElementHandlers {
    /// Registers the type's handlers, patterns and settings. Called once per dispatcher
    /// made from the type.
    static func registerHandlers(_ handlers: inout HandlerRegistry<Self>)
}

extension ElementHandlers {
    /// Parses a document (a file, a string, bytes, …: ``XMLInput``) with this value's
    /// handlers; the handlers mutate this value.
    ///
    /// ```swift
    /// var counter = AnimalCounter()
    /// try counter.parse(.file("zoo.xml"))
    /// ```
    ///
    /// - Throws: ``XMLInputError`` if the input cannot be read, ``XMLParseError`` for a
    ///   malformed document, or a ``HandlerError`` wrapping a handler's error. The value
    ///   keeps what the handlers did until then.
    @discardableResult
    public mutating func parse(_ input: XMLInput) throws -> ParseOutcome {
        try withDispatcher { try $0.parse(input) }
    }

    /// Runs `body` with a dispatcher whose handlers mutate a copy of this value, and
    /// keeps the copy, whether `body` returns or throws.
    private mutating func withDispatcher(_ body: (Dispatcher) throws -> ParseOutcome) throws -> ParseOutcome {
        let state = HandlerState(self)
        defer { self = state.value }
        var registry = HandlerRegistry(state: state)
        Self.registerHandlers(&registry)
        return try body(registry.dispatcher)
    }
}

extension Dispatcher {
    /// A dispatcher whose handlers are the methods `object` registers in
    /// ``ElementHandlers/registerHandlers(_:)``.
    ///
    /// The dispatcher keeps a strong reference to `object`. Parse with it, or mount it in
    /// another dispatcher with ``mount(_:at:)``.
    ///
    /// ```swift
    /// let items = RSSItemReader()   // a class that conforms to ElementHandlers
    /// var dispatcher = Dispatcher()
    /// dispatcher.mount(Dispatcher(handling: items), at: "/rss/channel/item")
    /// ```
    public init<Object: ElementHandlers & AnyObject>(handling object: Object) {
        var registry = HandlerRegistry(state: HandlerState(object))
        Object.registerHandlers(&registry)
        self = registry.dispatcher
    }
}

/// The value a handler object's handlers mutate in place, shared by all of them.
@usableFromInline
final class HandlerState<Object> {
    // Handlers run one at a time on the parsing thread, never overlapping, so the
    // dynamic exclusivity check a class's stored property would pay per access is off.
    @usableFromInline @exclusivity(unchecked) var value: Object

    init(_ value: Object) {
        self.value = value
    }

    /// The state a handler registered with its object gets back from the engine, which
    /// passes exactly the object it was registered with: this state, so the cast needs no check.
    @inlinable @inline(__always)
    static func passed(_ object: AnyObject) -> HandlerState {
        unsafeDowncast(object, to: HandlerState.self)
    }
}

/// Routes the events of an XML document to handlers registered by element name or
/// path pattern.
///
/// Register closures for the elements you care about, then parse. Each event costs
/// one integer-indexed lookup (plus matching the ancestors, for names that path
/// patterns end in); elements nobody listens to cost almost nothing, and text is
/// collected only for elements whose handlers receive it.
///
/// ```swift
/// var names: [String] = []
/// var dispatcher = Dispatcher()
/// dispatcher.onStart("animal") { element in
///     print("animal at line", element.line)
/// }
/// dispatcher.onEnd("nested_nonsense/name") { element, text in
///     names.append(text)
/// }
/// try dispatcher.parse(.file("zoo.xml"))
/// ```
///
/// Where the patterns of several handlers match one element, all of them run, most
/// specific pattern first: the pattern naming more elements, then the one with more
/// steps, then the one with more attribute tests, then the one anchored at the root;
/// handlers of equally specific patterns (and of one pattern) run in registration
/// order. A handler can end the chain for its event with
/// ``ElementContext/stopHandlerChain()``. Elements that no pattern matches go to the
/// catch-all handlers (`onAnyStart`, `onAnyEnd`, `onAnyText`), if any.
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

    /// Whether the text of every element counts against ``SafetyProfile/maximumTextBytes``
    /// and ``SafetyProfile/maximumCollectedTextBytes`` as an `onEnd` handler with the
    /// ``whitespace`` policy would collect it, even where no handler takes it. The text is
    /// counted, never kept, so memory stays flat: use it to check that a document is within
    /// the limits any reader of it will apply (`saxdispatch check` does). Default `false`.
    ///
    /// ```swift
    /// var dispatcher = Dispatcher()
    /// dispatcher.limitsAllText = true
    /// try dispatcher.parse(.file(path))   // .textLimitExceeded for any oversized text
    /// ```
    public var limitsAllText = false

    /// Whether names are read by namespace: expat resolves each prefix to its namespace
    /// URI, reports namespace well-formedness errors (an unbound prefix, a rebound `xml`
    /// or `xmlns`) as parse errors, and patterns match by namespace URI (see
    /// ``ElementPattern`` and <doc:XMLNamespaces>). Turn it off to read names as written,
    /// prefix included, for legacy documents that are well-formed XML 1.0 but not
    /// namespace-well-formed; `xmlns` attributes are then ordinary attributes. Default `true`.
    public var processesNamespaces = true

    /// The prefixes this dispatcher's patterns may use for namespace URIs, for its own
    /// handlers and for every mounted set's names that the set's own bindings leave
    /// unbound. A prefix bound nowhere matches the prefix as the document wrote it.
    ///
    /// ```swift
    /// dispatcher.namespaces = ["atom": "http://www.w3.org/2005/Atom", "dc": "http://purl.org/dc/elements/1.1/"]
    /// dispatcher.onEnd("atom:entry/dc:creator") { _, creator in print(creator) }
    /// ```
    public var namespaces = NamespaceBindings()

    /// Whether each start tag's namespace declarations are kept as written, for a start
    /// handler that copies the tag (``XMLWriter/startElement(copying:)``): with namespace
    /// processing, expat reports them apart from the attributes. Default `false`.
    var keepsNamespaceDeclarations = false

    /// The handlers of each distinct pattern, in order of first registration.
    private(set) var entries: [RouteEntry] = []
    private var entryIndex: [RouteEntry.Key: Int] = [:]
    /// For each group of handlers (0: this dispatcher's own, then one per mounted set),
    /// the group it was mounted into; `-1` for group 0.
    private(set) var groupParents: [Int] = [-1]
    /// The subtrees that matter, when the application said which (``skipAll(except:)``).
    private(set) var keptSubtrees: [ElementPattern]?
    /// Whether ``keptSubtrees`` is the library's own economy (a record or decoder parse
    /// that owns the document) rather than the application's wish: the names of what it
    /// skips then count for the warnings about patterns that matched nothing, as if the
    /// document had been read whole.
    var keptSubtreesCountSkippedNames = false
    var fallback = Route()
    private(set) var processingInstructionHandlers: [(String, String) throws -> Void] = []
    private(set) var commentHandlers: [(String) throws -> Void] = []
    private(set) var doctypeHandlers: [(DoctypeDeclaration) throws -> Void] = []
    private(set) var notationHandlers: [(NotationDeclaration) throws -> Void] = []
    private(set) var warningHandlers: [(ParseWarning) -> Void] = []
    /// The patterns whose matching nothing is reported (``ParseWarning/Code/unmatchedPattern``),
    /// mounted sets' included, in order of registration.
    private(set) var watches: [PatternWatch] = []
    /// Whether this set's handlers may put their deliveries off (``DeferredDelivery``):
    /// set by the clients whose handlers do.
    var defersDelivery = false
    /// How many of the handlers came from mounted sets that may put their deliveries off.
    var deferringHandlerCount = 0
    /// Whether a parse may take the catch-all path where the registrations allow it
    /// (`DispatchEngine+CatchAll`); tests turn it off to compare with the general path.
    var allowsCatchAllPath = true

    /// Creates a dispatcher with no handlers.
    public init() {}

    // MARK: Element handlers by pattern

    /// Calls `handler` at the start tag of every element matching `pattern`.
    ///
    /// The handler sees the element's attributes (valid during the call only),
    /// depth, ancestors and position. Throwing stops the parse; the parse call throws
    /// a ``HandlerError`` holding your error, the element's path and its position.
    public mutating func onStart(_ pattern: ElementPattern, _ handler: @escaping (ElementContext) throws -> Void) {
        modifyRoute(pattern) { $0.start.append(.closure(handler)) }
    }

    /// Calls `handler` at the end tag of every element matching `pattern`, without its text.
    ///
    /// Registering this handler alone collects no text.
    public mutating func onEnd(_ pattern: ElementPattern, _ handler: @escaping (ElementContext) throws -> Void) {
        modifyRoute(pattern) { $0.end.append(.plain(handler)) }
    }

    /// Calls `handler` at the end tag of every element matching `pattern`, with the
    /// element's own text (or, with `text: .whole`, its whole text), coalesced.
    ///
    /// The own text is everything the element contains directly, in document order,
    /// across entity references, CDATA sections and buffer boundaries; text inside
    /// child elements belongs to the children. `<p>a <b>b</b> c</p>` gives `p` the
    /// text `"a  c"` with `.preserve` and `"a c"` with `.collapse`. Its whole text
    /// (``TextScope/whole``) takes in the children's too: `"a b c"` with `.collapse`.
    ///
    /// ```swift
    /// dispatcher.onEnd("p", text: .whole, whitespace: .collapse) { element, text in
    ///     paragraphs.append(text)   // "Plain and simple" for <p>Plain <em>and</em> simple</p>
    /// }
    /// ```
    ///
    /// Text is gathered only for elements whose handlers take it: the own text while the
    /// element is the innermost open one, the whole text while it is open. Either counts
    /// against ``SafetyProfile/maximumTextBytes`` and ``SafetyProfile/maximumCollectedTextBytes``;
    /// a document that exceeds one ends the parse with an ``XMLParseError`` whose code is
    /// ``XMLParseError/Code/textLimitExceeded``, at the element's start tag.
    ///
    /// - Parameters:
    ///   - pattern: Which elements.
    ///   - scope: Which text: the element's own (the default) or its whole text.
    ///   - whitespace: How to shape the text; `nil` (the default) uses the
    ///     dispatcher's `whitespace` property.
    ///   - handler: Receives the element and its text. Throwing stops the parse; the
    ///     parse call throws a ``HandlerError`` holding your error.
    public mutating func onEnd(
        _ pattern: ElementPattern, text scope: TextScope = .own, whitespace: WhitespacePolicy? = nil,
        _ handler: @escaping (ElementContext, String) throws -> Void
    ) {
        onEnd(pattern, content: ElementContent(scope), whitespace: whitespace, handler)
    }

    /// Calls `handler` at the end tag of every element matching `pattern` with its own
    /// text, whole text or inner markup (the record layer's inner-markup fields).
    mutating func onEnd(
        _ pattern: ElementPattern, content: ElementContent, whitespace: WhitespacePolicy?,
        _ handler: @escaping (ElementContext, String) throws -> Void
    ) {
        modifyRoute(pattern) { $0.end.append(Route.EndHandler(content, whitespace, handler)) }
    }

    /// Calls `handler` with the character data of elements matching `pattern` in pieces,
    /// as it streams past, before the element ends.
    ///
    /// A piece is the text between two pieces of markup (child tags, comments,
    /// processing instructions), up to 64 KiB, or what the bytes fed so far hold.
    /// Its boundaries therefore depend on how the input is split; concatenated, the
    /// pieces are always the element's own text, unchanged (no whitespace policy).
    /// Use this to stream text of any size in bounded memory; use
    /// ``onEnd(_:text:whitespace:_:)`` to receive it whole. The chunk is valid only
    /// during the call.
    public mutating func onText(_ pattern: ElementPattern, _ handler: @escaping (ElementContext, TextChunk) throws -> Void) {
        modifyRoute(pattern) { $0.text.append(.closure(handler)) }
    }

    /// Keeps the attributes named `attributes` of every element matching `pattern` while
    /// it is open, so that the handlers of elements inside it can read them with
    /// ``ElementContext/ancestorAttribute(_:of:)``.
    ///
    /// Only what is declared is kept: the library does not hold the attributes of open
    /// elements otherwise. Keeping attributes does not count as handling the element
    /// (the catch-all handlers still see it).
    ///
    /// ```swift
    /// dispatcher.retainAttributes("type", of: "border")
    /// dispatcher.onEnd("border//path") { element, text in
    ///     let kind = element.ancestorAttribute("type", of: "border")   // "internal", …
    /// }
    /// ```
    public mutating func retainAttributes(_ attributes: String..., of pattern: ElementPattern) {
        retainAttributes(attributes, of: pattern)
    }

    mutating func retainAttributes(_ attributes: [String], of pattern: ElementPattern) {
        modifyRoute(pattern) { $0.retain(attributes) }
    }

    // MARK: Catch-all handlers

    /// Calls `handler` at the start of every element that no handler's pattern matches.
    public mutating func onAnyStart(_ handler: @escaping (ElementContext) throws -> Void) {
        fallback.start.append(.closure(handler))
    }

    /// Calls `handler` at the end of every element that no handler's pattern matches.
    public mutating func onAnyEnd(_ handler: @escaping (ElementContext) throws -> Void) {
        fallback.end.append(.plain(handler))
    }

    /// Calls `handler` with the coalesced text at the end of every element that no
    /// handler's pattern matches: its own text, or with `text: .whole` its whole text (see
    /// ``onEnd(_:text:whitespace:_:)``).
    ///
    /// ```swift
    /// dispatcher.onAnyEnd(text: .whole) { element, text in print(element.name, text) }
    /// ```
    ///
    /// The whole text of every element costs time and memory in proportion to the depth
    /// of the document (an element's text is part of each enclosing element's); keep it for
    /// documents you know.
    public mutating func onAnyEnd(
        text scope: TextScope = .own, whitespace: WhitespacePolicy? = nil,
        _ handler: @escaping (ElementContext, String) throws -> Void
    ) {
        fallback.end.append(Route.EndHandler(ElementContent(scope), whitespace, handler))
    }

    /// Calls `handler` with each piece of character data of every element that no
    /// handler's pattern matches. See ``onText(_:_:)``.
    public mutating func onAnyText(_ handler: @escaping (ElementContext, TextChunk) throws -> Void) {
        fallback.text.append(.closure(handler))
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

    /// Calls `handler` with each ``ParseWarning`` once a document has been read to its
    /// end: a pattern prefix that is bound nowhere and that no element read was written
    /// with, whose patterns therefore matched nothing; a handler, record or decoder pattern
    /// that matched no element, or a record field that matched nothing in any record, with
    /// the names the document had instead (see <doc:Errors>). A warning about the document
    /// itself (an XML version other than 1.0, read by 1.0's rules) comes as soon as its
    /// declaration is read, once per document (the first 64 of an input), so that a
    /// document that then fails has had it.
    ///
    /// ```swift
    /// dispatcher.onWarning { warning in print(warning) }   // <input>: warning: pattern `titel` matched no element; …
    /// ```
    public mutating func onWarning(_ handler: @escaping (ParseWarning) -> Void) {
        warningHandlers.append(handler)
    }

    // MARK: Compilation

    var hasDocumentHandlers: Bool {
        !processingInstructionHandlers.isEmpty || !commentHandlers.isEmpty || !doctypeHandlers.isEmpty
            || !notationHandlers.isEmpty
    }

    /// How many handlers of any kind are registered, mounted ones included.
    var handlerCount: Int {
        let routes = entries.reduce(0) { $0 + $1.route.handlerCount }
        return routes + fallback.handlerCount + processingInstructionHandlers.count + commentHandlers.count
            + doctypeHandlers.count + notationHandlers.count
    }

    /// Whether every handler belongs to a set that may put its deliveries off, so that
    /// they may be delivered in a row without any other handler seeing the delay.
    var hasOnlyDeferringHandlers: Bool {
        deferringHandlerCount > 0 && deferringHandlerCount == handlerCount
    }

    mutating func setKeptSubtrees(_ patterns: [ElementPattern]) {
        keptSubtrees = patterns
    }

    mutating func modifyRoute(
        _ pattern: ElementPattern, group: Int = 0, isCatchAll: Bool = false, _ body: (inout Route) -> Void
    ) {
        let key = RouteEntry.Key(pattern: pattern, group: group, isCatchAll: isCatchAll)
        if let index = entryIndex[key] {
            body(&entries[index].route)
        } else {
            var entry = RouteEntry(pattern: pattern, route: Route(), group: group, isCatchAll: isCatchAll)
            body(&entry.route)
            entryIndex[key] = entries.count
            entries.append(entry)
        }
        // This dispatcher's own registrations; a mounted set brings its watches itself.
        if group == 0 && !isCatchAll && !watches.contains(where: { $0.pattern == pattern && $0.parent == nil }) {
            watches.append(PatternWatch(pattern: pattern, role: .pattern))
        }
    }

    /// Says what a pattern registered on this dispatcher is to its user, for the warning
    /// that it matched nothing: every watch of `pattern` that no earlier call put inside
    /// another (`parent == nil`) takes `role`, `text` and `parent`. Two record fields on
    /// one path each register the pattern, and each watch is then its field's: one left
    /// unlabelled would be reported as a handler's pattern, even when its record matched
    /// nothing.
    mutating func labelWatch(of pattern: ElementPattern, role: PatternWatch.Role, text: String? = nil, parent: Int? = nil) {
        for index in watches.indices where watches[index].pattern == pattern && watches[index].parent == nil {
            watches[index].role = role
            watches[index].text = text
            watches[index].parent = parent
        }
    }

    /// Adds the watches of a set mounted at `mountPoint`, their patterns resolved by the
    /// set's `bindings` and mounted as its entries are.
    mutating func addWatches(_ mounted: [PatternWatch], bindings: NamespaceBindings, at mountPoint: ElementPattern) {
        let base = watches.count
        for watch in mounted {
            var watch = watch
            watch.pattern = watch.pattern.resolvingPrefixes(bindings).mounted(at: mountPoint)
            watch.parent = watch.parent.map { $0 + base }
            watches.append(watch)
        }
    }

    mutating func addGroups(_ parents: [Int]) -> Int {
        let base = groupParents.count
        groupParents += parents.map { $0 < 0 ? 0 : base + $0 }
        return base
    }
}

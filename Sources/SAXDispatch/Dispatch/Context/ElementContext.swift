/// What a handler knows about the element it was called for: its name, attributes,
/// depth, ancestors and position.
///
/// A context is valid while its element is open. Its attributes are valid only
/// during the start handler. Using a context after its element has ended is a
/// programming error and traps with a message saying so; copy what you need.
///
/// ```swift
/// dispatcher.onEnd("path") { element, text in
///     let border = element.ancestor(at: 1)   // "internalBorder", …
///     print(element.name, element.depth, border ?? "-", text)
/// }
/// ```
public struct ElementContext {
    let engine: DispatchEngine
    let nameID: Int32
    let serial: UInt64

    /// The nesting depth of the element: 1 for the root element.
    public let depth: Int

    init(engine: DispatchEngine, nameID: Int32, serial: UInt64, depth: Int) {
        self.engine = engine
        self.nameID = nameID
        self.serial = serial
        self.depth = depth
    }

    /// The element's name as the document wrote it: `prefix:local`, or `local`.
    public var name: String { engine.names.string(nameID) }

    /// The namespace URI of the element, or `nil` when it is in no namespace (or
    /// namespace processing is off: ``Dispatcher/processesNamespaces``).
    public var namespaceURI: String? { engine.names.namespaceURI(nameID) }

    /// The element's name without its prefix (with namespace processing off, the name
    /// as written).
    public var localName: String { engine.names.parts(nameID).localName }

    /// The prefix the document wrote the element's name with, or `nil` for none (with
    /// namespace processing off, always `nil`).
    public var prefix: String? { engine.names.parts(nameID).prefix }

    /// The element's name in Clark notation, `{uri}local`, or its local name when it is
    /// in no namespace: a spelling that does not depend on the document's prefixes.
    public var expandedName: String {
        let parts = engine.names.parts(nameID)
        return parts.namespaceURI.map { "{\($0)}\(parts.localName)" } ?? parts.localName
    }

    /// 1-based line of the element's start tag.
    public var line: Int { engine.position(depth: depth, serial: serial).line }

    /// 1-based column of the element's start tag, counted in characters.
    public var column: Int { engine.position(depth: depth, serial: serial).column }

    /// 0-based byte offset of the element's start tag from the start of the input.
    public var byteOffset: Int { engine.position(depth: depth, serial: serial).byteOffset }

    /// Which document of the input the element is in, from 1: more than 1 only in an input
    /// read as documents one after another (``XMLInput/readsConcatenatedDocuments``).
    ///
    /// ```swift
    /// dispatcher.onEnd("message") { element in
    ///     print("message of document \(element.documentNumber)")
    /// }
    /// ```
    public var documentNumber: Int {
        _ = engine.checkedFrameCount(depth: depth, serial: serial)
        return engine.documentNumber
    }

    /// The element's attributes, in document order.
    ///
    /// Available in start handlers only; elsewhere the collection is empty. The view
    /// is borrowed from the parser and valid only during the start handler.
    public var attributes: ElementAttributes {
        engine.attributes(for: serial)
    }

    /// ``attributes`` for the library's own start handlers, which read them before they
    /// return: the view is not checked on use, and costs no reference to the engine.
    var attributesReadInHandler: ElementAttributes {
        engine.attributes(for: serial, checked: false)
    }

    /// Whether the element has no attribute (none written, none defaulted), for the library's
    /// own start handlers, as ``attributesReadInHandler`` would tell without making it.
    var hasNoAttributesInHandler: Bool { attributePairsInHandler == nil }

    /// The attributes' names and values as expat reports them (name, value, …, ended by a
    /// null), for the library's own start handlers, which read them before they return;
    /// `nil` when the element has none.
    var attributePairsInHandler: UnsafePointer<UnsafePointer<CChar>?>? {
        guard let pairs = engine.currentAttributes, engine.attributesSerial == serial, pairs[0] != nil else { return nil }
        return pairs
    }

    /// The namespace declarations written on the element's start tag, as written (prefix,
    /// URI; no prefix for the default namespace), in start handlers of a dispatcher that
    /// keeps them (``Dispatcher/keepsNamespaceDeclarations``); elsewhere none.
    var namespaceDeclarations: [(prefix: String?, uri: String)] {
        engine.currentAttributes != nil && engine.attributesSerial == serial ? engine.startTagNamespaceDeclarations() : []
    }

    /// Whether the parse reads names by namespace (``Dispatcher/processesNamespaces``).
    var processesNamespaces: Bool { engine.keys.processesNamespaces }

    /// The name of the element `level` steps up from this one: 0 is the element
    /// itself, 1 its parent, 2 its grandparent. `nil` above the root.
    public func ancestor(at level: Int) -> String? {
        let frames = engine.checkedFrameCount(depth: depth, serial: serial)
        let index = frames - 1 - level
        guard level >= 0, index >= 0 else { return nil }
        return engine.names.string(engine.stack[index].name)
    }

    /// The names of the open ancestors, parent first, root last.
    public var ancestors: [String] {
        let frames = engine.checkedFrameCount(depth: depth, serial: serial)
        return (0..<(frames - 1)).reversed().map { engine.names.string(engine.stack[$0].name) }
    }

    /// The names from the root down to this element.
    public var path: ElementPath {
        let frames = engine.checkedFrameCount(depth: depth, serial: serial)
        return ElementPath((0..<frames).map { engine.names.string(engine.stack[$0].name) })
    }

    /// The value of `attribute` on the nearest enclosing element named `ancestorName`
    /// (or on the nearest one carrying it, when `ancestorName` is `nil`), among the
    /// attributes kept with ``Dispatcher/retainAttributes(_:of:)``.
    ///
    /// `nil` when no such ancestor is open, it lacks the attribute, or the attribute was
    /// not declared. Only ancestors count; the element's own attributes are in
    /// ``attributes``.
    public func ancestorAttribute(_ attribute: String, of ancestorName: String? = nil) -> String? {
        engine.retainedAttribute(attribute, of: ancestorName, below: depth, serial: serial)
    }

    /// Whether some ancestor of this element (not the element itself) is named `name`:
    /// as the document wrote it (`atom:feed`), or in Clark notation (`{uri}feed`).
    public func isInside(_ name: String) -> Bool {
        let frames = engine.checkedFrameCount(depth: depth, serial: serial)
        for index in 0..<(frames - 1) where engine.isNamed(engine.stack[index].name, name) { return true }
        return false
    }

    /// Skips the rest of this element: no handler runs for anything inside it, no text
    /// is collected (its own text handlers get `""`), and expat's callbacks inside it
    /// only count depth. The element's own end handlers still run.
    ///
    /// Call it from a start handler, for the element the handler runs for; elsewhere it
    /// is a programming error and traps. The remaining start handlers of this element
    /// still run. Limits still apply inside the skipped subtree; an error there names
    /// the path down to the skipped element.
    ///
    /// ```swift
    /// dispatcher.onStart("junk") { element in element.skipSubtree() }
    /// ```
    public func skipSubtree() {
        engine.requestSkip(serial: serial)
    }

    /// Skips the rest of this element, as ``skipSubtree()`` does, if no handler outside
    /// the mounted set asking would have seen anything of it (``SubtreePruning``): how
    /// record captures leave out what their records never read without hiding it from
    /// the dispatcher's other handlers. The asking set's own end handlers for the element
    /// do not run either. Only a mounted set's catch-all start handler may ask; anywhere
    /// else the request is refused.
    ///
    /// - Parameter nestedMatchesStandAlone: Whether an element matching the set's mount
    ///   pattern inside one of its matches starts a record of its own (as with record
    ///   assemblers; a capture takes it as part of the enclosing record): pruning is then
    ///   refused wherever the mount pattern could match below the element.
    /// - Parameter decidedByPath: Whether the asking handler asks alike for every element
    ///   whose path has the same names, and does nothing else: the engine may then prune
    ///   the later elements on that path without calling it (``RouteFlags/prunedOnArrival``).
    func pruneSubtree(nestedMatchesStandAlone: Bool, decidedByPath: Bool = false) {
        engine.requestPrune(serial: serial, nestedMatchesStandAlone: nestedMatchesStandAlone, decidedByPath: decidedByPath)
    }

    /// Ends the chain of handlers for the current event when this handler returns: the
    /// handlers of less specific patterns (and later ones of the same pattern) do not
    /// run for this start, end or text piece. The next event starts a new chain.
    public func stopHandlerChain() {
        engine.stopChain()
    }

    /// Stops the parse after this handler returns, without an error.
    ///
    /// No further handler runs, not even the remaining handlers of this event; the
    /// parse call returns ``ParseOutcome/stopped``. The corresponding expat function
    /// is `XML_StopParser`.
    public func stopParsing() {
        engine.requestStop()
    }
}

@available(*, unavailable)
extension ElementContext: Sendable {}

/// The handler set that captures each element matching a pattern, with the children its
/// schema reads, into a ``CapturedSubtree``, and hands the subtree on when the element ends.
///
/// Matches inside a matched element are part of it and are not delivered on their own.
final class SubtreeCapture {
    private let subtree: CapturedSubtree
    private let rootSchema: () -> KeySchema?
    /// What the type reads whole (``KeySchema/readsWholeText``), from the probe, whatever
    /// the capture leaves out; `nil` when it reads nothing whole.
    private let wholeTextSchema: KeySchema?
    private let limit: Int
    private let whitespace: WhitespacePolicy
    private let deliver: (CapturedSubtree, _ root: Int) throws -> Void
    /// The captured elements that are open, innermost last, with their depths and schemas
    /// (`nil`: everything inside is captured). The schema is referenced without a count:
    /// the element's entry in ``subtree`` holds it while the element is open.
    // Handlers run one at a time and never reach the capture re-entrantly, so accesses
    // cannot overlap: the runtime's exclusivity checks are left out of the per-element state.
    @exclusivity(unchecked) private var open: [(element: Int, depth: Int, schema: Unmanaged<KeySchema>?)] = []
    /// Within which the ids of the parse's names stand for one name each: the schemas'
    /// ``SkippedChildNames`` are asked and taught in it. A new parse or a new document
    /// of a concatenated input (which interns its names anew) starts another.
    @exclusivity(unchecked) private var nameEpoch = NameEpoch.none
    /// The document of the input that ``nameEpoch`` belongs to.
    @exclusivity(unchecked) private var nameEpochDocument = 0
    /// Per open captured element (same index), its node in ``wholeTextSchema``: kept only
    /// when the type reads something whole, so that other captures hold no references here.
    @exclusivity(unchecked) private var wholeNodes: [KeySchema?] = []
    /// The parse the open elements belong to: a parse that ended inside a matched element
    /// leaves them behind for the next parse to drop.
    @exclusivity(unchecked) private var parse = ParseIdentity()
    /// Records in the subtree that are held for delivery (``HeldRecords``): the subtree is
    /// cleared for the next record only when there are none.
    @exclusivity(unchecked) private var heldCount = 0
    /// The parse's held records, once this capture held one in it.
    @exclusivity(unchecked) private var held: HeldRecords?
    /// The open record's root, and where its capture began in ``CapturedSubtree/byteCount``.
    @exclusivity(unchecked) private var recordRoot = 0
    @exclusivity(unchecked) private var recordStart = 0
    /// The record being delivered: at its end tag, while its element is open, or later,
    /// held with the parse's other records.
    private enum Delivery {
        case atEndTag(ElementContext)
        case held(HeldRecords, root: Int)
    }
    @exclusivity(unchecked) private var delivering: Delivery?

    /// - Parameters:
    ///   - rootSchema: The schema of the matched elements, asked at each one (it may learn
    ///     keys between records); `nil` captures everything.
    ///   - wholeTextSchema: The probe's schema of the matched elements, if the type reads
    ///     some element's whole text: those elements' whole text is gathered.
    ///   - deliver: Receives the subtree and the record's root in it, at the matched
    ///     element's end tag or, for a held record, later.
    init(
        subtree: CapturedSubtree, rootSchema: @escaping () -> KeySchema?, wholeTextSchema: KeySchema? = nil, limit: Int,
        whitespace: WhitespacePolicy, deliver: @escaping (CapturedSubtree, _ root: Int) throws -> Void
    ) {
        self.subtree = subtree
        self.rootSchema = rootSchema
        self.wholeTextSchema = wholeTextSchema
        self.limit = limit
        self.whitespace = whitespace
        self.deliver = deliver
    }

    /// The element path of the record being delivered, for error descriptions.
    func pathOfDeliveredRecord() -> ElementPath? {
        switch delivering {
        case .atEndTag(let element): element.path
        case .held(let held, let root): held.path(ofRoot: root, in: self)
        case nil: nil
        }
    }

    /// Delivers a record that `held` held.
    func deliver(_ root: Int, heldBy held: HeldRecords) throws {
        delivering = .held(held, root: root)
        defer { delivering = nil }
        try deliver(subtree, root)
    }

    /// A held record was given up: delivered, or dropped after an error.
    func releaseHeld() {
        heldCount -= 1
    }

    /// The handlers, to mount at the pattern.
    func handlers() -> Dispatcher {
        var set = Dispatcher()
        set.onStart(.mountPoint) { [self] element in try begin(element) }
        set.onAnyStart { [self] element in try openChild(element) }
        set.onAnyEnd(whitespace: whitespace) { [self] element, text in try close(element, text) }
        set.onEnd(.mountPoint, whitespace: whitespace) { [self] element, text in try end(element, text) }
        set.labelWatch(of: .mountPoint, role: .decoded)
        // The records may be held for delivery in a row (``HeldRecords``) when captures
        // like this are the dispatcher's only handlers.
        set.defersDelivery = true
        return set
    }

    private func begin(_ element: ElementContext) throws {
        if parse.isNew(element.engine) {
            subtree.source = element.engine.source
            open.removeAll()
            wholeNodes.removeAll()
            heldCount = 0
            held = nil
            nameEpoch = nameEpoch.next
            nameEpochDocument = element.engine.documentNumber
        }
        guard open.isEmpty else { return try openChild(element) }
        // A record lies within one document: the ids its names have now hold until it ends.
        let document = element.engine.documentNumber
        if document != nameEpochDocument {
            nameEpoch = nameEpoch.next
            nameEpochDocument = document
        }
        if heldCount == 0 { subtree.removeAll() }
        recordStart = subtree.byteCount
        let position = element.engine.position(depth: element.depth, serial: element.serial)
        let schema = rootSchema()
        let root = subtree.append(
            name: element.name, namespaceURI: element.namespaceURI, attributes: element.attributesReadInHandler,
            parent: -1, schema: schema, line: position.line, column: position.column)
        recordRoot = root
        open.append((root, element.depth, schema.map(Unmanaged.passUnretained)))
        if let wholeTextSchema { wholeNodes.append(beginWholeText(element, wholeTextSchema)) }
        try checkLimit(element)
    }

    private func openChild(_ element: ElementContext) throws {
        guard let parent = open.last, element.depth == parent.depth + 1 else { return }
        var schema: KeySchema?
        // The name is made once: the schema's lookup and the capture both read it.
        var writtenName: String?
        if let parentReference = parent.schema {
            // A name found left out before is left out by its id: no string, no lookup.
            if parentReference._withUnsafeGuaranteedRef({ $0.skipsChild(named: element.nameID, in: nameEpoch) }) {
                return skipChild(element, of: parent.element)
            }
            let parentSchema = parentReference.takeUnretainedValue()
            // The namespace decides only for a schema with children read by namespace: a
            // child left out costs no lookup of it.
            let namespaceURI = parentSchema.readsChildrenByNamespace ? element.namespaceURI : nil
            let name = element.name
            writtenName = name
            switch parentSchema.capture(ofChild: name, namespaceURI: namespaceURI) {
            case .skipped:
                parentSchema.noteSkippedChild(named: element.nameID, in: nameEpoch)
                return skipChild(element, of: parent.element)
            case .everything: schema = nil
            case .pruned(let childSchema): schema = childSchema
            }
        }
        let name = writtenName ?? element.name
        let position = element.engine.position(depth: element.depth, serial: element.serial)
        let child = subtree.append(
            name: name, namespaceURI: element.namespaceURI, attributes: element.attributesReadInHandler,
            parent: parent.element, schema: schema, line: position.line, column: position.column)
        open.append((child, element.depth, schema.map(Unmanaged.passUnretained)))
        if wholeTextSchema != nil {
            // The item schema of a list read from a wrapper's children is the wrapper's own.
            let node = (wholeNodes.last ?? nil).flatMap {
                $0.schema(ofChildWritten: name, namespaceURI: element.namespaceURI) ?? ($0.readsAnyChildAsItem ? $0 : nil)
            }
            wholeNodes.append(beginWholeText(element, node))
        }
        try checkLimit(element)
    }

    /// Leaves out a child that no key of its parent's schema reads, with everything inside it.
    @inline(__always)
    private func skipChild(_ element: ElementContext, of parent: Int) {
        subtree.noteUncapturedChild(of: parent)
        element.pruneSubtree(nestedMatchesStandAlone: false)
    }

    private func close(_ element: ElementContext, _ text: String) throws {
        guard let innermost = open.last, innermost.depth == element.depth else { return }
        open.removeLast()
        subtree.setText(text, of: innermost.element)
        if wholeTextSchema != nil { endWholeText(element, innermost.element) }
        try checkLimit(element)
    }

    private func end(_ element: ElementContext, _ text: String) throws {
        if open.count > 1 { return try close(element, text) }
        // An element at the pattern nested in the record and left out (not captured) ends
        // here too: only the record's own element ends the record.
        guard let root = open.last, root.depth == element.depth else { return }
        open.removeLast()
        subtree.setText(text, of: root.element)
        if wholeTextSchema != nil { endWholeText(element, root.element) }
        try checkLimit(element)
        let engine = element.engine
        if engine.deferredDelivery.isAllowed {
            let held = self.held ?? HeldRecords.registered(in: engine)
            self.held = held
            heldCount += 1
            held.append(
                capture: self, root: root.element, bytes: subtree.byteCount - recordStart,
                position: engine.position(depth: element.depth, serial: element.serial), stack: engine.stack,
                depth: element.depth)
            if held.isFull { engine.deliverDeferred() }
            return
        }
        delivering = .atEndTag(element)
        defer { delivering = nil }
        try deliver(subtree, root.element)
    }

    /// Asks the engine to gather the whole text, and write the inner markup, of a captured
    /// element whose node in ``wholeTextSchema`` reads them; returns the node. What is
    /// gathered comes from the element as it streams past, inside the capture: the
    /// collected-text limits hold for it as for any handler's.
    private func beginWholeText(_ element: ElementContext, _ node: KeySchema?) -> KeySchema? {
        if node?.readsWholeText == true { element.requestWholeText() }
        if node?.readsInnerMarkup == true { element.requestInnerMarkup() }
        return node
    }

    /// Keeps the whole text and inner markup of a captured element that ends, if they were gathered.
    private func endWholeText(_ element: ElementContext, _ captured: Int) {
        guard let node = wholeNodes.popLast(), let node, node.readsContent else { return }
        if node.readsWholeText { subtree.setWholeText(element.wholeText(whitespace), of: captured) }
        if node.readsInnerMarkup { subtree.setInnerMarkup(element.innerMarkup(whitespace), of: captured) }
    }

    /// Throws when the record holds more than ``XMLRecordDecoder/maximumRecordBytes``: the
    /// test inlined at every captured element, the error out of line.
    @inline(__always)
    private func checkLimit(_ element: ElementContext) throws {
        if _slowPath(subtree.byteCount - recordStart > limit) { try recordTooLarge(element) }
    }

    @inline(never)
    private func recordTooLarge(_ element: ElementContext) throws {
        let root = subtree.elements[recordRoot]
        // The matched element is the outermost open capture, or the element itself at its end.
        let depth = open.first?.depth ?? element.depth
        open.removeAll()
        wholeNodes.removeAll()
        let message = XMLParseError.recordSizeMessage(element: root.name, limit: limit, contents: "names, attributes and text")
        var error = element.engine.limitError(.recordSizeLimitExceeded, message, limit: limit, depth: depth)
        error.source = subtree.source
        throw error
    }
}

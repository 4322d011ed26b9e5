/// The matching stage, one per registration of a record: turns a ``RecordPlan`` (and the
/// plans nested in it) into the handler set that captures their fields, keeps, during a
/// parse, the ``CapturedField``s of the records that are open, and builds each model when
/// its element ends. Made by ``Dispatcher/onRecord(_:diagnostics:_:)`` and the record
/// parses; the dispatch engine calls its handlers.
///
/// Nested records are handler sets mounted inside their parent's at the field's path,
/// so matching costs what it costs for hand-written handlers. With `skipsUnnamed`, the
/// elements below a root record's element that no field of the tree reads (``FieldPathTree``)
/// are pruned, with everything inside them.
///
/// This file builds the handler sets; `RecordAssembler+Events.swift` is what they do.
final class RecordAssembler {
    struct OpenRecord {
        var node: Int
        var slots: [CapturedField]
        var occurrence: CapturePosition
        var depth: Int
        /// The node's innermost open record before this one.
        var previous: Int
    }

    /// Which open records of a node a field's match belongs to: those a fixed number of
    /// generations up, or, for a path not anchored at the record (`//title`), every one.
    struct FieldAnchor {
        /// How many generations below its record the field's element is, when fixed.
        var generations: Int?
        /// The path starts anywhere below (`//title`): every enclosing record takes the match.
        var anywhere: Bool
    }

    /// What a field reading the record element's own content reads: which content, shaped how.
    struct OwnTextKind: Equatable {
        var policy: WhitespacePolicy
        var content: ElementContent
    }

    /// Where a nested record's models go: a field of its parent.
    struct Parent {
        var node: Int
        var field: Int
        /// How many generations the field's path spans, when fixed (`nil` with `//`).
        var generations: Int?
    }

    /// A field read at the record element itself (`.` or `@name`).
    struct OwnField {
        var field: Int
        var attribute: AttributeNameMatcher?
        var isList: Bool
        /// How the text's or the attribute value's whitespace is handled.
        var policy: WhitespacePolicy
        /// Which of the element's content a text field reads.
        var content: ElementContent
        /// For a single attribute field of a number or `Bool` kind: the kind its value
        /// converts to as it is read (``FieldReader/convert(_:_:)``).
        var converts: FieldReader.Kind?
    }

    // The assembler's state changes on every field event. Handlers run one at a time and
    // never reach the assembler re-entrantly, so accesses cannot overlap: the runtime's
    // exclusivity checks, paid on every access, are left out.
    @exclusivity(unchecked) var nodes: [RecordPlan] = []
    /// Per node, its fields read at the record element, found once here rather than per record.
    @exclusivity(unchecked) var ownFields: [[OwnField]] = []
    @exclusivity(unchecked) var parents: [Parent?] = []
    // Per-record state is in buffers rather than arrays: each write to an array stored in
    // a class checks that its storage is not shared, a call per write, several per record.
    @exclusivity(unchecked) var open = GrowableBuffer<OpenRecord>()
    /// Per open record (same index): the bytes its lists hold, its nested records' included
    /// (kept apart: a larger open record would make every record's removal a call).
    @exclusivity(unchecked) var heldBytes = GrowableBuffer<Int>()
    /// Per node, the index in `open` of its innermost open record, or -1.
    @exclusivity(unchecked) var innermost = GrowableBuffer<Int>()
    /// Per node, slot arrays of finished records, emptied, for the next records to reuse.
    @exclusivity(unchecked) var spareSlots = GrowableBuffer<[[CapturedField]]>()
    /// The elements below the root record's element that some field reads; with
    /// `skipsUnnamed`, the others are pruned.
    @exclusivity(unchecked) var pathTree: FieldPathTree?
    /// The parse the open records belong to: a parse that ended inside a record leaves it
    /// open, for the next parse to drop.
    @exclusivity(unchecked) var parse = ParseIdentity()
    let skipsUnnamed: Bool
    /// The name of the input the open records come from (``PushParser/source``), for their errors.
    @exclusivity(unchecked) var source: String?
    /// The engine of the current parse, for the path and position of a record over its
    /// size limit; weak, as the engine holds the handlers that hold the assembler.
    @exclusivity(unchecked) weak var engine: DispatchEngine?
    let report: (XMLRecordError) throws -> Void
    let deliver: (UnsafeMutableRawPointer) throws -> Void

    /// - Parameters:
    ///   - report: Receives the errors of records that their policy skipped or replaced.
    ///   - deliver: Receives each of the top-level record's models in memory, and must move
    ///     it out (before anything it does can throw): `$0.assumingMemoryBound(to: Model.self).move()`.
    init(
        skipsUnnamed: Bool, report: @escaping (XMLRecordError) throws -> Void,
        deliver: @escaping (UnsafeMutableRawPointer) throws -> Void
    ) {
        self.skipsUnnamed = skipsUnnamed
        self.report = report
        self.deliver = deliver
    }

    /// The handler set for `root`, to mount at the root record's pattern.
    func handlers(for root: RecordPlan) -> Dispatcher {
        var set = makeSet(root, parent: nil, inherited: NamespaceBindings())
        let pathTree = FieldPathTree(root)
        if skipsUnnamed && pathTree.rulesOutAnything {
            self.pathTree = pathTree
            // The root set's catch-all runs for every element below a root record element that
            // no field or nested record of the tree matched: where pruning is decided.
            set.onAnyStart { [self] element in pruneUnreachable(element) }
        }
        return set
    }

    /// - Parameter inherited: The bindings of the records `node` is nested in.
    func makeSet(_ node: RecordPlan, parent: Parent?, inherited: NamespaceBindings) -> Dispatcher {
        let index = nodes.count
        let bindings = node.namespaces.inheriting(inherited)
        let (own, ownTextKinds) = Self.ownFields(of: node, bindings: bindings)
        nodes.append(node)
        ownFields.append(own)
        parents.append(parent)
        innermost.append(-1)
        spareSlots.append([])
        var set = Dispatcher()
        set.namespaces = node.namespaces
        // What the record's start and end read for every record comes as the handlers'
        // captures, which a call borrows: read from the assembler's arrays, each would cost
        // a retain and a release per record.
        set.onStart(.mountPoint) { [self, own] element in try begin(index, element, own) }
        for (field, plan) in node.fields.enumerated() {
            guard let element = plan.path.element else { continue }
            // The record a match belongs to is the one as many generations up as the path
            // is long: with a record nested in another of its kind, not always the innermost.
            // A path that starts anywhere below (`//title`) belongs to every enclosing one.
            let anchor = FieldAnchor(generations: plan.path.depth, anywhere: !element.isAnchored)
            switch plan.capture {
            case .text(let policy), .items(let policy):
                let isList = if case .items = plan.capture { true } else { false }
                if let attribute = plan.path.attribute {
                    let attribute = AttributeNameMatcher(fieldAttribute: attribute, bindings: bindings)
                    let converts = Self.conversion(of: plan, isList: isList)
                    set.onStart(element) { [self] element in
                        try captureAttribute(index, field, anchor, attribute, policy, isList: isList, converts, element)
                    }
                } else {
                    set.onStart(element) { [self] element in openText(index, field, anchor, isList: isList, element) }
                    set.onEnd(element, content: plan.content, whitespace: policy) { [self] element, text in
                        try closeText(index, field, anchor, element, text)
                    }
                }
            case .position:
                // Read at the record element (path `.`), which has no element step.
                break
            case .record(let nested), .records(let nested):
                set.mount(
                    makeSet(
                        nested, parent: Parent(node: index, field: field, generations: anchor.generations),
                        inherited: bindings),
                    at: element)
            }
            // The record's `.` is its first watch.
            set.labelWatch(of: element, role: .field, text: plan.path.text, parent: 0)
        }
        set.labelWatch(of: .mountPoint, role: .record)
        // Own text under a second policy (or the whole text, or the inner markup) is completed
        // by its own end handler, which runs before the one that finishes the record (end
        // handlers of a pattern run in order).
        for kind in ownTextKinds.dropFirst() {
            set.onEnd(.mountPoint, content: kind.content, whitespace: kind.policy) { [self] element, text in
                try completeOwnText(index, kind, element, text)
            }
        }
        let assemble = node.assemble
        if let kind = ownTextKinds.first {
            set.onEnd(.mountPoint, content: kind.content, whitespace: kind.policy) { [self] element, text in
                try finish(index, element, text, kind, assemble)
            }
        } else {
            set.onEnd(.mountPoint) { [self] element in try finish(index, element, nil, nil, assemble) }
        }
        return set
    }

    /// The kind a single attribute field's value converts to as it is read, if any.
    static func conversion(of plan: FieldPlan, isList: Bool) -> FieldReader.Kind? {
        !isList && plan.readerKind.converts ? plan.readerKind : nil
    }

    /// An attribute value converted from expat's bytes as `kind` (after the field's
    /// whitespace policy trims it: no number has whitespace inside), or `nil` for the
    /// `String` path. No `String` is made for a value that converts.
    static func converted(
        _ value: UnsafePointer<CChar>, as kind: FieldReader.Kind, _ policy: WhitespacePolicy
    ) -> UInt64? {
        let bytes = UTF8Text.bytes(cString: value)
        return FieldReader.convert(kind, policy == .preserve ? bytes : Whitespace.trimmed(bytes))
    }

    /// The fields of `node` read at the record element itself (`.` or `@name`), and what
    /// those reading its content read, in field order, each once.
    static func ownFields(
        of node: RecordPlan, bindings: NamespaceBindings
    ) -> (fields: [OwnField], textKinds: [OwnTextKind]) {
        var fields: [OwnField] = []
        var textKinds: [OwnTextKind] = []
        for (field, plan) in node.fields.enumerated() where plan.path.element == nil {
            let policy: WhitespacePolicy
            switch plan.capture {
            case .text(let fieldPolicy), .items(let fieldPolicy):
                policy = fieldPolicy
            case .position:
                // Read from the record element's frame when the record ends: nothing to capture.
                continue
            case .record, .records:
                // A field path written in code (`.record("@id", …)`): input never builds a
                // nested record, and the message must survive an optimized build.
                fatalError(
                    "a nested record needs an element path, not \(plan.path.text.debugDescription)"
                        + " (field \(plan.displayName) of record \(node.name))")
            }
            let kind = OwnTextKind(policy: policy, content: plan.content)
            if plan.path.attribute == nil, !textKinds.contains(kind) { textKinds.append(kind) }
            let isList = if case .items = plan.capture { true } else { false }
            fields.append(
                OwnField(
                    field: field,
                    attribute: plan.path.attribute.map { AttributeNameMatcher(fieldAttribute: $0, bindings: bindings) },
                    isList: isList, policy: policy, content: plan.content,
                    converts: plan.path.attribute == nil ? nil : Self.conversion(of: plan, isList: isList)))
        }
        return (fields, textKinds)
    }

    /// The subtrees a record at `pattern` reads, for ``Dispatcher/skipAll(except:)``: each
    /// field's element under the record element (nested records' fields under theirs).
    /// The record element is on the way to them, so it is dispatched with its own text and
    /// attributes; everything else in the document is skipped by the parser's subtree
    /// filter at the cost of a few bit operations.
    static func keptSubtrees(
        of node: RecordPlan, at pattern: ElementPattern, inherited: NamespaceBindings = NamespaceBindings()
    ) -> [ElementPattern] {
        var kept: [ElementPattern] = []
        let bindings = node.namespaces.inheriting(inherited)
        for field in node.fields {
            guard let element = field.path.element else {
                // The record element's whole text or inner markup needs all of its subtree.
                if field.content != .ownText && field.path.attribute == nil { kept.append(pattern) }
                continue
            }
            let fieldPattern = element.resolvingPrefixes(bindings).mounted(at: pattern)
            switch field.capture {
            case .text, .items, .position:
                kept.append(fieldPattern)
            case .record(let nested), .records(let nested):
                kept += keptSubtrees(of: nested, at: fieldPattern, inherited: bindings)
            }
        }
        // With no field below it, the record element itself must still be dispatched.
        return kept.isEmpty ? [pattern] : kept
    }
}

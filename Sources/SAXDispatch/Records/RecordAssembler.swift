/// Streams records: turns a record definition (and the records nested in it) into the
/// handler set that captures their fields, keeps the fields of the records that are
/// open, and builds each model when its element ends.
///
/// Nested records are handler sets mounted inside their parent's at the field's path,
/// so matching costs what it costs for hand-written handlers. With `skipsUnnamed`, the
/// elements below a root record's element that no field of the tree reads (``FieldReach``)
/// are pruned, with everything inside them.
final class RecordAssembler {
    private struct OpenRecord {
        var node: Int
        var slots: [FieldSlot]
        var occurrence: FieldOccurrence
        var depth: Int
        /// The node's innermost open record before this one.
        var previous: Int
    }

    /// Which open records of a node a field's match belongs to.
    private struct FieldMatchReach {
        /// How many generations below its record the field's element is, when fixed.
        var generations: Int?
        /// The path starts anywhere below (`//title`): every enclosing record takes the match.
        var anywhere: Bool
    }

    /// What a field reading the record element's own content reads: which content, shaped how.
    private struct OwnTextKind: Equatable {
        var policy: WhitespacePolicy
        var content: ElementContent
    }

    /// Where a nested record's models go: a field of its parent.
    private struct Parent {
        var node: Int
        var field: Int
        /// How many generations the field's path spans, when fixed (`nil` with `//`).
        var generations: Int?
    }

    /// A field read at the record element itself (`.` or `@name`).
    private struct OwnField {
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
    // exclusivity checks (a quarter of the record layer's own cost) are left out.
    @exclusivity(unchecked) private var nodes: [RecordNode] = []
    /// Per node, its fields read at the record element, found once here rather than per record.
    @exclusivity(unchecked) private var ownFields: [[OwnField]] = []
    @exclusivity(unchecked) private var parents: [Parent?] = []
    // Per-record state is in buffers rather than arrays: each write to an array stored in
    // a class checks that its storage is not shared, a call per write, several per record.
    @exclusivity(unchecked) private var open = GrowableBuffer<OpenRecord>()
    /// Per open record (same index): the bytes its lists hold, its nested records' included
    /// (kept apart: a larger open record made every record's removal a call).
    @exclusivity(unchecked) private var heldBytes = GrowableBuffer<Int>()
    /// Per node, the index in `open` of its innermost open record, or -1.
    @exclusivity(unchecked) private var innermost = GrowableBuffer<Int>()
    /// Per node, slot arrays of finished records, emptied, for the next records to reuse.
    @exclusivity(unchecked) private var spareSlots = GrowableBuffer<[[FieldSlot]]>()
    /// The elements below the root record's element that some field reads; with
    /// `skipsUnnamed`, the others are pruned.
    @exclusivity(unchecked) private var reach: FieldReach?
    /// The parse the open records belong to: a parse that ended inside a record leaves it
    /// open, for the next parse to drop.
    @exclusivity(unchecked) private var parse = ParseIdentity()
    private let skipsUnnamed: Bool
    /// The name of the input the open records come from (``PushParser/source``), for their errors.
    @exclusivity(unchecked) private var source: String?
    private let report: (XMLRecordError) throws -> Void
    private let deliver: (UnsafeMutableRawPointer) throws -> Void

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
    func handlers(for root: RecordNode) -> Dispatcher {
        var set = makeSet(root, parent: nil, inherited: NamespaceBindings())
        let reach = FieldReach(root)
        if skipsUnnamed && reach.rulesOutAnything {
            self.reach = reach
            // The root set's catch-all runs for every element below a root record element that
            // no field or nested record of the tree matched: where pruning is decided.
            set.onAnyStart { [self] element in pruneUnreachable(element) }
        }
        return set
    }

    /// - Parameter inherited: The bindings of the records `node` is nested in.
    private func makeSet(_ node: RecordNode, parent: Parent?, inherited: NamespaceBindings) -> Dispatcher {
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
        for (field, spec) in node.fields.enumerated() {
            guard let element = spec.path.element else { continue }
            // The record a match belongs to is the one as many generations up as the path
            // is long: with a record nested in another of its kind, not always the innermost.
            // A path that starts anywhere below (`//title`) belongs to every enclosing one.
            let reach = FieldMatchReach(generations: spec.path.depth, anywhere: !element.isAnchored)
            switch spec.capture {
            case .text(let policy), .items(let policy):
                let isList = if case .items = spec.capture { true } else { false }
                if let attribute = spec.path.attribute {
                    let attribute = AttributeNameMatcher(fieldAttribute: attribute, bindings: bindings)
                    let converts = Self.conversion(of: spec, isList: isList)
                    set.onStart(element) { [self] element in
                        try captureAttribute(index, field, reach, attribute, policy, isList: isList, converts, element)
                    }
                } else {
                    set.onStart(element) { [self] element in openText(index, field, reach, isList: isList, element) }
                    set.onEnd(element, content: spec.content, whitespace: policy) { [self] element, text in
                        try closeText(index, field, reach, element, text)
                    }
                }
            case .record(let nested), .records(let nested):
                set.mount(
                    makeSet(
                        nested, parent: Parent(node: index, field: field, generations: reach.generations),
                        inherited: bindings),
                    at: element)
            }
        }
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
    private static func conversion(of spec: FieldSpec, isList: Bool) -> FieldReader.Kind? {
        !isList && spec.readerKind.converts ? spec.readerKind : nil
    }

    /// An attribute value converted from expat's bytes as `kind` (after the field's
    /// whitespace policy trims it: no number has whitespace inside), or `nil` for the
    /// `String` path. No `String` is made for a value that converts.
    private static func converted(
        _ value: UnsafePointer<CChar>, as kind: FieldReader.Kind, _ policy: WhitespacePolicy
    ) -> UInt64? {
        let bytes = UTF8Text.bytes(cString: value)
        return FieldReader.convert(kind, policy == .preserve ? bytes : Whitespace.trimmed(bytes))
    }

    /// The fields of `node` read at the record element itself (`.` or `@name`), and what
    /// those reading its content read, in field order, each once.
    private static func ownFields(
        of node: RecordNode, bindings: NamespaceBindings
    ) -> (fields: [OwnField], textKinds: [OwnTextKind]) {
        var fields: [OwnField] = []
        var textKinds: [OwnTextKind] = []
        for (field, spec) in node.fields.enumerated() where spec.path.element == nil {
            let policy: WhitespacePolicy
            switch spec.capture {
            case .text(let fieldPolicy), .items(let fieldPolicy):
                policy = fieldPolicy
            case .record, .records:
                preconditionFailure("a nested record needs an element path, not \(spec.path.text.debugDescription)")
            }
            let kind = OwnTextKind(policy: policy, content: spec.content)
            if spec.path.attribute == nil, !textKinds.contains(kind) { textKinds.append(kind) }
            let isList = if case .items = spec.capture { true } else { false }
            fields.append(
                OwnField(
                    field: field,
                    attribute: spec.path.attribute.map { AttributeNameMatcher(fieldAttribute: $0, bindings: bindings) },
                    isList: isList, policy: policy, content: spec.content,
                    converts: spec.path.attribute == nil ? nil : Self.conversion(of: spec, isList: isList)))
        }
        return (fields, textKinds)
    }

    /// The subtrees a record at `pattern` reads, for ``Dispatcher/skipAll(except:)``: each
    /// field's element under the record element (nested records' fields under theirs).
    /// The record element is on the way to them, so it is dispatched with its own text and
    /// attributes; everything else in the document is skipped by the parser's subtree
    /// filter at the cost of a few bit operations.
    static func keptSubtrees(
        of node: RecordNode, at pattern: ElementPattern, inherited: NamespaceBindings = NamespaceBindings()
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
            case .text, .items:
                kept.append(fieldPattern)
            case .record(let nested), .records(let nested):
                kept += keptSubtrees(of: nested, at: fieldPattern, inherited: bindings)
            }
        }
        // With no field below it, the record element itself must still be dispatched.
        return kept.isEmpty ? [pattern] : kept
    }

    // MARK: Events

    /// The records open in the current parse, for tests.
    var openRecordCount: Int { open.count }

    private func begin(_ node: Int, _ element: ElementContext, _ own: [OwnField]) throws {
        if parse.isNew(element.engine) {
            source = element.engine.source
            open.removeAll()
            heldBytes.removeAll()
            for node in 0..<innermost.count { innermost[node] = -1 }
        }
        let occurrence = FieldOccurrence(element)
        var slots = spareSlots[node].popLast() ?? [FieldSlot](repeating: .empty, count: nodes[node].fields.count)
        var held = 0
        if !own.isEmpty {
            let attributes = element.attributesReadInHandler
            // The nil markers matter only to the record element's own text, when a field reads it.
            var isNil: Bool?
            for field in own {
                if let attribute = field.attribute {
                    guard let raw = attributes.cString(matching: attribute) else { continue }
                    if let kind = field.converts, let bits = Self.converted(raw, as: kind, field.policy) {
                        slots[field.field].capture(converted: bits, occurrence)
                    } else {
                        let value = Whitespace.applying(field.policy, to: UTF8Text.string(cString: raw))
                        if slots[field.field].capture(value, occurrence, isList: field.isList) { held += Self.cost(of: value) }
                    }
                } else {
                    let marked = isNil ?? Self.isMarkedNil(attributes)
                    isNil = marked
                    slots[field.field].open(occurrence, isNil: marked, depth: element.depth, isList: field.isList)
                }
            }
        }
        open.append(
            OpenRecord(node: node, slots: consume slots, occurrence: occurrence, depth: element.depth, previous: innermost[node]))
        heldBytes.append(held)
        innermost[node] = open.count - 1
        if _slowPath(held > nodes[node].maximumBytes) { try charge(0, to: open.count - 1) }
    }

    /// What a value kept in a list costs its record: its UTF-8 and its keeping.
    private static func cost(of value: String) -> Int { value.utf8.count + 32 }

    /// What a nested record's model costs the parent it waits in, besides the lists its
    /// record held: the model, its keeping, and its single fields' text.
    @inline(never)
    private static func modelCost(of slots: [FieldSlot], modelSize: Int) -> Int {
        var bytes = modelSize + 32
        for slot in slots {
            if case .text(let text, _) = slot { bytes += text.utf8.count }
        }
        return bytes
    }

    /// Charges open record `record` for `bytes` more held in its lists; past its limit,
    /// the parse fails naming the record element's start tag.
    private func charge(_ bytes: Int, to record: Int) throws {
        heldBytes[record] += bytes
        let node = open[record].node
        let limit = nodes[node].maximumBytes
        guard _slowPath(heldBytes[record] > limit) else { return }
        // The element's name, as its pattern's last step gives it (or the record's name for `*`).
        let name = nodes[node].pattern.steps.last?.name ?? nodes[node].name
        throw RecordSizeLimitError(
            elementName: name, line: open[record].occurrence.line, column: open[record].occurrence.column, limit: limit,
            source: source, contents: "list values and nested records")
    }

    /// The open record of `node` whose element is at `depth`, or the innermost one when
    /// the depth is not known (a field path with `//`); -1 when there is none.
    @inline(__always)
    private func openRecord(of node: Int, atDepth depth: Int?) -> Int {
        var record = innermost[node]
        guard let depth else { return record }
        while record >= 0 && open[record].depth > depth { record = open[record].previous }
        return record >= 0 && open[record].depth == depth ? record : -1
    }

    /// The open record of `node` that a match `generations` below it (`nil`: any number) belongs to.
    @inline(__always)
    private func openRecord(of node: Int, above element: ElementContext, generations: Int?) -> Int {
        openRecord(of: node, atDepth: generations.map { element.depth - $0 })
    }

    /// Calls `body` with each open record of `node` that a field match at `element` belongs to.
    @inline(__always)
    private func forEachRecord(
        of node: Int, matching element: ElementContext, _ reach: FieldMatchReach, _ body: (Int) throws -> Void
    ) rethrows {
        guard reach.anywhere else {
            let record = openRecord(of: node, above: element, generations: reach.generations)
            if record >= 0 { try body(record) }
            return
        }
        var record = innermost[node]
        while record >= 0 {
            if open[record].depth < element.depth { try body(record) }
            record = open[record].previous
        }
    }

    private func openText(_ node: Int, _ field: Int, _ reach: FieldMatchReach, isList: Bool, _ element: ElementContext) {
        let occurrence = FieldOccurrence(element)
        let isNil = Self.isMarkedNil(element.attributesReadInHandler)
        forEachRecord(of: node, matching: element, reach) { record in
            open[record].slots[field].open(occurrence, isNil: isNil, depth: element.depth, isList: isList)
        }
    }

    private func closeText(_ node: Int, _ field: Int, _ reach: FieldMatchReach, _ element: ElementContext, _ text: String)
        throws
    {
        try forEachRecord(of: node, matching: element, reach) { record in
            if open[record].slots[field].complete(depth: element.depth, text: text) {
                try charge(Self.cost(of: text), to: record)
            }
        }
    }

    private func captureAttribute(
        _ node: Int, _ field: Int, _ reach: FieldMatchReach, _ attribute: AttributeNameMatcher, _ policy: WhitespacePolicy,
        isList: Bool, _ converts: FieldReader.Kind?, _ element: ElementContext
    ) throws {
        guard let raw = element.attributesReadInHandler.cString(matching: attribute) else { return }
        let occurrence = FieldOccurrence(element)
        if let kind = converts, let bits = Self.converted(raw, as: kind, policy) {
            forEachRecord(of: node, matching: element, reach) { record in
                open[record].slots[field].capture(converted: bits, occurrence)
            }
            return
        }
        let value = Whitespace.applying(policy, to: UTF8Text.string(cString: raw))
        try forEachRecord(of: node, matching: element, reach) { record in
            if open[record].slots[field].capture(value, occurrence, isList: isList) {
                try charge(Self.cost(of: value), to: record)
            }
        }
    }

    /// Prunes an element below the root record's element that no field reads (the engine
    /// grants it only if no other handler would see anything in it). Inside a root record
    /// nested in another, nothing is pruned: the outer one's fields may reach in.
    private func pruneUnreachable(_ element: ElementContext) {
        let record = innermost[0]
        guard record >= 0, open[record].previous < 0 else { return }
        if reach?.reaches(top: element.depth - 1, below: open[record].depth - 1, in: element.engine) == false {
            // A record at the root pattern inside this one is delivered on its own: pruning
            // must not hide it.
            element.pruneSubtree(nestedMatchesAreRecords: true)
        }
    }

    /// Completes the fields reading the record element's content as `kind` says.
    private func completeOwnText(_ node: Int, _ kind: OwnTextKind, _ element: ElementContext, _ text: String) throws {
        let record = openRecord(of: node, atDepth: element.depth)
        guard record >= 0 else { return }
        let kept = completeOwnText(of: node, in: &open[record].slots, kind, depth: element.depth, text)
        try charge(kept, to: record)
    }

    // The code a record runs at its end is kept small: what most records never need (own
    // text, a nested record's cost, failures) is in functions of its own, so that the
    // hot path shares the instruction cache with expat's tokenizer without evicting it.
    private func finish(
        _ node: Int, _ element: ElementContext, _ text: String?, _ kind: OwnTextKind?,
        _ assemble: RecordNode.Assemble
    ) throws {
        let index = openRecord(of: node, atDepth: element.depth)
        guard index >= 0 else { return }
        let held = heldBytes[index]
        var record = removeOpenRecord(at: index)
        // Taken out of the record so that the array stays uniquely referenced for reuse.
        var slots = record.slots
        record.slots = []
        if let text, let kind { _ = completeOwnText(of: node, in: &slots, kind, depth: element.depth, text) }
        defer { recycle(&slots, of: node) }
        // A nested record's model waits in its parent's field, with its single fields' text.
        let holding = parents[node] == nil ? held : held + Self.modelCost(of: slots, modelSize: nodes[node].modelSize)
        // `nodes[node]` is read in place: a copy of the node would retain its fields and closures.
        let site = RecordSite(name: nodes[node].name, context: element, occurrence: record.occurrence)
        try withUnsafeTemporaryAllocation(
            byteCount: max(nodes[node].modelSize, 1), alignment: nodes[node].modelAlignment
        ) { buffer in
            guard let model = buffer.baseAddress else { preconditionFailure("a temporary allocation of at least one byte has an address") }
            if let failures = assemble(&slots, site, model) {
                try settle(failures, of: node, site, model: model, holding: holding)
            } else {
                try deliver(model, from: node, holding: holding, at: element.depth)
            }
        }
    }

    /// Completes, in a record's `slots`, the fields of `node` that read its element's own
    /// content as `kind` says; returns what the lists among them took (see ``charge(_:to:)``).
    @inline(never)
    private func completeOwnText(
        of node: Int, in slots: inout [FieldSlot], _ kind: OwnTextKind, depth: Int, _ text: String
    ) -> Int {
        var kept = 0
        for field in ownFields[node] where field.attribute == nil && field.policy == kind.policy && field.content == kind.content {
            if slots[field.field].complete(depth: depth, text: text) { kept += Self.cost(of: text) }
        }
        return kept
    }

    /// Applies the record's failure policy to a record whose fields failed: throws, reports
    /// and skips, or reports and delivers the replacement.
    @inline(never)
    private func settle(
        _ failures: FieldFailures, of node: Int, _ site: RecordSite, model: UnsafeMutableRawPointer, holding: Int
    ) throws {
        let error = XMLRecordError(
            recordName: nodes[node].name, recordPath: site.context.path, line: site.occurrence.line,
            column: site.occurrence.column, failures: failures.failures, source: source)
        switch nodes[node].policy {
        case .fail:
            throw error
        case .skip:
            try report(error)
        case .replace(let replacement):
            try report(error)
            replacement(model)
            try deliver(model, from: node, holding: holding, at: site.context.depth)
        }
    }

    /// Takes the record at `index` out of the open ones. It is the last one unless several
    /// records began at one element (two nested records at one path, or a record that is
    /// also nested in another of its kind): their end handlers run in the order of their
    /// start handlers, not in reverse.
    private func removeOpenRecord(at index: Int) -> OpenRecord {
        // The usual case, the last one, is a removal without moving anything.
        let isLast = index == open.count - 1
        let record = isLast ? open.removeLast() : open.remove(at: index)
        _ = isLast ? heldBytes.removeLast() : heldBytes.remove(at: index)
        if innermost[record.node] == index {
            innermost[record.node] = record.previous
        }
        // The records above it moved down one place: so do the references to them.
        for later in index..<open.count {
            if open[later].previous == index { open[later].previous = record.previous }
            if open[later].previous > index { open[later].previous -= 1 }
            if innermost[open[later].node] == later + 1 { innermost[open[later].node] = later }
        }
        return record
    }

    /// Keeps a finished record's slot array for the node's next record: a record then
    /// costs no allocation of its own. Assembling the record took every slot's contents
    /// (``RecordNode/assemble``), so the slots are empty already.
    private func recycle(_ slots: inout [FieldSlot], of node: Int) {
        assert(slots.allSatisfy { if case .empty = $0 { true } else { false } }, "an assembled record's slots are empty")
        spareSlots[node].append(slots)
        slots = []
    }

    /// Hands a built model on, moving it out of `model`: to the handler for a top-level
    /// record, into its parent's field for a nested one, where the model and what it holds
    /// (`held` bytes) count towards the parent's limit.
    private func deliver(_ model: UnsafeMutableRawPointer, from node: Int, holding held: Int, at depth: Int) throws {
        guard let parent = parents[node] else {
            try deliver(model)
            return
        }
        try deliver(model, from: node, to: parent, holding: held, at: depth)
    }

    /// Moves a nested record's model into its parent's field.
    @inline(never)
    private func deliver(
        _ model: UnsafeMutableRawPointer, from node: Int, to parent: Parent, holding held: Int, at depth: Int
    ) throws {
        let boxed = nodes[node].box(model)
        let record = openRecord(of: parent.node, atDepth: parent.generations.map { depth - $0 })
        guard record >= 0 else { return }
        open[record].slots[parent.field].appendRecord(boxed)
        try charge(held, to: record)
    }

    /// `nil="nil"`, `nil="true"` or `xsi:nil="true"` (or `"1"`).
    static func isMarkedNil(_ attributes: ElementAttributes) -> Bool {
        guard !attributes.isEmpty else { return false }
        if let value = attributes["nil"], value == "nil" || value == "true" { return true }
        if let value = attributes.value(matching: schemaInstanceNil) ?? attributes.value(matching: writtenNil),
            value == "true" || value == "1"
        {
            return true
        }
        return false
    }

    /// `nil` in XML Schema's instance namespace, whatever its prefix; and `xsi:nil` as
    /// written, for documents read without namespace processing.
    private static let schemaInstanceNil = AttributeNameMatcher(lookup: "{http://www.w3.org/2001/XMLSchema-instance}nil")
    private static let writtenNil = AttributeNameMatcher(lookup: "xsi:nil")
}

/// What the assembler does as events arrive: opens a record at its element, captures its
/// fields' text and attributes, charges what its lists hold against the record size
/// limit, and builds and delivers each model when its element ends.
extension RecordAssembler {
    /// The records open in the current parse, for tests.
    var openRecordCount: Int { open.count }

    func begin(_ node: Int, _ element: ElementContext, _ own: [OwnField]) throws {
        if parse.isNew(element.engine) {
            source = element.engine.source
            engine = element.engine
            open.removeAll()
            heldBytes.removeAll()
            for node in 0..<innermost.count { innermost[node] = -1 }
        }
        let occurrence = CapturePosition(element)
        var slots = spareSlots[node].popLast() ?? [CapturedField](repeating: .empty, count: nodes[node].fields.count)
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
    static func cost(of value: String) -> Int { value.utf8.count + 32 }

    /// What a nested record's model costs the parent it waits in, besides the lists its
    /// record held: the model, its keeping, and its single fields' text.
    @inline(never)
    static func modelCost(of slots: [CapturedField], modelSize: Int) -> Int {
        var bytes = modelSize + 32
        for slot in slots {
            if case .text(let text, _) = slot { bytes += text.utf8.count }
        }
        return bytes
    }

    /// Charges open record `record` for `bytes` more held in its lists; past its limit,
    /// the parse fails naming the record element's start tag.
    func charge(_ bytes: Int, to record: Int) throws {
        heldBytes[record] += bytes
        let node = open[record].node
        let limit = nodes[node].maximumBytes
        guard _slowPath(heldBytes[record] > limit) else { return }
        // The element's name, as its pattern's last step gives it (or the record's name for `*`).
        let name = nodes[node].pattern.steps.last?.name ?? nodes[node].name
        let message = XMLParseError.recordSizeMessage(element: name, limit: limit, contents: "list values and nested records")
        guard let engine else {
            throw XMLParseError(
                code: .recordSizeLimitExceeded, message: message, line: open[record].occurrence.line,
                column: open[record].occurrence.column, byteOffset: 0, limit: limit, source: source)
        }
        var error = engine.limitError(.recordSizeLimitExceeded, message, limit: limit, depth: open[record].depth)
        error.source = source
        throw error
    }

    /// The open record of `node` whose element is at `depth`, or the innermost one when
    /// the depth is not known (a field path with `//`); -1 when there is none.
    @inline(__always)
    func openRecord(of node: Int, atDepth depth: Int?) -> Int {
        var record = innermost[node]
        guard let depth else { return record }
        while record >= 0 && open[record].depth > depth { record = open[record].previous }
        return record >= 0 && open[record].depth == depth ? record : -1
    }

    /// The open record of `node` that a match `generations` below it (`nil`: any number) belongs to.
    @inline(__always)
    func openRecord(of node: Int, above element: ElementContext, generations: Int?) -> Int {
        openRecord(of: node, atDepth: generations.map { element.depth - $0 })
    }

    /// Calls `body` with each open record of `node` that a field match at `element` belongs to.
    @inline(__always)
    func forEachRecord(
        of node: Int, matching element: ElementContext, _ anchor: FieldAnchor, _ body: (Int) throws -> Void
    ) rethrows {
        guard anchor.anywhere else {
            let record = openRecord(of: node, above: element, generations: anchor.generations)
            if record >= 0 { try body(record) }
            return
        }
        var record = innermost[node]
        while record >= 0 {
            if open[record].depth < element.depth { try body(record) }
            record = open[record].previous
        }
    }

    func openText(_ node: Int, _ field: Int, _ anchor: FieldAnchor, isList: Bool, _ element: ElementContext) {
        let occurrence = CapturePosition(element)
        let isNil = Self.isMarkedNil(element.attributesReadInHandler)
        forEachRecord(of: node, matching: element, anchor) { record in
            open[record].slots[field].open(occurrence, isNil: isNil, depth: element.depth, isList: isList)
        }
    }

    func closeText(_ node: Int, _ field: Int, _ anchor: FieldAnchor, _ element: ElementContext, _ text: String)
        throws
    {
        try forEachRecord(of: node, matching: element, anchor) { record in
            if open[record].slots[field].complete(depth: element.depth, text: text) {
                try charge(Self.cost(of: text), to: record)
            }
        }
    }

    func captureAttribute(
        _ node: Int, _ field: Int, _ anchor: FieldAnchor, _ attribute: AttributeNameMatcher, _ policy: WhitespacePolicy,
        isList: Bool, _ converts: FieldReader.Kind?, _ element: ElementContext
    ) throws {
        guard let raw = element.attributesReadInHandler.cString(matching: attribute) else { return }
        let occurrence = CapturePosition(element)
        if let kind = converts, let bits = Self.converted(raw, as: kind, policy) {
            forEachRecord(of: node, matching: element, anchor) { record in
                open[record].slots[field].capture(converted: bits, occurrence)
            }
            return
        }
        let value = Whitespace.applying(policy, to: UTF8Text.string(cString: raw))
        try forEachRecord(of: node, matching: element, anchor) { record in
            if open[record].slots[field].capture(value, occurrence, isList: isList) {
                try charge(Self.cost(of: value), to: record)
            }
        }
    }

    /// Prunes an element below the root record's element that no field reads (the engine
    /// grants it only if no other handler would see anything in it). Inside a root record
    /// nested in another, nothing is pruned: the outer one's fields may reach in.
    func pruneUnreachable(_ element: ElementContext) {
        let record = innermost[0]
        guard record >= 0, open[record].previous < 0 else { return }
        if pathTree?.reaches(top: element.depth - 1, below: open[record].depth - 1, in: element.engine) == false {
            // A record at the root pattern inside this one is delivered on its own: pruning
            // must not hide it.
            // What decides it are the names of the element's path: which of its ancestors
            // are records of the root's pattern (the engine relies on this only where names
            // alone decide that pattern's matches) and the field paths' names.
            element.pruneSubtree(nestedMatchesStandAlone: true, decidedByPath: true)
        }
    }

    /// Completes the fields reading the record element's content as `kind` says.
    func completeOwnText(_ node: Int, _ kind: OwnTextKind, _ element: ElementContext, _ text: String) throws {
        let record = openRecord(of: node, atDepth: element.depth)
        guard record >= 0 else { return }
        let kept = completeOwnText(of: node, in: &open[record].slots, kind, depth: element.depth, text)
        try charge(kept, to: record)
    }

    // The code a record runs at its end is kept small: what most records never need (own
    // text, a nested record's cost, failures) is in functions of its own, so that the
    // hot path shares the instruction cache with expat's tokenizer without evicting it.
    func finish(
        _ node: Int, _ element: ElementContext, _ text: String?, _ kind: OwnTextKind?,
        _ assemble: RecordPlan.Assemble
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
        if let offsets = nodes[node].byteOffsets, !offsets.contains(outermostOffset(of: record, element)) {
            // Another range's record: what it captured is let go, unread.
            for slot in slots.indices { slots[slot] = .empty }
            return
        }
        // A nested record's model waits in its parent's field, with its single fields' text.
        let holding = parents[node] == nil ? held : held + Self.modelCost(of: slots, modelSize: nodes[node].modelSize)
        // `nodes[node]` is read in place: a copy of the node would retain its fields and closures.
        let site = RecordReadContext(name: nodes[node].name, context: element, occurrence: record.occurrence)
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

    /// The byte offset of the outermost open record of `record`'s kind around it (itself
    /// when none): a record inside another of its kind is read with it, by the range where
    /// the outer one begins.
    func outermostOffset(of record: OpenRecord, _ element: ElementContext) -> Int {
        var outermost = record
        while outermost.previous >= 0 { outermost = open[outermost.previous] }
        guard outermost.depth < element.depth else { return element.byteOffset }
        return element.engine.stack[outermost.depth - 1].byteOffset
    }

    /// Completes, in a record's `slots`, the fields of `node` that read its element's own
    /// content as `kind` says; returns what the lists among them took (see ``charge(_:to:)``).
    @inline(never)
    func completeOwnText(
        of node: Int, in slots: inout [CapturedField], _ kind: OwnTextKind, depth: Int, _ text: String
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
    func settle(
        _ failures: FieldFailures, of node: Int, _ site: RecordReadContext, model: UnsafeMutableRawPointer, holding: Int
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
    func removeOpenRecord(at index: Int) -> OpenRecord {
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
    /// (``RecordPlan/assemble``), so the slots are empty already.
    func recycle(_ slots: inout [CapturedField], of node: Int) {
        assert(slots.allSatisfy { if case .empty = $0 { true } else { false } }, "an assembled record's slots are empty")
        spareSlots[node].append(slots)
        slots = []
    }

    /// Hands a built model on, moving it out of `model`: to the handler for a top-level
    /// record, into its parent's field for a nested one, where the model and what it holds
    /// (`held` bytes) count towards the parent's limit.
    func deliver(_ model: UnsafeMutableRawPointer, from node: Int, holding held: Int, at depth: Int) throws {
        guard let parent = parents[node] else {
            try deliver(model)
            return
        }
        try deliver(model, from: node, to: parent, holding: held, at: depth)
    }

    /// Moves a nested record's model into its parent's field.
    @inline(never)
    func deliver(
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
    static let schemaInstanceNil = AttributeNameMatcher(lookup: "{http://www.w3.org/2001/XMLSchema-instance}nil")
    static let writtenNil = AttributeNameMatcher(lookup: "xsi:nil")
}

/// One run of an ``XMLTransform``: the handlers that copy the document into the writer,
/// and what they keep about the open elements.
///
/// Each rule's pattern has a start handler that only notes the rule matched. One handler
/// for every element (`*`), registered last, runs after them — the least specific pattern
/// runs last, equal ones in registration order — and does the work: it applies the rules
/// noted, in the order they were added, and writes. Text and end tags go to `*` handlers
/// alone, so each piece is written once. With no rule, the same handlers are the ones for
/// elements no pattern matches, which the engine reaches at less cost.
///
/// The run is used by the parse's thread alone, and no access to its state overlaps
/// another: its hot properties skip the run-time exclusivity checks.
///
/// What must stay true: ``frames`` has one frame per open element, pushed by ``start(_:)``
/// and popped by ``end(_:)``; ``matched`` is empty outside a start tag's handlers.
final class TransformRun {
    let rules: [XMLTransform.Rule]
    let writer: XMLWriter
    let processesNamespaces: Bool
    let maximumHeldBytes: Int
    /// By rule index: what a rename rule names, what a removeAttribute rule selects.
    private let renames: [RenameTarget?]
    private let removals: [AttributeSelector?]
    /// By rule index: whether the rule is one for every element that needs no route of its
    /// own (removing attributes from every element): it is noted at every start tag.
    private let appliesEverywhere: [Bool]
    /// The indices of those rules.
    private let everywhereRules: [Int]
    /// Whether ``XMLTransform/keep(_:)`` rules select what the root holds.
    private let selects: Bool

    enum Output {
        /// Written; `selected` when its text and markup are output (always, without keep
        /// rules; inside a kept element, with them).
        case written(selected: Bool)
        /// Not written, but its descendants may be kept (keep rules select among them).
        case passedOver
        /// Not written, nor anything inside it.
        case suppressed
        /// Replaced by what rule `rule` writes at its end.
        case replaced(rule: Int)
    }

    struct Frame {
        var output: Output
        /// What few elements need: kept out of line, so that a frame is copied without a
        /// reference count in the common case.
        var extras: Extras?

        var textEdits: [Int] { extras?.textEdits ?? [] }
        var context: ElementContext? { extras?.context }
        var hold: Hold? { extras?.hold }
    }

    /// The hold an element's output is under while a condition decides its fate.
    struct Hold {
        var writerHold: XMLWriter.Hold
        var rule: Int
        var element: HeldElement
    }

    /// A frame's rules editing the element's own text, in order, with the element they are
    /// given; and its hold.
    final class Extras {
        var textEdits: [Int] = []
        var context: ElementContext?
        var hold: Hold?
    }

    /// A buffer, not an array: a frame is read in place, without retaining what it holds.
    @exclusivity(unchecked) private var frames = GrowableBuffer<Frame>(capacity: 64)
    /// The rules whose patterns matched the start tag being handled.
    @exclusivity(unchecked) private var matched: [Int] = []
    /// The element's own text since its last markup, while a rule edits it.
    @exclusivity(unchecked) private var textRun: [UInt8] = []
    /// Where the outermost hold began and the element it holds, while one is open.
    @exclusivity(unchecked) private var outermostHold: (hold: XMLWriter.Hold, name: String, depth: Int)?

    init(
        rules: [XMLTransform.Rule], writer: XMLWriter, processesNamespaces: Bool, namespaces: NamespaceBindings,
        maximumHeldBytes: Int
    ) {
        self.rules = rules
        self.writer = writer
        self.processesNamespaces = processesNamespaces
        self.maximumHeldBytes = maximumHeldBytes
        var renames = [RenameTarget?](repeating: nil, count: rules.count)
        var removals = [AttributeSelector?](repeating: nil, count: rules.count)
        var selects = false
        for (index, rule) in rules.enumerated() {
            switch rule.action {
            case .rename(let name):
                renames[index] = RenameTarget(name, processesNamespaces: processesNamespaces, namespaces: namespaces)
            case .removeAttribute(let name):
                removals[index] = AttributeSelector(name, processesNamespaces: processesNamespaces, namespaces: namespaces)
            case .keep, .keepIf: selects = true
            default: break
            }
        }
        self.renames = renames
        self.removals = removals
        appliesEverywhere = rules.map { rule in
            guard case .removeAttribute = rule.action else { return false }
            return rule.pattern == .any
        }
        let appliesEverywhere = self.appliesEverywhere
        everywhereRules = appliesEverywhere.indices.filter { appliesEverywhere[$0] }
        self.selects = selects
    }

    /// The dispatcher whose handlers run the transform. Its handlers hold the run, which
    /// holds nothing of the dispatcher: both go when the parse is over.
    func dispatcher() -> Dispatcher {
        var dispatcher = Dispatcher()
        dispatcher.keepsNamespaceDeclarations = true
        dispatcher.whitespace = .preserve
        for (index, rule) in rules.enumerated() where !appliesEverywhere[index] {
            dispatcher.onStart(rule.pattern) { [self] _ in matched.append(index) }
            switch rule.action {
            case .replace(let scope, _):
                dispatcher.onEnd(rule.pattern, text: scope, whitespace: .preserve) { [self] element, text in
                    try replacementEnd(rule: index, element, text)
                }
            case .keepIf, .dropIf:
                // The text of a held element's children, for its condition.
                let children = ElementPattern("/*").mounted(at: rule.pattern)
                dispatcher.onEnd(children, text: .own, whitespace: .trim) { [self] element, text in
                    childEnded(element, text)
                }
                dispatcher.labelWatch(of: children, role: .unwatched)
            default: break
            }
        }
        if !appliesEverywhere.contains(false) {
            // No pattern: the handlers for elements no pattern matches see every element,
            // through the engine's cheaper way of reaching them.
            dispatcher.onAnyStart { [self] element in try start(element) }
            dispatcher.onAnyText { [self] element, chunk in try text(element, chunk) }
            dispatcher.onAnyEnd { [self] element in try end(element) }
        } else {
            dispatcher.onStart(.any) { [self] element in try start(element) }
            dispatcher.onText(.any) { [self] element, chunk in try text(element, chunk) }
            dispatcher.onEnd(.any) { [self] element in try end(element) }
            dispatcher.labelWatch(of: .any, role: .unwatched)
        }
        dispatcher.onComment { [self] comment in
            guard try writesMarkup() else { return }
            try writer.comment(comment)
        }
        dispatcher.onProcessingInstruction { [self] target, data in
            guard try writesMarkup() else { return }
            try writer.processingInstruction(target, data)
        }
        return dispatcher
    }

    // MARK: Elements

    /// The output of the innermost open element, `nil` outside the root.
    private var parentOutput: Output? {
        @inline(__always) get { frames.isEmpty ? nil : frames.last.output }
    }

    private func start(_ element: ElementContext) throws {
        // The common case: inside what is written and selected, no text run waiting for its
        // edits, and no rule that matched does more than rename the element by its local name
        // or remove attributes. What the general path would do, without its work.
        if textRun.isEmpty, case .written(selected: true)? = parentOutput, try startCopied(element) {
            if !matched.isEmpty { matched.removeAll(keepingCapacity: true) }
            frames.append(Frame(output: .written(selected: true)))
            try checkHeldSize(element)
            return
        }
        try startByRules(element)
    }

    /// Writes `element`'s start tag from the parse's bytes when the rules that matched it (none,
    /// or ones that rename it by its local name and remove attributes) let it: renamed, without
    /// the attributes removed, the rest as the document wrote them. `false`, with nothing
    /// written, when another rule matched or the writer cannot copy the tag so.
    @inline(__always)
    private func startCopied(_ element: ElementContext) throws -> Bool {
        if matched.isEmpty && everywhereRules.isEmpty {
            try writer.startElement(copying: element)
            return true
        }
        // In the order the rules were added: the last rename names the element.
        var edit = CopyEdit()
        let pairs = element.attributePairsInHandler
        for index in matched where !note(rule: index, attributes: pairs, in: &edit) { return false }
        for index in everywhereRules where !note(rule: index, attributes: pairs, in: &edit) { return false }
        guard edit.renamedBy >= 0 || edit.leftOut != 0 else {
            try writer.startElement(copying: element)
            return true
        }
        let localName: String? =
            switch edit.renamedBy >= 0 ? renames[edit.renamedBy] : nil {
            case .localName(let local)?, .asWritten(let local)?: local
            default: nil
            }
        return try writer.startElement(copying: element, localName: localName, leavingOut: edit.leftOut)
    }

    /// What the rules that matched a start tag do to it while it is written from the parse's
    /// bytes (``startCopied(_:)``): nothing counted, so that noting it costs no reference.
    private struct CopyEdit {
        /// The last rename rule noted, by the order the rules were added; -1 for none.
        var renamedBy = -1
        /// The attributes to leave out, by their place among those reported (bit 0 the first).
        var leftOut: UInt64 = 0
    }

    /// Notes in `edit` what rule `index` does to a start tag written from the parse's bytes,
    /// whose attributes expat reports as `pairs`: the rename it makes, if it is added after
    /// the one noted, or the attributes it removes. `false` for a rule that does something
    /// else, or removes one of the attributes past the 64th.
    @inline(__always)
    private func note(rule index: Int, attributes pairs: UnsafePointer<UnsafePointer<CChar>?>?, in edit: inout CopyEdit) -> Bool {
        if let selector = removals[index] {
            guard let pairs else { return true }
            guard let leftOut = selector.selection(inReported: pairs) else { return false }
            edit.leftOut |= leftOut
            return true
        }
        switch renames[index] {
        case .localName?, .asWritten?:
            if index > edit.renamedBy { edit.renamedBy = index }
            return true
        default:
            return false
        }
    }

    /// A start tag the rules that matched do more to than ``startCopied(_:)`` writes, or one
    /// it could not copy: each rule applied, in the order added.
    @inline(never)
    private func startByRules(_ element: ElementContext) throws {
        // Handlers run by specificity; rules apply in the order they were added.
        if !everywhereRules.isEmpty { matched += everywhereRules }
        if matched.count > 1 { matched.sort() }
        // Emptied when the start tag is handled; nothing below adds to it.
        defer { matched.removeAll(keepingCapacity: true) }
        let rulesMatched = matched
        try endTextRun()
        let parent = parentOutput
        switch parent {
        case .suppressed?, .replaced?:
            frames.append(Frame(output: .suppressed))
            return
        default: break
        }
        // Selected: inside a kept element, or every element without keep rules.
        let insideSelection: Bool =
            switch parent {
            case .written(let selected)?: selected
            case nil: !selects
            default: false
            }
        // What is written at all first: a drop wins; keep rules select. Only then do the
        // other rules run, in the order added, on an element that is written.
        var selected = insideSelection
        var heldBy: (rule: Int, condition: (HeldElement) throws -> Bool)?
        for index in rulesMatched {
            switch rules[index].action {
            case .drop:
                element.skipSubtree()
                frames.append(Frame(output: .suppressed))
                return
            case .keep:
                selected = true
            case .keepIf(let condition) where !insideSelection && heldBy == nil:
                selected = true
                heldBy = (index, condition)
            default: break
            }
        }
        // The root is written whatever keep rules select; what it holds is theirs.
        guard selected || parent == nil else {
            frames.append(Frame(output: .passedOver))
            return
        }
        var edit: ElementEdit?
        var textEdits: [Int] = []
        for index in rulesMatched {
            switch rules[index].action {
            case .drop, .keep, .keepIf:
                break
            case .replace:
                frames.append(Frame(output: .replaced(rule: index)))
                return
            case .dropIf(let condition) where heldBy == nil:
                heldBy = (index, condition)
            case .dropIf:
                break
            case .rename:
                if edit == nil { edit = ElementEdit(element) }
                renames[index]?.apply(to: &edit!)
            case .removeAttribute:
                // Most elements have none of the attributes to remove: they stay copied as they are.
                guard let selector = removals[index], element.attributesReadInHandler.contains(where: selector.selects) else {
                    break
                }
                if edit == nil { edit = ElementEdit(element) }
                edit!.attributes.removeAll { selector.selects($0) }
            case .edit(let body):
                if edit == nil { edit = ElementEdit(element) }
                try body(element, &edit!)
                if edit!.isDropped {
                    element.skipSubtree()
                    frames.append(Frame(output: .suppressed))
                    return
                }
            case .editText:
                textEdits.append(index)
            }
        }
        var frame = Frame(output: .written(selected: selected))
        if !textEdits.isEmpty || heldBy != nil {
            let extras = Extras()
            extras.textEdits = textEdits
            if !textEdits.isEmpty { extras.context = element }
            frame.extras = extras
        }
        if let heldBy {
            let attributes = Dictionary(
                element.attributesReadInHandler.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            let hold = writer.beginHold()
            frame.extras?.hold = Hold(writerHold: hold, rule: heldBy.rule, element: HeldElement(name: element.name, attributes: attributes))
            if outermostHold == nil { outermostHold = (hold, element.name, element.depth) }
        }
        if let edit {
            try writer.startElement(edit, processesNamespaces: processesNamespaces)
        } else {
            try writer.startElement(copying: element)
        }
        frames.append(frame)
        try checkHeldSize(element)
    }

    private func end(_ element: ElementContext) throws {
        guard !frames.isEmpty else { return }
        let frame = frames.removeLast()
        guard case .written = frame.output else { return }
        if !frame.textEdits.isEmpty { try endTextRun(of: frame) }
        try writer.endElement()
        if let hold = frame.hold {
            let keeps: Bool
            switch rules[hold.rule].action {
            case .keepIf(let condition): keeps = try condition(hold.element)
            case .dropIf(let condition): keeps = try !condition(hold.element)
            default: keeps = true
            }
            if outermostHold?.depth == element.depth { outermostHold = nil }
            try writer.endHold(hold.writerHold, keeps: keeps)
        }
    }

    /// A replaced element ended: what rule `rule` writes goes in its place, unless the
    /// element lies inside another that is not written.
    private func replacementEnd(rule: Int, _ element: ElementContext, _ text: String) throws {
        guard case .replaced(let replacing)? = parentOutput, replacing == rule, element.depth == frames.count else {
            return
        }
        guard case .replace(_, let body) = rules[rule].action else { return }
        try body(element, text, writer)
        try checkHeldSize(element)
    }

    /// A child of a held element ended: its text, for the condition.
    private func childEnded(_ element: ElementContext, _ text: String) {
        let parentIndex = frames.count - 2
        guard parentIndex >= 0, frames[parentIndex].hold != nil, element.depth == frames.count else { return }
        frames[parentIndex].extras?.hold?.element.addChild(name: element.name, localName: element.localName, text: text)
    }

    // MARK: Text and markup

    private func text(_ element: ElementContext, _ chunk: TextChunk) throws {
        guard case .written(true)? = parentOutput else { return }
        if frames.last.extras?.textEdits.isEmpty ?? true {
            try chunk.withUnsafeBytes { try writer.text($0, isFromParse: true) }
        } else {
            chunk.withUnsafeBytes { textRun.append(contentsOf: $0) }
            let limit = element.engine.limits.maximumTextBytes
            if textRun.count > limit {
                throw element.engine.limitError(
                    .textLimitExceeded, "a run of text of <\(element.name)> edited by a transform is over \(limit) bytes",
                    limit: limit, depth: element.depth)
            }
        }
        try checkHeldSize(element)
    }

    /// Writes the text run of the innermost element, edited, before markup that ends it.
    private func endTextRun() throws {
        if !textRun.isEmpty, !frames.isEmpty { try endTextRun(of: frames.last) }
    }

    /// Writes the text run of `frame`'s element, edited by its rules in order.
    private func endTextRun(of frame: Frame) throws {
        guard !textRun.isEmpty, let element = frame.context else { return }
        var text = String(decoding: textRun, as: UTF8.self)
        textRun.removeAll(keepingCapacity: true)
        for index in frame.textEdits {
            guard case .editText(let body) = rules[index].action else { continue }
            text = try body(element, text)
        }
        try writer.text(text)
    }

    /// Whether a comment or processing instruction here is written: in the prolog and
    /// after the root, and inside selected elements. Ends the text run it follows.
    private func writesMarkup() throws -> Bool {
        guard !frames.isEmpty else { return true }
        let frame = frames.last
        guard case .written(true) = frame.output else { return false }
        try endTextRun(of: frame)
        return true
    }

    /// Takes back what undecided elements hold, after the run ended early: an element whose
    /// condition was never decided is not output.
    func abandonHolds() {
        guard let outermost = outermostHold else { return }
        outermostHold = nil
        try? writer.endHold(outermost.hold, keeps: false)
    }

    /// Throws when the held elements hold more than ``maximumHeldBytes``.
    @inline(__always)
    private func checkHeldSize(_ element: ElementContext) throws {
        if _fastPath(outermostHold == nil) { return }
        try checkHeldSizeOfHold(element)
    }

    private func checkHeldSizeOfHold(_ element: ElementContext) throws {
        guard let outermost = outermostHold, writer.heldBytes(since: outermost.hold) > maximumHeldBytes else { return }
        let message = XMLParseError.recordSizeMessage(
            element: outermost.name, limit: maximumHeldBytes, contents: "output held until its condition is decided")
        throw element.engine.limitError(.recordSizeLimitExceeded, message, limit: maximumHeldBytes, depth: outermost.depth)
    }
}

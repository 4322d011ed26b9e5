/// The handler set that captures each element matching a pattern, with the children its
/// schema reads, into a ``CapturedSubtree``, and hands the subtree on when the element ends.
///
/// Matches inside a matched element are part of it and are not delivered on their own.
final class SubtreeCapture {
    private let subtree: CapturedSubtree
    private let rootSchema: () -> KeySchema?
    private let limit: Int
    private let whitespace: WhitespacePolicy
    private let deliver: (CapturedSubtree, ElementContext) throws -> Void
    /// The captured elements that are open, innermost last, with their depths.
    // Handlers run one at a time and never reach the capture re-entrantly, so accesses
    // cannot overlap: the runtime's exclusivity checks are left out of the per-element state.
    @exclusivity(unchecked) private var open: [(element: Int, depth: Int)] = []
    /// The parse the open elements belong to: a parse that ended inside a matched
    /// element leaves them behind for the next parse to drop.
    private var parse: ObjectIdentifier?

    /// - Parameters:
    ///   - rootSchema: The schema of the matched elements, asked at each one (it may learn
    ///     keys between records); `nil` captures everything.
    ///   - deliver: Receives the subtree at the matched element's end tag, with the element's context.
    init(
        subtree: CapturedSubtree, rootSchema: @escaping () -> KeySchema?, limit: Int, whitespace: WhitespacePolicy,
        deliver: @escaping (CapturedSubtree, ElementContext) throws -> Void
    ) {
        self.subtree = subtree
        self.rootSchema = rootSchema
        self.limit = limit
        self.whitespace = whitespace
        self.deliver = deliver
    }

    /// The handlers, to mount at the pattern.
    func handlers() -> Dispatcher {
        var set = Dispatcher()
        set.onStart(.mountPoint) { [self] element in try begin(element) }
        set.onAnyStart { [self] element in try openChild(element) }
        set.onAnyEnd(whitespace: whitespace) { [self] element, text in try close(element, text) }
        set.onEnd(.mountPoint, whitespace: whitespace) { [self] element, text in try end(element, text) }
        return set
    }

    private func begin(_ element: ElementContext) throws {
        let current = ObjectIdentifier(element.engine)
        if parse != current {
            parse = current
            open.removeAll()
        }
        guard open.isEmpty else { return try openChild(element) }
        subtree.removeAll()
        let position = element.engine.position(depth: element.depth, serial: element.serial)
        let root = subtree.append(
            name: element.name, attributes: element.attributes, parent: -1, schema: rootSchema(),
            line: position.line, column: position.column)
        open.append((root, element.depth))
        try checkLimit(element)
    }

    private func openChild(_ element: ElementContext) throws {
        guard let parent = open.last, element.depth == parent.depth + 1 else { return }
        var schema: KeySchema?
        if let parentSchema = subtree.elements[parent.element].schema {
            switch parentSchema.capture(ofChild: element.name) {
            case .skipped: return element.skipSubtree()
            case .everything: schema = nil
            case .pruned(let childSchema): schema = childSchema
            }
        }
        let position = element.engine.position(depth: element.depth, serial: element.serial)
        let child = subtree.append(
            name: element.name, attributes: element.attributes, parent: parent.element, schema: schema,
            line: position.line, column: position.column)
        open.append((child, element.depth))
        try checkLimit(element)
    }

    private func close(_ element: ElementContext, _ text: String) throws {
        guard let innermost = open.last, innermost.depth == element.depth else { return }
        open.removeLast()
        subtree.setText(text, of: innermost.element)
        try checkLimit(element)
    }

    private func end(_ element: ElementContext, _ text: String) throws {
        if open.count > 1 { return try close(element, text) }
        guard let root = open.popLast() else { return }
        subtree.setText(text, of: root.element)
        try checkLimit(element)
        try deliver(subtree, element)
    }

    private func checkLimit(_ element: ElementContext) throws {
        guard subtree.byteCount > limit, let root = subtree.elements.first else { return }
        open.removeAll()
        throw RecordSizeLimitError(
            elementName: root.name, line: root.line, column: root.column, limit: limit, source: subtree.source)
    }
}

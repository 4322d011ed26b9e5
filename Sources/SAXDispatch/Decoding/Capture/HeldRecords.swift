/// Matched elements that ended and were captured, waiting to be decoded and handed to
/// their handlers in a row: the decoder's holder of deferred deliveries (``DeferredDelivery``).
///
/// Decoding a record runs a lot of code (Codable witnesses, runtime metadata lookups,
/// allocation) that has nothing in common with expat's tokenizer. Alternating the two
/// for every small record evicts both from the instruction cache; decoding a few dozen
/// records in a row keeps each warm. Records are held only when the parse allows it
/// (``DeferredDelivery/isAllowed``: captures like these are the dispatcher's only
/// handlers), so no other handler can observe the delay; the engine has them delivered in
/// document order before the parse call returns and before any error, and the captures
/// have them delivered whenever ``isFull``.
///
/// One per parse, shared by every capture of the parse (``registered(in:)``), so that the
/// records of different patterns keep their document order.
final class HeldRecords: DeferredDelivery.Holder {
    struct Item {
        /// The capture that holds the record's subtree and delivers it, unretained: the
        /// engine's route table keeps it alive (its handlers hold it) for the parse, and
        /// held records are delivered before the parse call returns.
        let capture: Unmanaged<SubtreeCapture>
        /// The record's root in the capture's subtree.
        let root: Int
        /// Where the record's start tag is, for a handler error.
        let line: Int
        let column: Int
        let byteOffset: Int
        /// The record's element path: `pathCount` name ids from `pathStart` in ``pathNames``.
        let pathStart: Int
        let pathCount: Int
    }

    /// How many records are held at most.
    static let maximumCount = 64
    /// How many bytes of captured content are held at most (as ``CapturedSubtree/byteCount``
    /// counts them), so that large records are not held in numbers.
    static let maximumBytes = 256 * 1024

    /// The parse's names, for the held records' paths.
    private let names: NameTable
    // Written at each record's end tag and read when the records are delivered, by the
    // thread running the parse, one step at a time: a handler that runs during a delivery
    // cannot reach the parse's events, so accesses cannot overlap and the runtime's
    // exclusivity checks are left out.
    @exclusivity(unchecked) private var items: [Item] = []
    /// The element paths of the held records, as name ids, one after another.
    @exclusivity(unchecked) private var pathNames: [Int32] = []
    /// The captured bytes of the held records.
    @exclusivity(unchecked) private var byteCount = 0

    private init(names: NameTable) {
        self.names = names
    }

    /// The parse's held records, registered with `engine` the first time a capture holds one.
    static func registered(in engine: DispatchEngine) -> HeldRecords {
        if let held = engine.deferredDelivery.holder as? HeldRecords { return held }
        let held = HeldRecords(names: engine.names)
        engine.registerDeferredDelivery(held)
        return held
    }

    var isFull: Bool { items.count >= Self.maximumCount || byteCount >= Self.maximumBytes }

    /// Holds a record of `bytes` captured bytes whose start tag is at `position` and whose
    /// path is the first `depth` names of `stack`.
    func append(
        capture: SubtreeCapture, root: Int, bytes: Int, position: (line: Int, column: Int, byteOffset: Int),
        stack: borrowing ElementStack, depth: Int
    ) {
        let start = pathNames.count
        for level in 0..<depth { pathNames.append(stack[level].name) }
        items.append(
            Item(
                capture: .passUnretained(capture), root: root, line: position.line, column: position.column,
                byteOffset: position.byteOffset, pathStart: start, pathCount: depth))
        byteCount += bytes
    }

    func deliverAll(in engine: DispatchEngine) -> HandlerError? {
        guard !items.isEmpty else { return nil }
        var failure: HandlerError?
        for item in items where failure == nil && engine.acceptsDeferredDeliveries {
            do {
                try item.capture._withUnsafeGuaranteedRef { try $0.deliver(item.root, heldBy: self) }
            } catch {
                failure = HandlerError(
                    underlying: error, event: .end, elementPath: path(of: item), line: item.line, column: item.column,
                    byteOffset: max(0, item.byteOffset))
            }
        }
        for item in items { item.capture._withUnsafeGuaranteedRef { $0.releaseHeld() } }
        items.removeAll(keepingCapacity: true)
        pathNames.removeAll(keepingCapacity: true)
        byteCount = 0
        return failure
    }

    /// The element path of the held record at `root` of `capture`, while it is held.
    func path(ofRoot root: Int, in capture: SubtreeCapture) -> ElementPath? {
        let reference = Unmanaged.passUnretained(capture).toOpaque()
        guard let item = items.first(where: { $0.capture.toOpaque() == reference && $0.root == root }) else { return nil }
        return path(of: item)
    }

    private func path(of item: Item) -> ElementPath {
        ElementPath(pathNames[item.pathStart..<(item.pathStart + item.pathCount)].map { names.string($0) })
    }
}

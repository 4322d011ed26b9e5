/// Matched elements that ended and were captured, waiting to be decoded and handed to
/// their handlers in a row.
///
/// Decoding a record runs a lot of code (Codable witnesses, runtime metadata lookups,
/// allocation) that has nothing in common with expat's tokenizer. Alternating the two
/// for every small record evicts both from the instruction cache; decoding a few dozen
/// records in a row keeps each warm. The engine holds records only when their
/// deliveries are the dispatcher's only handlers (see ``Dispatcher/hasOnlyRecordCaptures``),
/// so no other handler can observe the delay, and it hands them over in document order
/// before the parse call returns, before any error, and whenever ``isFull``.
struct HeldRecords {
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

    private(set) var items: [Item] = []
    /// The element paths of the held records, as name ids, one after another.
    private(set) var pathNames: [Int32] = []
    /// The captured bytes of the held records.
    private var byteCount = 0

    var isEmpty: Bool { items.isEmpty }
    var isFull: Bool { items.count >= Self.maximumCount || byteCount >= Self.maximumBytes }

    /// Holds a record whose start tag is at `position` and whose path is the first
    /// `depth` names of `stack`.
    mutating func append(
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

    /// The name ids of a held record's path.
    func pathNames(of item: Item) -> ArraySlice<Int32> {
        pathNames[item.pathStart..<(item.pathStart + item.pathCount)]
    }

    mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
        pathNames.removeAll(keepingCapacity: true)
        byteCount = 0
    }
}

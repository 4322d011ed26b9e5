/// What pattern matching found for each distinct path of element names, so that an
/// element on a path seen before is not matched against its ancestors again.
///
/// A pattern without attribute tests matches an element by the names of the element
/// and its ancestors alone. Every distinct path gets a number the first time an element
/// on it starts (its parent path's number and its own name id lead to it, one hash
/// probe), and the patterns the first such element matched are kept under that number
/// for the others. Documents repeat a few paths many times (`/osm/node/tag`), so most
/// elements cost a probe and a copy of their matches instead of a match per candidate.
///
/// Patterns that test attributes of their last step only (`tag[@k='highway']`) are
/// decided by the names and by which tests held on the element itself: their matches are
/// kept under the number of the path extended by one more step, a negative "name" that
/// encodes the tests' results.
///
/// The verdict on a pruning request (``SubtreePruning``), which also depends on names
/// alone, is kept per path the same way, and so is whether the request itself is made
/// alike on the whole path (``RouteFlags/prunedOnArrival``).
///
/// Memory is bounded: after ``maximumPaths`` distinct paths, new paths get no number
/// (nor do the paths below them), and their elements are matched every time.
struct PathMatchCache: ~Copyable {
    /// The number of a path the cache does not track.
    static let untracked: Int32 = -1
    /// The number of the empty path above the root element.
    static let document: Int32 = 0

    let maximumPaths: Int32

    /// Open addressing from `(parent path, name id)` to a path number; `-1` marks a free slot.
    private var keys: UnsafeMutablePointer<UInt64>
    private var numbers: UnsafeMutablePointer<Int32>
    private var mask: Int
    private var pathCount: Int32 = 1

    /// What the first element on a path matched: where its entries start in
    /// `matchedEntries` (`-1` before it was matched), how many there are, and their flags combined.
    private struct Matches {
        var start: Int32 = -1
        var count: Int32 = 0
        var flags: RouteFlags = []
        /// The verdict on a pruning request for an element on the path, once one was decided.
        var pruning: SubtreePruning.Verdict?
        /// With a watching verdict, the key the pruned subtree is watched for.
        var watchedName: Int32 = -1
        /// Whether the content of an element on the path passed through from a grandchild
        /// (``markPassesThroughFromFirstChild(_:)``).
        var passesThroughFromFirstChild = false
    }
    /// Per path number.
    private var results = [Matches()]
    private var matchedEntries: [Int32] = []

    init(maximumPaths: Int32 = 4096) {
        self.maximumPaths = max(1, maximumPaths)
        let capacity = 64
        mask = capacity - 1
        keys = .allocate(capacity: capacity)
        numbers = .allocate(capacity: capacity)
        numbers.initialize(repeating: -1, count: capacity)
    }

    deinit {
        keys.deallocate()
        numbers.deallocate()
    }

    /// The number of the path of an element named `name` under the path numbered
    /// `parent`, numbering it if it is new and there is room; ``untracked`` otherwise.
    @inline(__always)
    mutating func path(parent: Int32, name: Int32) -> Int32 {
        guard parent >= 0 else { return Self.untracked }
        let key = UInt64(UInt32(bitPattern: parent)) << 32 | UInt64(UInt32(bitPattern: name))
        var slot = Self.slot(of: key, mask: mask)
        while true {
            let number = numbers[slot]
            if number < 0 { return add(key, at: slot) }
            if keys[slot] == key { return number }
            slot = (slot + 1) & mask
        }
    }

    /// Pushes the entries kept for a path onto `stack` and returns their flags, if an
    /// element on the path was matched before; returns `nil` and pushes nothing otherwise.
    @inline(__always)
    func pushMatches(of path: Int32, onto stack: inout MatchStack) -> RouteFlags? {
        guard path >= 0 else { return nil }
        let kept = results[Int(path)]
        guard kept.start >= 0 else { return nil }
        for index in Int(kept.start)..<Int(kept.start + kept.count) { stack.push(matchedEntries[index]) }
        return kept.flags
    }

    /// Keeps what matching found for the first element on a tracked path.
    mutating func remember(_ path: Int32, flags: RouteFlags, entries: UnsafeBufferPointer<Int32>) {
        guard path >= 0, results[Int(path)].start < 0 else { return }
        results[Int(path)].start = Int32(matchedEntries.count)
        results[Int(path)].count = Int32(entries.count)
        results[Int(path)].flags = flags
        matchedEntries.append(contentsOf: entries)
    }

    /// Whether the next element on a tracked path lets its content pass through from its
    /// first child where no match can begin: the content of an element on it passed
    /// through before, from a grandchild (`DispatchEngine+PassingThrough`).
    @inline(__always)
    func passesThroughFromFirstChild(_ path: Int32) -> Bool {
        path >= 0 && results[Int(path)].passesThroughFromFirstChild
    }

    /// Marks a tracked path whose element's content passed through from a grandchild.
    mutating func markPassesThroughFromFirstChild(_ path: Int32) {
        guard path >= 0 else { return }
        results[Int(path)].passesThroughFromFirstChild = true
    }

    /// The verdict on a pruning request for an element on a tracked path, if one was
    /// decided there before.
    @inline(__always)
    func pruningVerdict(of path: Int32) -> (SubtreePruning.Verdict, watchedName: Int32)? {
        guard path >= 0 else { return nil }
        let kept = results[Int(path)]
        guard let verdict = kept.pruning else { return nil }
        return (verdict, kept.watchedName)
    }

    /// Keeps the verdict on a pruning request for an element on a tracked path, and the
    /// key its subtree is watched for.
    mutating func rememberPruningVerdict(_ verdict: SubtreePruning.Verdict, watchedName: Int32, of path: Int32) {
        guard path >= 0 else { return }
        results[Int(path)].pruning = verdict
        results[Int(path)].watchedName = watchedName
    }

    /// Marks a tracked path whose elements are pruned without calling the handler that
    /// asked (``RouteFlags/prunedOnArrival``): its kept flags carry the mark, so that an
    /// element on it learns so with its matches. Only for a path whose matches are kept.
    mutating func markPrunedOnArrival(_ path: Int32) {
        guard path >= 0, results[Int(path)].start >= 0 else { return }
        results[Int(path)].flags.insert(.prunedOnArrival)
    }

    @inline(__always)
    private static func slot(of key: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    private mutating func add(_ key: UInt64, at slot: Int) -> Int32 {
        guard pathCount < maximumPaths else { return Self.untracked }
        let number = pathCount
        pathCount += 1
        keys[slot] = key
        numbers[slot] = number
        results.append(Matches())
        // At most half full, so that probes stay short.
        if Int(pathCount) * 2 > mask + 1 { grow() }
        return number
    }

    private mutating func grow() {
        let oldCapacity = mask + 1
        let oldKeys = keys
        let oldNumbers = numbers
        let capacity = oldCapacity * 2
        mask = capacity - 1
        keys = .allocate(capacity: capacity)
        numbers = .allocate(capacity: capacity)
        numbers.initialize(repeating: -1, count: capacity)
        for old in 0..<oldCapacity where oldNumbers[old] >= 0 {
            var slot = Self.slot(of: oldKeys[old], mask: mask)
            while numbers[slot] >= 0 { slot = (slot + 1) & mask }
            keys[slot] = oldKeys[old]
            numbers[slot] = oldNumbers[old]
        }
        oldKeys.deallocate()
        oldNumbers.deallocate()
    }
}

/// The patterns matched by each open element whose name alone does not decide them,
/// as route-table entries back to back; an element's frame records its range.
///
/// Grows to the deepest nesting of such elements and then costs no allocation.
struct MatchStack: ~Copyable {
    private var entries: UnsafeMutablePointer<Int32>
    private var capacity = 64
    private(set) var count = 0

    init() {
        entries = .allocate(capacity: capacity)
    }

    deinit { entries.deallocate() }

    @inline(__always)
    mutating func push(_ entry: Int32) {
        if count == capacity { grow() }
        entries[count] = entry
        count += 1
    }

    @inline(__always)
    mutating func truncate(to newCount: Int) {
        count = newCount
    }

    /// The entries from `start`, `length` of them; valid until the next push.
    @inline(__always)
    func entries(from start: Int32, count length: Int32) -> UnsafeBufferPointer<Int32> {
        UnsafeBufferPointer(start: entries + Int(start), count: Int(length))
    }

    private mutating func grow() {
        let bigger = UnsafeMutablePointer<Int32>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = bigger
        capacity *= 2
    }
}

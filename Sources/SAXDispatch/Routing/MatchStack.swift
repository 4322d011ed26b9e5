/// The patterns matched by each open element whose name alone does not decide them,
/// as route-table entries back to back; an element's frame records its range.
///
/// Grows to the deepest nesting of such elements and then costs no allocation.
struct MatchStack: ~Copyable {
    private var entries = GrowableBuffer<Int32>(capacity: 64)

    var count: Int { entries.count }

    @inline(__always)
    mutating func push(_ entry: Int32) {
        entries.append(entry)
    }

    @inline(__always)
    mutating func truncate(to newCount: Int) {
        entries.truncate(to: newCount)
    }

    /// The entries from `start`, `length` of them; valid until the next push.
    @inline(__always)
    func entries(from start: Int32, count length: Int32) -> UnsafeBufferPointer<Int32> {
        entries.elements(from: Int(start), count: Int(length))
    }
}

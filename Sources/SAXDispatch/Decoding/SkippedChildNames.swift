/// The children a ``KeySchema`` leaves out (``ChildCapture/skipped``), by the id the
/// parse's name table interned their name under: ``SubtreeCapture`` asks here first, so a
/// child that no key reads costs no name string, no lookup by name and no reference count.
///
/// An id stands for a name (as written, with its namespace URI) only within one
/// ``NameEpoch``: the ids of one parse's table, within one document of a concatenated
/// input (whose next document interns its names anew). Entries of another epoch are
/// never read, and the schema empties its entries whenever it learns a name or starts
/// capturing more, so every answer here is the one the lookup by name would give.
struct SkippedChildNames {
    /// Per name id, whether children of that name are left out.
    private var isSkipped: [Bool] = []
    /// The epoch the entries belong to.
    private var epoch = NameEpoch.none
    /// Names with larger ids are looked up by name each time: memory stays bounded
    /// however many names a document has.
    static let maximumID = 4096

    /// Whether children named by `id` are known to be left out, in `epoch`.
    @inline(__always)
    func contains(_ id: Int32, in epoch: NameEpoch) -> Bool {
        let index = Int(id)
        return epoch == self.epoch && index < isSkipped.count && isSkipped[index]
    }

    /// Notes that children named by `id` are left out, in `epoch`.
    mutating func insert(_ id: Int32, in epoch: NameEpoch) {
        let index = Int(id)
        guard index >= 0, index < Self.maximumID, epoch != .none else { return }
        if epoch != self.epoch {
            isSkipped.removeAll(keepingCapacity: true)
            self.epoch = epoch
        }
        if index >= isSkipped.count { isSkipped.append(contentsOf: repeatElement(false, count: index + 1 - isSkipped.count)) }
        isSkipped[index] = true
    }

    /// Forgets every entry: the schema reads more than when they were noted.
    mutating func removeAll() {
        isSkipped.removeAll(keepingCapacity: true)
    }
}

/// The span within which a name id stands for one name: one parse's name table, one
/// document of its input. A ``SubtreeCapture`` starts a new one when it meets a new
/// parse or a new document; its schema's ``SkippedChildNames`` keep entries of the
/// current one only.
///
/// What must stay true: epochs are counted per capture, so a schema is read by one
/// capture only (its ``DecodingSession``'s), or two captures' epochs could meet.
struct NameEpoch: Equatable {
    private(set) var value: UInt64

    /// Before any parse: no entry belongs to it.
    static let none = NameEpoch(value: 0)

    /// The epoch after this one.
    var next: NameEpoch { NameEpoch(value: value &+ 1 == 0 ? 1 : value &+ 1) }
}

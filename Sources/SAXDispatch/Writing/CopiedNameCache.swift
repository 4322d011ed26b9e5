/// What a writer learned of the element names of the parse it copies start tags from
/// (``XMLWriter/startElement(copying:)``), by name id: the name as written, and the
/// ``NamespaceScope/generation`` at which the writer's scope was found to bind its prefix to
/// its namespace. A start tag of a name seen before, with no attribute or declaration, is
/// then written from what is kept here, without reading its name again.
///
/// What must stay true: an entry describes the name its id has in ``names`` now — the
/// cache forgets everything when the table changes or drops names (``NameTable/drops``).
struct CopiedNameCache: ~Copyable {
    /// The scope generations an entry is checked against: an unprefixed name's binding
    /// changes only with the default namespace's. Without namespace processing, one that
    /// never changes: a name copies as it is when it has no colon.
    struct Generations {
        var all: UInt64
        var defaultNamespace: UInt64

        static let withoutNamespaces = Generations(all: .max, defaultNamespace: .max)
    }

    struct Entry {
        /// The scope generation at which the name was found to copy as it is; 0: never.
        var generation: UInt64
        /// Where the name as written lies in ``written`` (`count` 0: not kept).
        var start: Int32
        var count: Int32
        /// Whether ``generation`` is the default namespace's (an unprefixed name).
        var isUnprefixed: Bool
    }

    private var entries = GrowableBuffer<Entry>(capacity: 64)
    private var written = TextBuffer(capacity: 1024)
    private var names: NameTable?
    private var drops = 0

    /// Whether a start tag of name `id` of `table` was found to copy as it is at the scope
    /// generations it has now.
    @inline(__always)
    func copiesAsItIs(_ id: Int32, of table: NameTable, at generations: Generations) -> Bool {
        guard names === table && drops == table.drops && Int(id) < entries.count else { return false }
        let entry = entries[Int(id)]
        return entry.generation == (entry.isUnprefixed ? generations.defaultNamespace : generations.all)
    }

    /// The name `id` of `table` as written, when a start tag of it was found to copy as it
    /// is at the scope generations it has now and its name was kept; valid until the cache
    /// changes.
    @inline(__always)
    func writtenName(_ id: Int32, of table: NameTable, at generations: Generations) -> UnsafeRawBufferPointer? {
        guard copiesAsItIs(id, of: table, at: generations) else { return nil }
        let entry = entries[Int(id)]
        guard entry.count > 0 else { return nil }
        return UnsafeRawBufferPointer(start: written.bytes(from: Int(entry.start)).baseAddress, count: Int(entry.count))
    }

    /// Notes that a start tag of name `id` of `table` copies as it is at the scope
    /// generations it has now — an unprefixed name's, when `isUnprefixed` says so (`nil`: as
    /// noted before) — and keeps its name as written when it is given.
    mutating func remember(
        _ id: Int32, of table: NameTable, at generations: Generations, isUnprefixed: Bool?, written name: String?
    ) {
        if names !== table || drops != table.drops {
            names = table
            drops = table.drops
            entries.truncate(to: 0)
            written.truncate(to: 0)
        }
        let index = Int(id)
        while entries.count <= index { entries.append(Entry(generation: 0, start: 0, count: 0, isUnprefixed: false)) }
        if let isUnprefixed { entries[index].isUnprefixed = isUnprefixed }
        entries[index].generation = entries[index].isUnprefixed ? generations.defaultNamespace : generations.all
        guard var name, entries[index].count == 0 else { return }
        let start = written.count
        name.withUTF8 { written.appendBytes(UnsafeRawBufferPointer($0)) }
        entries[index].start = Int32(truncatingIfNeeded: start)
        entries[index].count = Int32(truncatingIfNeeded: written.count - start)
    }
}

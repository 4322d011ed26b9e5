/// What a writer learned of the element names of the parse it copies start tags from
/// (``XMLWriter/startElement(copying:)``), by name id: the name as written, and the
/// ``NamespaceScope/generation`` at which the writer's scope was found to bind its prefix to
/// its namespace. A start tag of a name seen before, with no attribute or declaration, is
/// then written from what is kept here, without reading its name again.
///
/// What must stay true: an entry describes the name its id has in ``names`` now — the
/// cache forgets everything when the table changes or drops names (``NameTable/drops``).
struct CopiedNameCache: ~Copyable {
    struct Entry {
        /// The scope generation at which the name was found to copy as it is; 0: never.
        var generation: UInt64
        /// Where the name as written lies in ``written`` (`count` 0: not kept).
        var start: Int32
        var count: Int32
    }

    private var entries = GrowableBuffer<Entry>(capacity: 64)
    private var written = TextBuffer(capacity: 1024)
    private var names: NameTable?
    private var drops = 0

    /// Whether a start tag of name `id` of `table` was found to copy as it is at scope
    /// generation `generation`.
    @inline(__always)
    func copiesAsItIs(_ id: Int32, of table: NameTable, at generation: UInt64) -> Bool {
        names === table && drops == table.drops && Int(id) < entries.count && entries[Int(id)].generation == generation
    }

    /// The name `id` of `table` as written, when a start tag of it was found to copy as it
    /// is at scope generation `generation` and its name was kept; valid until the cache changes.
    @inline(__always)
    func writtenName(_ id: Int32, of table: NameTable, at generation: UInt64) -> UnsafeRawBufferPointer? {
        guard copiesAsItIs(id, of: table, at: generation) else { return nil }
        let entry = entries[Int(id)]
        guard entry.count > 0 else { return nil }
        return UnsafeRawBufferPointer(start: written.bytes(from: Int(entry.start)).baseAddress, count: Int(entry.count))
    }

    /// Notes that a start tag of name `id` of `table` copies as it is at scope generation
    /// `generation`, and keeps its name as written when it is given.
    mutating func remember(_ id: Int32, of table: NameTable, at generation: UInt64, written name: String?) {
        if names !== table || drops != table.drops {
            names = table
            drops = table.drops
            entries.truncate(to: 0)
            written.truncate(to: 0)
        }
        let index = Int(id)
        while entries.count <= index { entries.append(Entry(generation: 0, start: 0, count: 0)) }
        entries[index].generation = generation
        guard var name, entries[index].count == 0 else { return }
        let start = written.count
        name.withUTF8 { written.appendBytes(UnsafeRawBufferPointer($0)) }
        entries[index].start = Int32(truncatingIfNeeded: start)
        entries[index].count = Int32(truncatingIfNeeded: written.count - start)
    }
}

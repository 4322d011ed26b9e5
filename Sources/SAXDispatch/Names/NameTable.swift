#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Interns element names: the bytes of a name become a small integer id once, and
/// a `String` is made for an id only the first time somebody asks for it.
///
/// Lookups hash the NUL-terminated bytes expat hands over and probe an open-addressing
/// table whose slots carry the hash and length, so a mismatch rarely touches the name
/// bytes and an event costs no allocation once its name has been seen.
///
/// A short name is hashed byte by byte (FNV-1a) in the same pass that finds its
/// terminator. A longer one (with namespace processing on, every name in a namespace:
/// `URI␁local` or `URI␁local␁prefix`) is measured with `strlen` and hashed from whole
/// words, and a name at the address where the last long one was is measured with `strlen`
/// at once: expat hands names in one namespace over at one address, so a namespaced name
/// costs about what a short one does instead of growing with its URI
/// (`NameTable+Hashing.swift`).
///
/// The first hash reads a long name's length, first 8 and last 16 bytes only
/// (``HashMode/sampled``), which tells apart the names of ordinary documents in constant
/// time. Names that differ only in between (namespace URIs that differ by a number in
/// their middle, each with the same local names) share that hash, and each would probe
/// past all the others: a probe longer than ``maximumProbe`` slots switches the table to a
/// hash of every word (``HashMode/whole``), a few instructions more per long name, and
/// rehashes every name.
/// Neither has a secret, so a document can be made of distinct names that share a hash
/// even so: a long probe then switches the table to the standard library's hasher, seeded
/// at random per process (``HashMode/seeded``). Each switch happens at most once a parse.
///
/// The names interned before a parse (the patterns' names, ``keepAsBase()``) stay for the
/// whole parse; those a document brings can be dropped at its end (``dropNamesAfterBase()``),
/// so that documents one after another in one input each start from that base and the
/// table does not grow with their number. Ids below the base keep their meaning; ids from
/// it on are given again to the next document's names.
final class NameTable {
    private struct Slot {
        var hash: UInt32
        var length: Int32
        var id: Int32  // -1: empty
        var start: Int  // offset of the name in the arena
    }

    /// How names are hashed, from the cheapest: each long probe moves the table one step on.
    enum HashMode {
        /// A long name's first 8 and last 16 bytes and its length.
        case sampled
        /// Every byte of the name.
        case whole
        /// The standard library's hasher, seeded at random per process.
        case seeded
    }

    /// The longest probe before the table switches to the next ``HashMode``.
    static let maximumProbe = 48
    /// How names are hashed now (see the type's description).
    @exclusivity(unchecked) private(set) var hashMode = HashMode.sampled
    /// Whether names are hashed with the seeded hasher: the table met names made to collide.
    var isHardened: Bool { hashMode == .seeded }

    /// Where the last name longer than ``bytewisePrefix`` bytes was handed over: with
    /// namespace processing on, expat writes every name in one namespace into that
    /// binding's buffer, after its URI, so names in a namespace arrive at one address.
    /// Compared, never read through: whatever expat keeps there now (a binding freed and
    /// reused for another URI, a prefix rebound, a shorter name), a name found there is
    /// measured with `strlen` before any word of it is read, and hashed and compared whole.
    @exclusivity(unchecked) private var longNameAddress: UnsafePointer<CChar>?
    /// The first byte of the name at ``longNameAddress``. Names in one namespace start with
    /// its URI's; a short name that reuses the address of a long one (a sibling's name in
    /// the buffer expat keeps per depth, without namespaces) rarely does, and is measured
    /// as it is hashed instead of with `strlen` first.
    @exclusivity(unchecked) private var longNameFirstByte: CChar = 0

    @exclusivity(unchecked) private var slots: UnsafeMutableBufferPointer<Slot>
    @exclusivity(unchecked) private var mask: Int
    /// The bytes of every name, back to back.
    @exclusivity(unchecked) private var arena: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var arenaCount = 0
    @exclusivity(unchecked) private var arenaCapacity = 1024
    /// Per id: where its bytes are in the arena, and its `String` once made.
    @exclusivity(unchecked) private var ranges: [(start: Int, length: Int)] = []
    @exclusivity(unchecked) private var strings: [String?] = []
    /// Per id: its namespace URI, local name and prefix, once somebody asked.
    @exclusivity(unchecked) private var partsCache: [QualifiedName.Parts?] = []
    /// Per id: whether its name is in a namespace (expat's spelling has a separator).
    @exclusivity(unchecked) private var namespaced: [Bool] = []

    /// What the table holds at its base (``keepAsBase()``): the number of names, the bytes
    /// of their arena, and the sizes the table returns to when it drops the names after them.
    private struct Base {
        var count = 0
        var arenaCount = 0
        var arenaCapacity: Int
        var slotCount: Int
        /// The capacities of ``ranges``, ``strings``, ``namespaced`` and ``partsCache``.
        var capacities: (ranges: Int, strings: Int, namespaced: Int, parts: Int)
    }

    @exclusivity(unchecked) private var base: Base

    init(capacity: Int = 64) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = .allocate(capacity: size)
        slots.initialize(repeating: Slot(hash: 0, length: 0, id: -1, start: 0))
        mask = size - 1
        arena = .allocate(byteCount: arenaCapacity, alignment: 8)
        // The per-name arrays start with room for as many names as the slots are sized for,
        // so that a document of that many names does not reallocate them.
        ranges.reserveCapacity(capacity)
        strings.reserveCapacity(capacity)
        namespaced.reserveCapacity(capacity)
        base = Base(arenaCapacity: arenaCapacity, slotCount: size, capacities: (0, 0, 0, 0))
        keepAsBase()
    }

    deinit {
        slots.deallocate()
        arena.deallocate()
    }

    /// The number of distinct names interned so far.
    var count: Int { strings.count }

    /// The bytes the table holds (its slots, the names' bytes and the per-name arrays),
    /// which the parse's memory budget is charged for.
    ///
    /// A function of the names interned and nothing else: the per-name arrays count as
    /// if their capacity were the power of two their count reached, not the capacity they
    /// report, which follows what `malloc` gave them and so differs from thread to thread
    /// (each has an arena of its own). The same document then breaks the memory limit at
    /// the same place on any thread, as one parse of it and as a parse that reads it again.
    var heldBytes: Int {
        func accounted(_ count: Int) -> Int { max(16, 1 << (Int.bitWidth - max(0, count - 1).leadingZeroBitCount)) }
        return (mask + 1) * MemoryLayout<Slot>.stride + arenaCapacity
            + accounted(ranges.count) * MemoryLayout<(start: Int, length: Int)>.stride
            + accounted(strings.count) * MemoryLayout<String?>.stride
            + accounted(partsCache.count) * MemoryLayout<QualifiedName.Parts?>.stride
            + accounted(namespaced.count) * MemoryLayout<Bool>.stride
    }

    /// The number of names at the base, which ``dropNamesAfterBase()`` keeps.
    var baseCount: Int { base.count }

    /// How many times ``dropNamesAfterBase()`` dropped names: an id above the base stands for
    /// the same name only while this stays the same.
    private(set) var drops = 0

    /// Makes the names interned so far the base: they stay whatever is dropped later.
    func keepAsBase() {
        base.count = strings.count
        base.arenaCount = arenaCount
        base.arenaCapacity = arenaCapacity
        base.slotCount = mask + 1
        base.capacities = (ranges.capacity, strings.capacity, namespaced.capacity, partsCache.capacity)
    }

    /// Drops every name interned after the base, and gives back the memory they took: the
    /// table holds again what it held at ``keepAsBase()`` (``heldBytes`` included). Their
    /// ids will be given to new names, so nothing may keep one.
    func dropNamesAfterBase() {
        let count = base.count
        guard strings.count > count else { return }
        drops += 1
        Self.truncate(&ranges, to: count, capacity: base.capacities.ranges)
        Self.truncate(&strings, to: count, capacity: base.capacities.strings)
        Self.truncate(&namespaced, to: count, capacity: base.capacities.namespaced)
        Self.truncate(&partsCache, to: min(count, partsCache.count), capacity: base.capacities.parts)
        if arenaCapacity > base.arenaCapacity {
            let smaller = UnsafeMutableRawPointer.allocate(byteCount: base.arenaCapacity, alignment: 8)
            smaller.copyMemory(from: arena, byteCount: base.arenaCount)
            arena.deallocate()
            arena = smaller
            arenaCapacity = base.arenaCapacity
        }
        arenaCount = base.arenaCount
        if mask + 1 != base.slotCount {
            slots.deallocate()
            slots = .allocate(capacity: base.slotCount)
            slots.initialize(repeating: Slot(hash: 0, length: 0, id: -1, start: 0))
            mask = base.slotCount - 1
        }
        rehash()
    }

    /// Cuts `array` to its first `count` elements, with no more room than `capacity` (or
    /// `count`) elements if it had more.
    private static func truncate<Element>(_ array: inout [Element], to count: Int, capacity: Int) {
        guard array.capacity > max(capacity, count) else {
            array.removeSubrange(count...)
            return
        }
        var smaller: [Element] = []
        smaller.reserveCapacity(max(capacity, count))
        smaller.append(contentsOf: array[..<count])
        array = smaller
    }

    /// The id of a NUL-terminated name, interning it if it is new.
    @inline(__always)
    func intern(_ name: UnsafePointer<CChar>) -> Int32 {
        guard _fastPath(hashMode == .sampled) else { return internHashingMore(name) }
        return intern(name, hashAndLength(name, wholeName: false))
    }

    /// ``intern(_:)`` once names are hashed whole or seeded: kept out of line, so that the
    /// sampled hash's path, every ordinary document's, stays short.
    @inline(never)
    private func internHashingMore(_ name: UnsafePointer<CChar>) -> Int32 {
        guard hashMode == .whole else { return intern(UTF8Text.bytes(cString: name)) }
        return intern(name, hashAndLength(name, wholeName: true))
    }

    /// The hash and length of a NUL-terminated name. A name at the address of the last long
    /// one that starts with the same byte (``longNameAddress``, ``longNameFirstByte``) is
    /// measured with `strlen` first, with no bytewise pass; any other is measured as it is
    /// hashed, and marks its address if it is long. Either way the hash is the same function
    /// of the bytes: the address and the first byte choose the order of work only.
    @inline(__always)
    private func hashAndLength(_ name: UnsafePointer<CChar>, wholeName: Bool) -> (UInt32, Int) {
        // Reading the first byte is safe: a name has at least its terminator.
        if name == longNameAddress && name.pointee == longNameFirstByte {
            let measured = Self.hashAndLengthMeasuredFirst(name, wholeName: wholeName)
            if _slowPath(measured.1 <= Self.bytewisePrefix) { longNameAddress = nil }
            return measured
        }
        let measured = Self.hashAndLength(name, wholeName: wholeName)
        if measured.1 > Self.bytewisePrefix {
            longNameAddress = name
            longNameFirstByte = name.pointee
        }
        return measured
    }

    /// The id of a NUL-terminated name whose hash, in the table's mode, and length are
    /// known, interning it if it is new.
    @inline(__always)
    private func intern(_ name: UnsafePointer<CChar>, _ hashAndLength: (UInt32, Int)) -> Int32 {
        let (hash, length) = hashAndLength
        var index = Int(hash) & mask
        var probes = 0
        while true {
            let slot = slots[index]
            if slot.id < 0 { break }
            if slot.hash == hash && Int(slot.length) == length
                && Self.equal(arena + slot.start, UnsafeRawPointer(name), length)
            {
                return slot.id
            }
            index = (index + 1) & mask
            probes += 1
            if _slowPath(probes > Self.maximumProbe) {
                switchToNextHashMode()
                return intern(UnsafeRawBufferPointer(start: name, count: length))
            }
        }
        return insert(UnsafeRawBufferPointer(start: name, count: length), hash: hash, at: index)
    }

    /// The id of a name given as a Swift string, interning it if it is new.
    func intern(_ name: String) -> Int32 {
        var name = name
        return name.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
    }

    /// The id of a name's bytes, interning them if they are new.
    private func intern(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        if let id = lookup(bytes) { return id }
        let hash = hash(bytes)
        var index = Int(hash) & mask
        while slots[index].id >= 0 { index = (index + 1) & mask }
        return insert(bytes, hash: hash, at: index)
    }

    /// The id of a name if it has been interned, without interning it.
    func lookup(_ name: String) -> Int32? {
        var name = name
        return name.withUTF8 { lookup(UnsafeRawBufferPointer($0)) }
    }

    /// The id of a NUL-terminated name if it has been interned, without interning it.
    func lookup(_ name: UnsafePointer<CChar>) -> Int32? {
        lookup(UnsafeRawBufferPointer(start: name, count: strlen(name)))
    }

    /// The name of an id as written in the document (`prefix:local` or `local`, whatever
    /// namespace expat resolved it to), created once per id.
    func string(_ id: Int32) -> String {
        let index = Int(id)
        if let string = strings[index] { return string }
        let string = QualifiedName.qualifiedName(of: bytes(id))
        strings[index] = string
        return string
    }

    /// The namespace URI, local name and prefix of an id, made once per id.
    func parts(_ id: Int32) -> QualifiedName.Parts {
        let index = Int(id)
        if partsCache.count <= index { partsCache += repeatElement(nil, count: strings.count - partsCache.count) }
        if let parts = partsCache[index] { return parts }
        let parts = QualifiedName.parts(of: bytes(id))
        partsCache[index] = parts
        return parts
    }

    /// The namespace URI of an id's name, as ``parts(_:)`` has it: for code that asks per
    /// element, which pays one array read for a name in no namespace and copies no other part.
    @inline(__always)
    func namespaceURI(_ id: Int32) -> String? {
        guard namespaced[Int(id)] else { return nil }
        return parts(id).namespaceURI
    }

    /// The bytes of an id's name as interned (expat's spelling), valid until the next intern.
    func bytes(_ id: Int32) -> UnsafeRawBufferPointer {
        let range = ranges[Int(id)]
        return UnsafeRawBufferPointer(start: arena + range.start, count: range.length)
    }

    private func lookup(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        let hash = hash(bytes)
        var index = Int(hash) & mask
        var probes = 0
        while true {
            let slot = slots[index]
            if slot.id < 0 { return nil }
            if slot.hash == hash && Int(slot.length) == bytes.count
                && (bytes.baseAddress.map { Self.equal(arena + slot.start, $0, bytes.count) } ?? true)
            {
                return slot.id
            }
            index = (index + 1) & mask
            probes += 1
            if _slowPath(probes > Self.maximumProbe && hashMode != .seeded) {
                switchToNextHashMode()
                return lookup(bytes)
            }
        }
    }

    /// The hash of a name's bytes, as the table hashes them now.
    private func hash(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        switch hashMode {
        case .sampled: return Self.hash(bytes, wholeName: false)
        case .whole: return Self.hash(bytes, wholeName: true)
        case .seeded:
            var hasher = Hasher()
            hasher.combine(bytes: bytes)
            return UInt32(truncatingIfNeeded: hasher.finalize())
        }
    }

    /// Hashes every name the next way (see ``HashMode``) and rehashes them all: a probe
    /// ran longer than ``maximumProbe``.
    private func switchToNextHashMode() {
        hashMode = hashMode == .sampled ? .whole : .seeded
        rehash()
    }

    /// Empties the slots and puts every name back, hashed as the table hashes now.
    private func rehash() {
        slots.update(repeating: Slot(hash: 0, length: 0, id: -1, start: 0))
        for (id, range) in ranges.enumerated() {
            let hash = hash(UnsafeRawBufferPointer(start: arena + range.start, count: range.length))
            var index = Int(hash) & mask
            while slots[index].id >= 0 { index = (index + 1) & mask }
            slots[index] = Slot(
                hash: hash, length: Int32(truncatingIfNeeded: range.length), id: Int32(truncatingIfNeeded: id),
                start: range.start)
        }
    }

    private func insert(_ bytes: UnsafeRawBufferPointer, hash: UInt32, at index: Int) -> Int32 {
        let id = Int32(truncatingIfNeeded: strings.count)
        if arenaCount + bytes.count > arenaCapacity {
            var capacity = arenaCapacity * 2
            while capacity < arenaCount + bytes.count { capacity *= 2 }
            let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
            bigger.copyMemory(from: arena, byteCount: arenaCount)
            arena.deallocate()
            arena = bigger
            arenaCapacity = capacity
        }
        if let base = bytes.baseAddress { (arena + arenaCount).copyMemory(from: base, byteCount: bytes.count) }
        slots[index] = Slot(hash: hash, length: Int32(truncatingIfNeeded: bytes.count), id: id, start: arenaCount)
        ranges.append((arenaCount, bytes.count))
        arenaCount += bytes.count
        strings.append(nil)
        namespaced.append(bytes.contains(QualifiedName.separator))
        if strings.count * 2 > mask + 1 { grow() }
        return id
    }

    private func grow() {
        let old = slots
        let size = (mask + 1) * 2
        slots = .allocate(capacity: size)
        slots.initialize(repeating: Slot(hash: 0, length: 0, id: -1, start: 0))
        mask = size - 1
        for slot in old where slot.id >= 0 {
            var index = Int(slot.hash) & mask
            while slots[index].id >= 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
        old.deallocate()
    }
}

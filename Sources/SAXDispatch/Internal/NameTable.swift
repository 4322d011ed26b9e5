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
/// Lookups hash the NUL-terminated bytes expat hands over (FNV-1a, computed in the
/// same pass that finds the terminator) and probe an open-addressing table, so an
/// event costs no allocation once its name has been seen.
final class NameTable {
    private struct Slot {
        var hash: UInt32
        var id: Int32  // -1: empty
    }

    @exclusivity(unchecked) private var slots: UnsafeMutableBufferPointer<Slot>
    @exclusivity(unchecked) private var mask: Int
    /// The bytes of every name, back to back; `starts[id]..<starts[id + 1]` is one name.
    @exclusivity(unchecked) private var arena: [UInt8] = []
    @exclusivity(unchecked) private var starts: [Int] = [0]
    @exclusivity(unchecked) private var strings: [String?] = []

    init(capacity: Int = 64) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = .allocate(capacity: size)
        slots.initialize(repeating: Slot(hash: 0, id: -1))
        mask = size - 1
    }

    deinit {
        slots.deallocate()
    }

    /// The number of distinct names interned so far.
    var count: Int { strings.count }

    /// The id of a NUL-terminated name, interning it if it is new.
    @inline(__always)
    func intern(_ name: UnsafePointer<CChar>) -> Int32 {
        let (hash, length) = Self.hashAndLength(name)
        var index = Int(hash) & mask
        while true {
            let slot = slots[index]
            if slot.id < 0 { break }
            if slot.hash == hash && bytesEqual(slot.id, name, length) { return slot.id }
            index = (index + 1) & mask
        }
        return insert(UnsafeRawBufferPointer(start: name, count: length), hash: hash, at: index)
    }

    /// The id of a name given as a Swift string, interning it if it is new.
    func intern(_ name: String) -> Int32 {
        var name = name
        return name.withUTF8 { bytes in
            if let id = lookup(UnsafeRawBufferPointer(bytes)) { return id }
            let hash = Self.hash(UnsafeRawBufferPointer(bytes))
            var index = Int(hash) & mask
            while slots[index].id >= 0 { index = (index + 1) & mask }
            return insert(UnsafeRawBufferPointer(bytes), hash: hash, at: index)
        }
    }

    /// The id of a name if it has been interned, without interning it.
    func lookup(_ name: String) -> Int32? {
        var name = name
        return name.withUTF8 { lookup(UnsafeRawBufferPointer($0)) }
    }

    /// The name of an id as a `String`, created once per id.
    func string(_ id: Int32) -> String {
        let index = Int(id)
        if let string = strings[index] { return string }
        let string = String(decoding: arena[starts[index]..<starts[index + 1]], as: UTF8.self)
        strings[index] = string
        return string
    }

    /// Calls `body` with the UTF-8 bytes of an id's name.
    func withBytes<R>(_ id: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let index = Int(id)
        return try arena.withUnsafeBytes { all in
            try body(UnsafeRawBufferPointer(rebasing: all[starts[index]..<starts[index + 1]]))
        }
    }

    private func lookup(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        let hash = Self.hash(bytes)
        var index = Int(hash) & mask
        while true {
            let slot = slots[index]
            if slot.id < 0 { return nil }
            if slot.hash == hash && bytesEqual(slot.id, bytes) { return slot.id }
            index = (index + 1) & mask
        }
    }

    private func insert(_ bytes: UnsafeRawBufferPointer, hash: UInt32, at index: Int) -> Int32 {
        let id = Int32(truncatingIfNeeded: strings.count)
        arena.append(contentsOf: bytes)
        starts.append(arena.count)
        strings.append(nil)
        slots[index] = Slot(hash: hash, id: id)
        if strings.count * 2 > mask + 1 { grow() }
        return id
    }

    private func grow() {
        let old = slots
        let size = (mask + 1) * 2
        slots = .allocate(capacity: size)
        slots.initialize(repeating: Slot(hash: 0, id: -1))
        mask = size - 1
        for slot in old where slot.id >= 0 {
            var index = Int(slot.hash) & mask
            while slots[index].id >= 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
        old.deallocate()
    }

    @inline(__always)
    private func bytesEqual(_ id: Int32, _ name: UnsafePointer<CChar>, _ length: Int) -> Bool {
        bytesEqual(id, UnsafeRawBufferPointer(start: name, count: length))
    }

    @inline(__always)
    private func bytesEqual(_ id: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let start = starts[Int(id)]
        let length = starts[Int(id) + 1] - start
        guard length == bytes.count else { return false }
        return arena.withUnsafeBytes { all in
            guard let base = all.baseAddress, let other = bytes.baseAddress else { return length == 0 }
            return memcmp(base + start, other, length) == 0
        }
    }

    @inline(__always)
    static func hashAndLength(_ name: UnsafePointer<CChar>) -> (UInt32, Int) {
        var hash: UInt32 = 2_166_136_261
        var length = 0
        while true {
            let byte = UInt8(bitPattern: name[length])
            if byte == 0 { return (hash, length) }
            hash = (hash ^ UInt32(byte)) &* 16_777_619
            length += 1
        }
    }

    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }
}

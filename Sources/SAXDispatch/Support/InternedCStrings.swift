#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Strings made from C strings, kept by their bytes: a C string equal to one kept gives that
/// string again (no new storage), any other a new one, which takes the place of the one
/// kept in its slot. Namespace declarations repeat per record — the same prefixes, a few
/// URIs in turn — so most are found.
///
/// What must stay true: at most ``slotCount`` strings are kept, none longer than
/// ``longestKept`` bytes, whatever the document declares; a string given back has exactly
/// the C string's bytes.
struct InternedCStrings {
    static let slotCount = 256
    static let longestKept = 256
    private var slots: [String] = []

    mutating func string(_ cString: UnsafePointer<CChar>) -> String {
        let bytes = UnsafeRawBufferPointer(start: cString, count: strlen(cString))
        if bytes.isEmpty { return "" }
        guard bytes.count <= Self.longestKept else { return UTF8Text.string(bytes) }
        if slots.isEmpty { slots = Array(repeating: "", count: Self.slotCount) }
        let slot = Self.slot(of: bytes)
        if bytesEqual(slots[slot], bytes) { return slots[slot] }
        let made = UTF8Text.string(bytes)
        slots[slot] = made
        return made
    }

    /// The slot of `bytes` (1 to ``longestKept`` of them): a hash of their
    /// length and their words, the last word read where it ends (overlapping the one
    /// before), a string shorter than a word byte by byte.
    @inline(__always)
    private static func slot(of bytes: UnsafeRawBufferPointer) -> Int {
        let count = bytes.count
        var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        if count < 8 {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        } else {
            var offset = 0
            while offset + 8 < count {
                hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
                offset += 8
            }
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
        }
        hash ^= hash >> 29
        return Int(truncatingIfNeeded: (hash &* 0xBF58_476D_1CE4_E5B9) >> 56)
    }
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finds the byte that ends a run of a document's bytes, eight bytes at a time (SWAR): the
/// framer's runs on dense markup are a few bytes long, where a call to `memchr` costs more
/// than the run; a long run (text) goes on with `memchr`.
///
/// What must stay true: each search returns the index of the first byte of the run that is
/// one of the bytes sought, or the run's end; it reads no byte at or past the end. The
/// first byte flagged in a word is always a true match (the borrow of the zero-byte test
/// only spreads to bytes after a match), which is why a word's lowest flag is its answer.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `word` that equals `byte`, and perhaps of bytes after
    /// one that does.
    @inline(__always)
    private static func flags(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highBits
    }

    @inline(__always)
    private static func word(_ start: UnsafePointer<UInt8>, _ index: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(start).loadUnaligned(fromByteOffset: index, as: UInt64.self))
    }

    /// The index of the first `byte` in `start[from..<end]`, or `end`: four words at most
    /// eight bytes at a time, then `memchr`.
    @inline(__always)
    static func first(_ byte: UInt8, _ start: UnsafePointer<UInt8>, from: Int, _ end: Int) -> Int {
        var index = from
        var words = 0
        while index + 8 <= end {
            let found = flags(word(start, index), byte)
            if found != 0 { return index + found.trailingZeroBitCount >> 3 }
            index += 8
            words += 1
            if words == 4 {
                guard let found = memchr(start + index, Int32(byte), end - index) else { return end }
                return start.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
        }
        while index < end {
            if start[index] == byte { return index }
            index += 1
        }
        return end
    }

    /// The index of the first byte in `start[from..<end]` that ends a run inside a start
    /// tag (`>`, `"`, `'` or `/`), or `end`.
    @inline(__always)
    static func firstInStartTag(_ start: UnsafePointer<UInt8>, from: Int, _ end: Int) -> Int {
        var index = from
        while index + 8 <= end {
            let bytes = word(start, index)
            let found =
                flags(bytes, UInt8(ascii: ">")) | flags(bytes, UInt8(ascii: "\"")) | flags(bytes, UInt8(ascii: "'"))
                | flags(bytes, UInt8(ascii: "/"))
            if found != 0 { return index + found.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < end {
            switch start[index] {
            case UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "/"): return index
            default: index += 1
            }
        }
        return end
    }
}

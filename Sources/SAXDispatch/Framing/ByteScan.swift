#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finds the byte that ends a run of a document's bytes, sixteen bytes at a time (a vector
/// compare per byte sought): the framer's runs on dense markup are a few bytes long, where
/// a call to `memchr` costs more than the run; a long run (text) goes on with `memchr`.
///
/// What must stay true: each search returns the index of the first byte of the run that is
/// one of the bytes sought, or the run's end, and reads no byte at or past the end.
enum ByteScan {
    /// The lanes of `bytes` equal to `byte`'s lanes: 0xFF where equal, 0 elsewhere.
    @inline(__always)
    private static func equal(_ bytes: SIMD16<UInt8>, _ byte: SIMD16<UInt8>) -> SIMD16<UInt8> {
        unsafeBitCast(bytes .== byte, to: SIMD16<UInt8>.self)
    }

    @inline(__always)
    private static func load(_ start: UnsafePointer<UInt8>, _ index: Int) -> SIMD16<UInt8> {
        UnsafeRawPointer(start + index).loadUnaligned(as: SIMD16<UInt8>.self)
    }

    /// The index of the first lane set in `lanes` (0xFF or 0) after `index`, or `nil`.
    @inline(__always)
    private static func firstLane(_ lanes: SIMD16<UInt8>, at index: Int) -> Int? {
        let halves = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        let low = UInt64(littleEndian: halves[0])
        if low != 0 { return index + low.trailingZeroBitCount >> 3 }
        let high = UInt64(littleEndian: halves[1])
        if high != 0 { return index + 8 + high.trailingZeroBitCount >> 3 }
        return nil
    }

    /// The index of the first `byte` in `start[from..<end]`, or `end`: four vectors at most
    /// sixteen bytes at a time, then `memchr`.
    @inline(__always)
    static func first(_ byte: UInt8, _ start: UnsafePointer<UInt8>, from: Int, _ end: Int) -> Int {
        var index = from
        let sought = SIMD16<UInt8>(repeating: byte)
        let vectorsEnd = min(end, from + 64)
        while index + 16 <= vectorsEnd {
            if let found = firstLane(equal(load(start, index), sought), at: index) { return found }
            index += 16
        }
        if index + 16 <= end {
            guard let found = memchr(start + index, Int32(byte), end - index) else { return end }
            return start.distance(to: found.assumingMemoryBound(to: UInt8.self))
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
        let close = SIMD16<UInt8>(repeating: UInt8(ascii: ">"))
        let double = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
        let single = SIMD16<UInt8>(repeating: UInt8(ascii: "'"))
        let slash = SIMD16<UInt8>(repeating: UInt8(ascii: "/"))
        while index + 16 <= end {
            let bytes = load(start, index)
            let lanes = equal(bytes, close) | equal(bytes, double) | equal(bytes, single) | equal(bytes, slash)
            if let found = firstLane(lanes, at: index) { return found }
            index += 16
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

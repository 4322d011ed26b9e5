#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How the name table hashes and compares a name's bytes.
///
/// A name of at most ``NameTable/bytewisePrefix`` bytes is hashed byte by byte (FNV-1a), in
/// the same pass that finds its terminator. A longer one (with namespace processing on,
/// every name in a namespace: a URI, a separator and a local name) is hashed from whole
/// words once its length is known, so that its cost does not grow with the URI's: the
/// sampled hash reads its length, its first word and its last 16 bytes (where names in one
/// namespace differ); the whole hash every word.
///
/// Every word is read inside the name: at an offset from 0 to its length less 8, its
/// length measured first (by the bytewise pass and `strlen`, or `strlen` alone), so no
/// read passes the terminating NUL, whatever memory lies after it.
extension NameTable {
    /// How many leading bytes are hashed one at a time, in the same pass that finds the
    /// end of a short name; a longer name is measured with `strlen` and hashed as words.
    static let bytewisePrefix = 8

    private static let fnvBasis: UInt32 = 2_166_136_261
    private static let fnvPrime: UInt32 = 16_777_619

    /// The hash of a NUL-terminated name and its length, in one pass over a short name.
    @inline(__always)
    static func hashAndLength(_ name: UnsafePointer<CChar>, wholeName: Bool = false) -> (UInt32, Int) {
        var hash = fnvBasis
        var length = 0
        while length < bytewisePrefix {
            let byte = UInt8(bitPattern: name[length])
            if byte == 0 { return (hash, length) }
            hash = (hash ^ UInt32(byte)) &* fnvPrime
            length &+= 1
        }
        let total = bytewisePrefix &+ strlen(name + bytewisePrefix)
        guard total > bytewisePrefix else { return (hash, total) }
        return (hashOfLongName(UnsafeRawPointer(name), count: total, wholeName: wholeName), total)
    }

    /// The same hash and length as ``hashAndLength(_:wholeName:)``, for a name expected to be
    /// long: measured with `strlen` first, with no bytewise pass over its first bytes.
    @inline(__always)
    static func hashAndLengthMeasuredFirst(_ name: UnsafePointer<CChar>, wholeName: Bool) -> (UInt32, Int) {
        let length = strlen(name)
        guard _fastPath(length > bytewisePrefix) else {
            return (hashOfShortName(UnsafeRawPointer(name), count: length), length)
        }
        return (hashOfLongName(UnsafeRawPointer(name), count: length, wholeName: wholeName), length)
    }

    /// The hash of a name's bytes: the same function as ``hashAndLength(_:wholeName:)``.
    static func hash(_ bytes: UnsafeRawBufferPointer, wholeName: Bool = false) -> UInt32 {
        guard let base = bytes.baseAddress else { return fnvBasis }
        guard bytes.count > bytewisePrefix else { return hashOfShortName(base, count: bytes.count) }
        return hashOfLongName(base, count: bytes.count, wholeName: wholeName)
    }

    /// FNV-1a over the `count` bytes of a name of at most ``bytewisePrefix`` bytes.
    @inline(never)
    private static func hashOfShortName(_ base: UnsafeRawPointer, count: Int) -> UInt32 {
        var hash = fnvBasis
        for offset in 0..<count {
            hash = (hash ^ UInt32(base.load(fromByteOffset: offset, as: UInt8.self))) &* fnvPrime
        }
        return hash
    }

    /// The hash of a name longer than ``bytewisePrefix`` bytes, from its length and words:
    /// its first, its last two (the last 16 bytes, overlapping the first in a name of at
    /// most 16) or, for the whole hash, every one, the last overlapping the one before.
    ///
    /// Before each word is xored in, the state is multiplied by an odd constant (a step that
    /// loses nothing), so names that differ in one word read differ in the state; its high
    /// half is then folded onto its low half (a name's last bytes are a word's high bytes)
    /// and multiplied once more, which carries every bit into the high half the hash is.
    @inline(__always)
    private static func hashOfLongName(_ base: UnsafeRawPointer, count: Int, wholeName: Bool) -> UInt32 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var state = UInt64(truncatingIfNeeded: count) ^ base.loadUnaligned(as: UInt64.self)
        if wholeName {
            var offset = 8
            while offset &+ 8 < count {
                state = state &* multiplier ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
        } else if count > 16 {
            state = state &* multiplier ^ base.loadUnaligned(fromByteOffset: count &- 16, as: UInt64.self)
        }
        state = state &* multiplier ^ base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        state = (state ^ (state >> 32)) &* multiplier
        return UInt32(truncatingIfNeeded: state >> 32)
    }

    /// Compares `length` bytes; names are short, so word-sized loads beat a call to `memcmp`.
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ length: Int) -> Bool {
        if length >= 16 {
            // The last 16 bytes first (where names in one namespace differ), then 16 at a
            // time from the start up to them: the steps overlap, so there is no tail. The
            // first steps are written out, as namespaced names of up to 64 bytes take them.
            let last = length &- 16
            if differ16(a, b, at: last) || differ16(a, b, at: 0) { return false }
            if last <= 16 { return true }
            if differ16(a, b, at: 16) { return false }
            if last <= 32 { return true }
            if differ16(a, b, at: 32) { return false }
            var offset = 48
            while offset < last {
                if differ16(a, b, at: offset) { return false }
                offset &+= 16
            }
            return true
        }
        // Shorter names: two loads that overlap in the middle cover every length, so
        // there is no loop over the bytes.
        if length >= 8 {
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
        }
        if length >= 4 {
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: length &- 4, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: length &- 4, as: UInt32.self)
        }
        if length >= 2 {
            return a.loadUnaligned(as: UInt16.self) == b.loadUnaligned(as: UInt16.self)
                && a.loadUnaligned(fromByteOffset: length &- 2, as: UInt16.self)
                    == b.loadUnaligned(fromByteOffset: length &- 2, as: UInt16.self)
        }
        return length == 0 || a.load(as: UInt8.self) == b.load(as: UInt8.self)
    }

    /// Whether the 16 bytes at `offset` differ.
    @inline(__always)
    private static func differ16(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, at offset: Int) -> Bool {
        let first = a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            ^ b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        let second = a.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
            ^ b.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
        return first | second != 0
    }
}

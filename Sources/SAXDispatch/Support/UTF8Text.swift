#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Makes the `String`s handlers receive from the UTF-8 that expat delivers.
///
/// Expat hands over well-formed UTF-8 whatever the input encoding, yet
/// `String(decoding:as:)` validates it again byte by byte, work a text-heavy parse would
/// pay on every byte of text. Here the bytes are checked eight at a time
/// while they are ASCII and sequence by sequence otherwise; well-formed text is then
/// copied into a `String` without a second validation. Anything not well-formed (it
/// should never come from expat) takes the standard, repairing path, so a `String`
/// never holds ill-formed UTF-8 either way.
enum UTF8Text {
    static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            let form = form(of: bytes)
            if form != .illFormed {
                // The span carries what the check found: all ASCII or not.
                let units = bytes.assumingMemoryBound(to: UInt8.self)
                return String(copying: UTF8Span(unchecked: units.span, isKnownASCII: form == .ascii))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The `String` of a NUL-terminated name or attribute value from expat.
    static func string(cString: UnsafePointer<CChar>) -> String {
        string(bytes(cString: cString))
    }

    /// The bytes of a NUL-terminated name or attribute value from expat, without the NUL.
    static func bytes(cString: UnsafePointer<CChar>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: cString, count: strlen(cString))
    }

    /// What UTF-8 text is: all ASCII, well-formed with some other character, or not
    /// well-formed (Unicode table 3-7: no overlong forms, no surrogates, nothing above
    /// U+10FFFF, no truncated sequence).
    enum Form {
        case ascii
        case wellFormed
        case illFormed
    }

    /// Whether `bytes` are well-formed UTF-8 (Unicode table 3-7: no overlong forms, no
    /// surrogates, nothing above U+10FFFF, no truncated sequence).
    static func isWellFormed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        form(of: bytes) != .illFormed
    }

    /// The ``Form`` of `bytes`. Text that is all ASCII, the common case, is read a word at a
    /// time, its end by words that overlap the ones before (a short text by two overlapping
    /// loads), with no loop over its last bytes one by one; from the first byte that is not
    /// ASCII on, each sequence is checked.
    static func form(of bytes: UnsafeRawBufferPointer) -> Form {
        guard let base = bytes.baseAddress else { return .ascii }
        let count = bytes.count
        let highBits: UInt64 = 0x8080_8080_8080_8080
        if count >= 8 {
            var index = 0
            while index + 8 <= count {
                let high = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) & highBits
                // The lowest bit set is the first byte that is not ASCII.
                if high != 0 { return sequencesForm(base, count, from: index + high.trailingZeroBitCount / 8) }
                index += 8
            }
            if index == count { return .ascii }
            let high = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) & highBits
            if high == 0 { return .ascii }
            return sequencesForm(base, count, from: count - 8 + high.trailingZeroBitCount / 8)
        }
        var any: UInt32
        if count >= 4 {
            any = base.loadUnaligned(as: UInt32.self) | base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        } else {
            any = 0
            for offset in 0..<count { any |= UInt32(base.load(fromByteOffset: offset, as: UInt8.self)) }
        }
        if any & 0x8080_8080 == 0 { return .ascii }
        return sequencesForm(base, count, from: 0)
    }

    /// The form of the `count` bytes at `base`, which hold a byte that is not ASCII at
    /// `start` or later (none before `start`): well-formed or not, never all ASCII.
    private static func sequencesForm(_ base: UnsafeRawPointer, _ count: Int, from start: Int) -> Form {
        var index = start
        while index < count {
            if index + 8 <= count {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let high = word & 0x8080_8080_8080_8080
                if high == 0 {
                    index += 8
                    continue
                }
                // Straight to the word's first byte that is not ASCII (the lowest bit set is
                // the first byte's), rather than through the ASCII before it one by one.
                index += high.trailingZeroBitCount / 8
            }
            let lead = base.load(fromByteOffset: index, as: UInt8.self)
            if lead < 0x80 {
                index += 1
                continue
            }
            guard let length = sequenceLength(base, count, at: index) else { return .illFormed }
            index += length
        }
        return .wellFormed
    }

    /// The length of the well-formed UTF-8 sequence whose lead byte (0x80 or above) is at
    /// `index` of the `count` bytes at `base`: shortest form, no surrogates, at most
    /// U+10FFFF; `nil` when it is not one.
    @inline(__always)
    static func sequenceLength(_ base: UnsafeRawPointer, _ count: Int, at index: Int) -> Int? {
        let lead = base.load(fromByteOffset: index, as: UInt8.self)
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return nil
        }
        guard index + length <= count else { return nil }
        let second = base.load(fromByteOffset: index + 1, as: UInt8.self)
        guard second >= low && second <= high else { return nil }
        for offset in 2..<length {
            let continuation = base.load(fromByteOffset: index + offset, as: UInt8.self)
            guard continuation & 0xC0 == 0x80 else { return nil }
        }
        return length
    }
}

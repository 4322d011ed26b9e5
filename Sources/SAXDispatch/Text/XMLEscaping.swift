/// The one place XML is escaped, for the writer and for the markup a parse captures.
///
/// - Text: `&amp;`, `&lt;`, `&gt;`, and `&#13;` for a carriage return, which a parser
///   would otherwise read as a line feed.
/// - Attribute values (written between double quotes): the same, `&quot;`, and `&#9;`,
///   `&#10;`, `&#13;` for the white space that attribute-value normalisation would turn
///   into spaces.
/// - CDATA sections: `]]>` inside one is split between two sections.
///
/// What must stay true: escaped bytes read back (by any conforming parser) as the bytes
/// given, and the scan finds the characters XML 1.0 cannot carry (``firstInvalidCharacter(in:)``).
enum XMLEscaping {
    /// Appends `text`, escaped as character data.
    static func appendText<Output: ByteAppending & ~Copyable>(_ text: UnsafeRawBufferPointer, to output: inout Output) {
        append(text, to: &output, inAttribute: false)
    }

    /// Appends `value`, escaped for an attribute value between double quotes.
    static func appendAttributeValue<Output: ByteAppending & ~Copyable>(
        _ value: UnsafeRawBufferPointer, to output: inout Output
    ) {
        append(value, to: &output, inAttribute: true)
    }

    @inline(__always)
    private static func append<Output: ByteAppending & ~Copyable>(
        _ bytes: UnsafeRawBufferPointer, to output: inout Output, inAttribute: Bool
    ) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var runStart = 0
        var index = 0
        // Most bytes need nothing: blocks of sixteen, then words of eight, without one to
        // escape are skipped whole, and only a block that may hold one is read byte by byte.
        while index < count {
            while index + 16 <= count && !needsEscaping(base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self), inAttribute) {
                index += 16
            }
            while index + 8 <= count && !mayNeedEscaping(base.loadUnaligned(fromByteOffset: index, as: UInt64.self), inAttribute) {
                index += 8
            }
            let limit = min(index + 16, count)
            while index < limit {
                if let replacement = replacement(for: bytes[index], inAttribute: inAttribute) {
                    output.appendBytes(UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
                    output.appendBytes(replacement)
                    runStart = index + 1
                }
                index += 1
            }
        }
        output.appendBytes(UnsafeRawBufferPointer(rebasing: bytes[runStart...]))
    }

    /// What `byte` is written as, or `nil` for itself.
    @inline(__always)
    private static func replacement(for byte: UInt8, inAttribute: Bool) -> StaticString? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case 0x0D: "&#13;"
        case UInt8(ascii: "\"") where inAttribute: "&quot;"
        case 0x09 where inAttribute: "&#9;"
        case 0x0A where inAttribute: "&#10;"
        default: nil
        }
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether a byte of `word` is below `limit` (at most 0x80): exact for the answer, which
    /// is all it is asked (bytes above the first such one may be misread).
    @inline(__always)
    private static func hasByte(below limit: UInt64, in word: UInt64) -> Bool {
        (word &- ones &* limit) & ~word & highs != 0
    }

    /// Whether a byte of `word` may need escaping: never `false` for a word that holds one
    /// (a `true` for one that does not only costs a look at its bytes).
    @inline(__always)
    private static func mayNeedEscaping(_ word: UInt64, _ inAttribute: Bool) -> Bool {
        @inline(__always) func has(_ word: UInt64, _ byte: UInt8) -> Bool { hasByte(below: 1, in: word ^ (ones &* UInt64(byte))) }
        // `<` (3C) and `>` (3E) differ in one bit: one test finds both; tab (09) with 08.
        if has(word | (ones &* 0x02), 0x3E) || has(word, UInt8(ascii: "&")) || has(word, 0x0D) { return true }
        return inAttribute && (has(word, UInt8(ascii: "\"")) || has(word | ones, 0x09) || has(word, 0x0A))
    }

    /// Whether a byte of `block` needs escaping, sixteen compared at once.
    @inline(__always)
    private static func needsEscaping(_ block: SIMD16<UInt8>, _ inAttribute: Bool) -> Bool {
        // `<` (3C) and `>` (3E) differ in one bit: one compare finds both; tab (09) with 08,
        // which no text written holds.
        var found = (block | SIMD16(repeating: 0x02)) .== SIMD16(repeating: 0x3E)
        found .|= block .== SIMD16(repeating: UInt8(ascii: "&"))
        found .|= block .== SIMD16(repeating: 0x0D)
        if inAttribute {
            found .|= block .== SIMD16(repeating: UInt8(ascii: "\""))
            found .|= (block | SIMD16(repeating: 0x01)) .== SIMD16(repeating: 0x09)
            found .|= block .== SIMD16(repeating: 0x0A)
        }
        // The mask's lanes are 0 or all ones: read as two words, not reduced lane by lane.
        let words = unsafeBitCast(found, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    /// Appends `content` as one CDATA section, or several: each `]]>` is split after its
    /// `]]`, which ends one section, and the `>` begins the next; a carriage return, which a
    /// parser would read as a line feed inside a section, is written between two as `&#13;`.
    static func appendCDATA<Output: ByteAppending & ~Copyable>(_ content: UnsafeRawBufferPointer, to output: inout Output) {
        output.appendBytes("<![CDATA[")
        var runStart = 0
        var index = 0
        while index < content.count {
            if content[index] == 0x0D {
                output.appendBytes(UnsafeRawBufferPointer(rebasing: content[runStart..<index]))
                output.appendBytes("]]>&#13;<![CDATA[")
                runStart = index + 1
                index += 1
            } else if index + 2 < content.count && content[index] == UInt8(ascii: "]")
                && content[index + 1] == UInt8(ascii: "]") && content[index + 2] == UInt8(ascii: ">")
            {
                output.appendBytes(UnsafeRawBufferPointer(rebasing: content[runStart..<(index + 2)]))
                output.appendBytes("]]><![CDATA[")
                runStart = index + 2
                index += 2
            } else {
                index += 1
            }
        }
        output.appendBytes(UnsafeRawBufferPointer(rebasing: content[runStart...]))
        output.appendBytes("]]>")
    }

    /// The offset of the first character in UTF-8 `bytes` that XML 1.0 cannot carry (a C0
    /// control other than tab, line feed and carriage return; U+FFFE or U+FFFF; or bytes
    /// that are not UTF-8), or `nil`.
    static func firstInvalidCharacter(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = 0
        while index < bytes.count {
            // Words of eight printable ASCII bytes (20–7F) are passed whole; a word with a
            // byte at or above 80 or below 20 (tab and line ends included) goes byte by byte.
            while index + 8 <= bytes.count {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if word & highs != 0 || hasByte(below: 0x20, in: word) { break }
                index += 8
            }
            let limit = min(index + 8, bytes.count)
            while index < limit {
                let byte = bytes[index]
                if byte < 0x80 {
                    if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return index }
                    index += 1
                    continue
                }
                guard let length = UTF8Text.sequenceLength(base, bytes.count, at: index) else { return index }
                // U+FFFE and U+FFFF: EF BF BE, EF BF BF.
                if length == 3 && byte == 0xEF && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE { return index }
                index += length
            }
        }
        return nil
    }
}

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
    static func appendText(_ text: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        append(text, to: &output, inAttribute: false)
    }

    /// Appends `value`, escaped for an attribute value between double quotes.
    static func appendAttributeValue(_ value: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        append(value, to: &output, inAttribute: true)
    }

    private static func append(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8], inAttribute: Bool) {
        var runStart = 0
        for index in bytes.indices {
            let replacement: StaticString
            switch bytes[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case 0x0D: replacement = "&#13;"
            case UInt8(ascii: "\"") where inAttribute: replacement = "&quot;"
            case 0x09 where inAttribute: replacement = "&#9;"
            case 0x0A where inAttribute: replacement = "&#10;"
            default: continue
            }
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
            output.append(contentsOf: UnsafeRawBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            runStart = index + 1
        }
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart...]))
    }

    /// Appends `content` as one CDATA section, or several: each `]]>` is split after its
    /// `]]`, which ends one section, and the `>` begins the next; a carriage return, which a
    /// parser would read as a line feed inside a section, is written between two as `&#13;`.
    static func appendCDATA(_ content: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        output.append(contentsOf: "<![CDATA[".utf8)
        var runStart = 0
        var index = 0
        while index < content.count {
            if content[index] == 0x0D {
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: content[runStart..<index]))
                output.append(contentsOf: "]]>&#13;<![CDATA[".utf8)
                runStart = index + 1
                index += 1
            } else if index + 2 < content.count && content[index] == UInt8(ascii: "]")
                && content[index + 1] == UInt8(ascii: "]") && content[index + 2] == UInt8(ascii: ">")
            {
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: content[runStart..<(index + 2)]))
                output.append(contentsOf: "]]><![CDATA[".utf8)
                runStart = index + 2
                index += 2
            } else {
                index += 1
            }
        }
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: content[runStart...]))
        output.append(contentsOf: "]]>".utf8)
    }

    /// The offset of the first character in UTF-8 `bytes` that XML 1.0 cannot carry (a C0
    /// control other than tab, line feed and carriage return; U+FFFE or U+FFFF; or bytes
    /// that are not UTF-8), or `nil`.
    static func firstInvalidCharacter(in bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return index }
                index += 1
                continue
            }
            guard let base = bytes.baseAddress, let length = UTF8Text.sequenceLength(base, bytes.count, at: index) else {
                return index
            }
            // U+FFFE and U+FFFF: EF BF BE, EF BF BF.
            if length == 3 && byte == 0xEF && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE { return index }
            index += length
        }
        return nil
    }
}

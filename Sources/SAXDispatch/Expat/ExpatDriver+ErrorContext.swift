private import CExpat

/// What the input says where expat stopped, for the error message: expat reports a code
/// only, so the entity, the encoding or the character it refused is read back from the
/// bytes around the error position (`XML_GetInputContext`).
extension ExpatDriver {
    /// The detail to append to the message of `code`, with its separator (` &nbsp;`,
    /// `: '<'`), or `nil` when the bytes at the error
    /// position do not say it exactly (outside the context expat keeps, or UTF-16 input).
    func errorDetail(for code: XMLParseError.Code) -> String? {
        guard let parser, !inputEncoding.surrogateCheck.isUTF16 else { return nil }
        var offset: Int32 = 0
        var size: Int32 = 0
        guard let buffer = XML_GetInputContext(parser, &offset, &size), offset >= 0, offset < size else {
            return nil
        }
        let bytes = UnsafeRawBufferPointer(start: buffer, count: Int(size))
        return ErrorContext(bytes: bytes, at: Int(offset)).detail(for: code)
    }

    /// The first reference to an entity the document does not declare in the attribute
    /// values of the start tag at the error position (`position`), with the reference's
    /// own position; nil when the bytes there are not a whole start tag expat still holds.
    func undeclaredReferenceInStartTag(
        at position: (line: Int, column: Int, byteOffset: Int)
    ) -> (name: String, position: (line: Int, column: Int, byteOffset: Int))? {
        guard let parser else { return nil }
        var offset: Int32 = 0
        var size: Int32 = 0
        guard let buffer = XML_GetInputContext(parser, &offset, &size), offset >= 0, offset < size else { return nil }
        let held = UnsafeRawBufferPointer(start: buffer + Int(offset), count: Int(size - offset))
        let form = EntityReferenceScan.form(of: held)
        let unit = form == .asciiCompatible ? 1 : 2
        // The tag: from '<' to the first '>' outside a quoted value.
        guard held.count >= unit, held[form == .utf16BigEndian ? 1 : 0] == 0x3C else { return nil }
        var quote: UInt8 = 0
        var end = unit
        while end + unit <= held.count {
            let byte = held[end + (form == .utf16BigEndian ? 1 : 0)]
            let isASCII = unit == 1 || held[end + (form == .utf16BigEndian ? 0 : 1)] == 0
            if isASCII {
                if quote == 0 && byte == 0x3E { break }
                if byte == 0x22 || byte == 0x27 { quote = quote == 0 ? byte : (quote == byte ? 0 : quote) }
            }
            end += unit
        }
        guard end + unit <= held.count else { return nil }
        let scan = referenceScan(of: UnsafeRawBufferPointer(rebasing: held[..<end]), form: form)
        var found: (name: String, index: Int)?
        scan.forEachReference { name, index in
            guard let undeclared = dtd.declaredEntities.undeclaredName(reachedFrom: name) else { return true }
            found = (name == undeclared ? name : undeclared, index)
            return false
        }
        guard let found else { return nil }
        return (found.name, scan.position(of: found.index, from: position))
    }
}

/// The input bytes around an error position and what they name.
struct ErrorContext {
    /// Bytes the parser still holds, the error position among them.
    let bytes: UnsafeRawBufferPointer
    /// Index of the error position in `bytes`.
    let at: Int

    /// The longest name or value a message quotes from the input.
    static let maximumQuotedBytes = 64

    /// What to append to expat's message for `code`; see ``ExpatDriver/errorDetail(for:)``.
    func detail(for code: XMLParseError.Code) -> String? {
        switch code {
        case .undefinedEntity:
            // The position is the reference's '&'.
            guard bytes[at] == UInt8(ascii: "&"), let name = run(from: at + 1, until: UInt8(ascii: ";")) else {
                return nil
            }
            return " &\(MessageText.name(name));"
        case .unknownEncoding:
            // The position is the first byte of the encoding name, after its quote.
            guard at > 0, bytes[at - 1] == UInt8(ascii: "'") || bytes[at - 1] == UInt8(ascii: "\""),
                let name = run(from: at, until: bytes[at - 1])
            else { return nil }
            return " \"\(MessageText.name(name))\""
        case .invalidToken:
            if previousNonSpace() == UInt8(ascii: "="), bytes[at] != UInt8(ascii: "'"), bytes[at] != UInt8(ascii: "\"") {
                return ": attribute value must be quoted"
            }
            return ": " + character()
        default:
            return nil
        }
    }

    /// The text from `start` to the first `terminator`, when the terminator is in the
    /// bytes held and the text is not empty, too long or not UTF-8.
    private func run(from start: Int, until terminator: UInt8) -> String? {
        var end = start
        while end < bytes.count, bytes[end] != terminator {
            guard end - start < Self.maximumQuotedBytes * 4, bytes[end] != UInt8(ascii: "<") else { return nil }
            end += 1
        }
        guard end < bytes.count, end > start else { return nil }
        return String(validating: bytes[start..<end], as: UTF8.self)
    }

    /// The last byte before the error position that is not XML white space.
    private func previousNonSpace() -> UInt8? {
        var index = at - 1
        while index >= 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index -= 1 }
        return index >= 0 ? bytes[index] : nil
    }

    /// The character at the error position, quoted (`'<'`), or its code point when it is
    /// a control or space (`U+0000`), or the byte when it is not UTF-8 (`byte 0xFF`).
    private func character() -> String {
        let first = bytes[at]
        let length =
            switch first {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 1
            }
        if at + length <= bytes.count, let text = String(validating: bytes[at..<at + length], as: UTF8.self),
            let scalar = text.unicodeScalars.first
        {
            if scalar.properties.generalCategory == .control || scalar.properties.isWhitespace
                || scalar.properties.generalCategory == .format
            {
                return "U+" + String(String(scalar.value, radix: 16, uppercase: true).paddedToFour)
            }
            return "'\(text)'"
        }
        return "byte 0x" + String(String(first, radix: 16, uppercase: true).paddedToTwo)
    }
}

extension String {
    fileprivate var paddedToFour: String { String(repeating: "0", count: max(0, 4 - count)) + self }
    fileprivate var paddedToTwo: String { String(repeating: "0", count: max(0, 2 - count)) + self }
}

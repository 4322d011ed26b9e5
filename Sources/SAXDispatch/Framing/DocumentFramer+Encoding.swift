/// The encodings the framer reads: UTF-8 (and US-ASCII) unless the XML declaration names
/// ISO-8859-1, whose bytes are a character each; anything else stops it, since the bytes
/// below 0x80 would not always be the ASCII characters it looks for.
extension DocumentFramer {

    /// Stops at a byte order mark or first bytes of UTF-16 or UTF-32: a zero byte or
    /// `FE`/`FF` first, or a zero byte second. (UTF-8's byte order mark is a character
    /// like any other to expat's columns.)
    mutating func checkStart(_ start: UnsafePointer<UInt8>, _ count: Int, at chunkOffset: Int) {
        for index in chunkOffset..<min(2, chunkOffset + count) {
            let byte = start[index - chunkOffset]
            if byte == 0x00 || (index == 0 && (byte == 0xFE || byte == 0xFF)) { return halt(.unsupportedEncoding) }
        }
        checkedStart = chunkOffset + count >= 2
    }

    /// Reads the XML declaration's encoding, once it ended at `end` in this call (the
    /// declaration is the first processing instruction; its bytes are in the prolog kept
    /// so far and this call's).
    mutating func checkDeclaredEncoding(_ start: UnsafePointer<UInt8>, _ chunkOffset: Int, end: Int) {
        let declarationStart = tagStart
        guard declarationStart <= 3 else { return }
        var bytes = prolog
        bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: end + 1))
        // The XML declaration is `<?xml` and white space, not a processing instruction whose
        // target begins with `xml` (`<?xml-stylesheet`).
        guard bytes.count > declarationStart + 6,
            bytes[(declarationStart + 2)..<(declarationStart + 5)].elementsEqual("xml".utf8),
            [0x20, 0x09, 0x0A, 0x0D].contains(bytes[declarationStart + 5])
        else { return }
        let declaration = bytes[declarationStart...]
        guard let name = Self.pseudoAttribute("encoding", in: declaration) else { return }
        switch String(decoding: name, as: UTF8.self).lowercased() {
        case "utf-8", "utf8", "us-ascii", "ascii":
            break
        case "iso-8859-1", "latin1", "iso_8859-1", "l1":
            // Every byte is a character. What was counted so far is ASCII either way.
            position.countEveryByte()
        default:
            halt(.unsupportedEncoding)
        }
    }

    /// The value of a pseudo-attribute of an XML declaration, as written: looked for between
    /// the quoted values, never inside one.
    private static func pseudoAttribute(_ name: String, in declaration: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let key = Array(name.utf8)
        var index = declaration.startIndex
        while index < declaration.endIndex {
            let byte = declaration[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                // A value: passed over whole.
                guard let close = declaration[(index + 1)...].firstIndex(of: byte) else { return nil }
                index = close + 1
                continue
            }
            if index > declaration.startIndex, index + key.count < declaration.endIndex,
                declaration[index..<(index + key.count)].elementsEqual(key), [0x20, 0x09, 0x0A, 0x0D].contains(declaration[index - 1])
            {
                var cursor = index + key.count
                while cursor < declaration.endIndex, [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "=")].contains(declaration[cursor]) {
                    cursor += 1
                }
                guard cursor < declaration.endIndex else { return nil }
                let quote = declaration[cursor]
                guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
                let valueStart = cursor + 1
                guard let valueEnd = declaration[valueStart...].firstIndex(of: quote) else { return nil }
                return declaration[valueStart..<valueEnd]
            }
            index += 1
        }
        return nil
    }
}

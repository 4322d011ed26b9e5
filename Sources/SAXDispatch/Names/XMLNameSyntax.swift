/// The name productions of XML 1.0 (fifth edition) and Namespaces in XML 1.0, which the
/// writer checks every name against: `Name` (`NameStartChar NameChar*`) and `NCName` (a
/// `Name` without `:`).
enum XMLNameSyntax {
    /// Whether `name` is an XML `Name`.
    static func isName(_ name: Substring) -> Bool {
        // Most names are ASCII: told in one pass over their bytes, with no scalar decoding.
        if let ascii = name.utf8.withContiguousStorageIfAvailable(isASCIIName), let ascii { return ascii }
        var scalars = name.unicodeScalars.makeIterator()
        guard let first = scalars.next(), isNameStart(first) else { return false }
        while let scalar = scalars.next() {
            guard isNameCharacter(scalar) else { return false }
        }
        return true
    }

    /// Whether ASCII `bytes` are a `Name`; `nil` when a byte is not ASCII, for the full check.
    private static func isASCIIName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let first = bytes.first else { return false }
        var isName = isASCIINameStart(first)
        for byte in bytes {
            if byte >= 0x80 { return nil }
            isName = isName && (isASCIINameStart(byte) || byte == 0x2D || byte == 0x2E || (byte >= 0x30 && byte <= 0x39))
        }
        return isName
    }

    /// `:`, `A`–`Z`, `_`, `a`–`z`: the ASCII of ``isNameStart(_:)``.
    @inline(__always)
    private static func isASCIINameStart(_ byte: UInt8) -> Bool {
        let letter = byte | 0x20
        return (letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z")) || byte == 0x5F || byte == 0x3A
    }

    /// Whether `name` is an `NCName`: a `Name` with no colon.
    static func isNCName(_ name: Substring) -> Bool {
        !name.utf8.contains(UInt8(ascii: ":")) && isName(name)
    }

    static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3A, 0x41...0x5A, 0x5F, 0x61...0x7A: true  // : A-Z _ a-z
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D,
            0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
            true
        default: false
        }
    }

    static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: true  // - . 0-9 · combining
        default: isNameStart(scalar)
        }
    }
}

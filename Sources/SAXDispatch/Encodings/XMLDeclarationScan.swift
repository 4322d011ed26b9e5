/// Reads what the package needs from the bytes of an XML declaration before expat does:
/// the driver to place an encoding error at the name, the transcoder to decide whether a
/// document needs it.
enum XMLDeclarationScan {
    /// Where the value of the `encoding` pseudo-attribute starts in the bytes of an XML
    /// declaration (`<?xml version="1.0" encoding="…"?>`), read pseudo-attribute by
    /// pseudo-attribute so that a value holding the word is never taken for the name.
    static func encodingValueOffset(in declaration: UnsafeRawBufferPointer) -> Int? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        let count = declaration.count
        var index = min(5, count)  // after "<?xml"
        while index < count {
            while index < count && isSpace(declaration[index]) { index += 1 }
            let nameStart = index
            while index < count && declaration[index] != 0x3D && !isSpace(declaration[index]) { index += 1 }
            let isEncoding = declaration[nameStart..<index].elementsEqual("encoding".utf8)
            while index < count && declaration[index] != 0x22 && declaration[index] != 0x27 { index += 1 }
            guard index < count else { return nil }
            let quote = declaration[index]
            index += 1
            if isEncoding { return index }
            while index < count && declaration[index] != quote { index += 1 }
            index += 1
        }
        return nil
    }
}

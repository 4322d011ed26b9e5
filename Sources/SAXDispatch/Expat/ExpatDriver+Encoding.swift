private import CExpat

/// The check that a document's XML declaration agrees with its UTF-8 byte order mark.
///
/// Expat lets a declaration switch the encoding it detected from a byte order mark when
/// both use the same number of bytes per character: after a UTF-8 mark,
/// `encoding="ISO-8859-1"` (or any single-byte table) would make it read every UTF-8
/// sequence as two or three Latin characters (`é` as `Ã©`). It rejects the same
/// contradiction after a UTF-16 mark, as ``XMLParseError/Code/incorrectEncoding`` at the
/// encoding name; the driver rejects the UTF-8 case in the same way.
///
/// A declaration of US-ASCII (or another name for it) stays accepted after a UTF-8 mark:
/// ASCII is UTF-8's first half, and expat rejects any byte above it as an invalid token,
/// so nothing can be misread. Declarations of UTF-16 or of unknown encodings are left to
/// expat, which rejects them with their own codes. With an encoding override (a string's
/// UTF-8) expat ignores the declaration, and so does this check.
extension ExpatDriver {
    /// Installs the declaration callback after a UTF-8 byte order mark, the only time it is
    /// needed; documents without a mark never pay for it.
    func watchDeclarationAfterByteOrderMark() {
        guard let parser, encodingOverride == nil else { return }
        XML_SetXmlDeclHandler(parser) { userData, _, encoding, _ in
            guard let encoding else { return }
            withDriver(userData) { $0.checkDeclaredEncodingAfterByteOrderMark(encoding: encoding) }
        }
    }

    /// Ends the parse when the declared encoding reads bytes above ASCII otherwise than
    /// UTF-8 does. Expat calls the declaration callback before it switches encodings, so
    /// no text has been decoded in the declared encoding yet.
    private func checkDeclaredEncodingAfterByteOrderMark(encoding: UnsafePointer<CChar>) {
        let name = UTF8Text.string(cString: encoding)
        guard let table = SingleByteEncoding(named: name), table.definesBytesAboveASCII else { return }
        violate(
            .incorrectEncoding,
            "encoding specified in XML declaration is incorrect: the document starts with a UTF-8 byte order mark"
                + " but declares encoding=\"\(name)\"",
            at: declaredEncodingPosition())
    }

    /// The position of the encoding name in the XML declaration being reported, where
    /// expat reports its own incorrect-encoding error; the declaration's own position when
    /// the name cannot be found in expat's buffer.
    private func declaredEncodingPosition() -> (line: Int, column: Int, byteOffset: Int) {
        var position = currentPosition()
        var offset: Int32 = 0
        var size: Int32 = 0
        let count = currentEventByteCount
        guard let buffer = XML_GetInputContext(parser, &offset, &size), offset >= 0, Int(offset) + count <= Int(size)
        else { return position }
        let declaration = UnsafeRawBufferPointer(start: buffer + Int(offset), count: count)
        guard let nameOffset = Self.encodingValueOffset(in: declaration) else { return position }
        // After a UTF-8 mark every byte of a declaration is an ASCII character: one column
        // each, and CR LF, CR or LF one line break.
        var index = 0
        while index < nameOffset {
            switch declaration[index] {
            case 0x0D:
                position.line += 1
                position.column = 1
                if index + 1 < nameOffset && declaration[index + 1] == 0x0A { index += 1 }
            case 0x0A:
                position.line += 1
                position.column = 1
            default:
                position.column += 1
            }
            index += 1
        }
        position.byteOffset += nameOffset
        return position
    }

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

extension SingleByteEncoding {
    /// Whether the encoding gives any byte above 0x7F a meaning: false only for the
    /// tables that are ASCII under another name.
    var definesBytesAboveASCII: Bool {
        (0x80...0xFF).contains { scalar($0) != -1 }
    }
}

/// Expat's unknown-encoding callback: the encodings expat does not read itself but can
/// read through a map of the 256 byte values (single-byte tables, and the multi-byte
/// encodings whose lead byte decides a sequence's length, converted by iconv).
extension ExpatDriver {
    /// Installs the callback; an encoding it cannot read is remembered for the error's
    /// message. The corresponding expat function is `XML_SetUnknownEncodingHandler`.
    func installUnknownEncodingHandler(_ parser: OpaquePointer) {
        XML_SetUnknownEncodingHandler(
            parser,
            { userData, name, info in
                guard let name, let info else { return 0 }
                let encoding = UTF8Text.string(cString: name)
                guard ExpatDriver.fill(info, for: encoding) else {
                    withDriver(userData) { $0.unknownEncodingName = encoding }
                    return 0
                }
                withDriver(userData) { $0.encodingReadThroughMap(encoding) }
                return 1
            }, userData)
    }

    /// Fills expat's description of `encoding`; `false` when it cannot be read through one.
    fileprivate static func fill(_ info: UnsafeMutablePointer<XML_Encoding>, for encoding: String) -> Bool {
        info.pointee.data = nil
        info.pointee.convert = nil
        info.pointee.release = nil
        if let table = SingleByteEncoding(named: encoding) {
            setMap(info) { table.scalar($0) }
            return true
        }
        guard case .map(let iconvName, let leads)? = EncodingCatalog.path(for: encoding),
            let converter = IconvConverter(from: iconvName)
        else { return false }
        // Bytes below 0x80 are ASCII, as expat requires of every encoding it reads through a
        // map; where iconv differs (glibc's SHIFT_JIS reads 0x5C as ¥ and 0x7E as ‾), the
        // map follows CP932, the WHATWG Encoding Standard and Python's codecs.
        setMap(info) { byte in
            if byte < 0x80 { return Int32(byte) }
            if let leads, case let length = leads.length(byte), length > 1 { return Int32(-length) }
            var value = UInt8(byte)
            let scalar = withUnsafeBytes(of: &value) { converter.scalar(of: $0) }
            return scalar.map { $0 <= 0xFFFF ? Int32($0) : -1 } ?? -1
        }
        guard let leads else { return true }
        info.pointee.data = SequenceDecoder(
            converter: converter, leads: leads, overrides: EncodingTableOverrides.table(for: iconvName) ?? [:]
        ).retainedTable()
        info.pointee.convert = { data, bytes in
            guard let data, let bytes else { return -1 }
            return SequenceDecoder.scalar(at: bytes, table: data)
        }
        info.pointee.release = { data in
            guard let data else { return }
            SequenceDecoder.release(table: data)
        }
        return true
    }

    private static func setMap(_ info: UnsafeMutablePointer<XML_Encoding>, _ scalar: (Int) -> Int32) {
        withUnsafeMutablePointer(to: &info.pointee.map) { tuple in
            tuple.withMemoryRebound(to: Int32.self, capacity: 256) { map in
                for byte in 0..<256 { map[byte] = scalar(byte) }
            }
        }
    }
}

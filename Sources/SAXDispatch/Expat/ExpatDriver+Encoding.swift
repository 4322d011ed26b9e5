private import CExpat

/// What a document's XML declaration says, checked when expat reads it, before it
/// switches encodings: the encoding it names against the document's first bytes, and the
/// XML version it names.
///
/// One rule for a byte order mark against a declaration, the same for every encoding
/// whichever way it is read (expat's own tables, the single-byte tables, iconv through
/// expat's map or through the transcoder), for every document of a concatenated input
/// (its first bytes, not the input's) and every split: a document that starts with a
/// UTF-8 byte order mark and declares an encoding the package reads other than UTF-8 is
/// ``XMLParseError/Code/incorrectEncoding`` at the encoding name, as expat rejects an 8-bit
/// declaration after a UTF-16 mark; so is a UTF-16 document (told by its mark or its
/// first bytes) that declares such an encoding, which expat would otherwise switch to and
/// misread. Without the rule, `é` after a UTF-8 mark and `encoding="EUC-JP"` would read as
/// `辿`.
///
/// A declaration of US-ASCII (or another name for it) stays accepted after a UTF-8 mark:
/// ASCII is UTF-8's first half, and expat rejects any byte above it as an invalid token,
/// so nothing can be misread. The names expat reads itself (the UTF-16 family after a
/// UTF-8 mark; UTF-8, ISO-8859-1 and US-ASCII in UTF-16) are left to expat's own check,
/// which gives the same code at the same place; a name no one reads stays
/// ``XMLParseError/Code/unknownEncoding``. With an encoding override (a string's UTF-8)
/// expat ignores the declaration, and so does this check.
///
/// In a concatenated input whose first document needed the converter ahead of expat
/// (GB18030, ISO-2022-JP, UTF-32, ...), every later document is converted from that
/// encoding too: one that declares another is ``XMLParseError/Code/incorrectEncoding``,
/// not read as mojibake.
///
/// Expat reads XML 1.0 only: a document that declares another version (`1.1`) is read by
/// 1.0's rules. That is a ``ParseWarning`` (``ParseWarning/xmlVersion(_:document:)``) when
/// the declaration is read, and a note on the document's parse errors.
extension ExpatDriver {
    /// Installs the declaration callback, for every document.
    func watchXMLDeclaration(_ parser: OpaquePointer) {
        XML_SetXmlDeclHandler(parser) { userData, version, encoding, _ in
            withDriver(userData) { $0.declarationRead(version: version, encoding: encoding) }
        }
    }

    private func declarationRead(version: UnsafePointer<CChar>?, encoding: UnsafePointer<CChar>?) {
        if let version, case let number = UTF8Text.string(cString: version), number != "1.0" {
            documents.declaredXMLVersion = number
            let document = documents.readsConcatenatedDocuments ? documents.documentNumber : nil
            withSink { $0.warn(.xmlVersion(number, document: document)) }
        }
        guard let encoding else { return }
        let name = UTF8Text.string(cString: encoding)
        inputEncoding.declaredEncodingName = name
        guard !inputEncoding.encodingIsOverridden else { return }
        if let transcoder = inputEncoding.transcoder, documents.documentNumber > 1,
            !Self.namesSameEncoding(name, transcoder.name)
        {
            // The converter ahead of expat read this document's bytes as the first
            // document's encoding: they cannot be read again as another.
            violate(
                .incorrectEncoding,
                "document \(documents.documentNumber) declares encoding=\"\(MessageText.name(name))\", but the input is converted"
                    + " from \(MessageText.name(transcoder.name)) from its first document on: documents one after another"
                    + " that need the converter must all be in its encoding",
                at: declaredEncodingPosition(utf16BigEndian: nil))
            return
        }
        guard inputEncoding.encodingOverride == nil else { return }
        checkDeclaredEncoding(name)
    }

    /// Whether the bytes of the document that expat reads are UTF-8, so that a character
    /// may take several of them (UTF-16 is told from the bytes themselves): read through the
    /// converter, or declared (or overridden) as UTF-8, or not declared at all. A
    /// single-byte encoding or expat's map says otherwise.
    var documentBytesAreUTF8: Bool {
        if inputEncoding.transcoder != nil { return true }
        guard let name = inputEncoding.encodingOverride ?? inputEncoding.declaredEncodingName else { return true }
        return EncodingCatalog.normalized(name) == "UTF8"
    }

    /// `bytes` read in the encoding of the document, which is not UTF-8: a single-byte
    /// table's, iconv's through expat's map, or ISO-8859-1 (expat's own, and the fallback
    /// for bytes that do not convert). Used for the rare entity names above ASCII.
    func decodeInDocumentEncoding(_ bytes: UnsafeRawBufferPointer) -> String {
        let latin1 = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        guard let name = inputEncoding.encodingOverride ?? inputEncoding.declaredEncodingName else { return latin1 }
        if let table = SingleByteEncoding(named: name) {
            let scalars = bytes.compactMap { Unicode.Scalar(UInt32(bitPattern: table.scalar(Int($0)))) }
            return scalars.count == bytes.count ? String(String.UnicodeScalarView(scalars)) : latin1
        }
        guard case .map(let iconvName, _)? = EncodingCatalog.path(for: name), let converter = IconvConverter(from: iconvName)
        else { return latin1 }
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 4)
        let (status, consumed, written) = output.withUnsafeMutableBytes { converter.convert(bytes, into: $0) }
        guard status == .complete, consumed == bytes.count else { return latin1 }
        return String(decoding: output[..<written], as: UTF8.self)
    }

    /// Whether two encoding names name one encoding, as the converter reads them: the same
    /// name but for case and punctuation, or both UTF-32 (the converter tells its byte
    /// order from the bytes).
    static func namesSameEncoding(_ a: String, _ b: String) -> Bool {
        let (a, b) = (EncodingCatalog.normalized(a), EncodingCatalog.normalized(b))
        func isUTF32(_ name: String) -> Bool { name.hasPrefix("UTF32") || name.hasPrefix("UCS4") }
        return a == b || (isUTF32(a) && isUTF32(b))
    }

    /// The first bytes of the document being parsed.
    private var documentLeadingBytes: [UInt8] {
        documents.documentNumber == 1 ? inputEncoding.leadingBytes : documents.laterDocumentLeadingBytes
    }

    /// Ends the parse when the declared encoding contradicts the document's first bytes.
    private func checkDeclaredEncoding(_ name: String) {
        let first = documentLeadingBytes
        if first.starts(with: [0xEF, 0xBB, 0xBF]) {
            guard Self.contradictsUTF8(name) else { return }
            violate(
                .incorrectEncoding,
                "encoding specified in XML declaration is incorrect: the document starts with a UTF-8 byte order mark"
                    + " but declares encoding=\"\(MessageText.name(name))\"",
                at: declaredEncodingPosition(utf16BigEndian: nil))
        } else if let bigEndian = Self.utf16ByteOrder(first) {
            guard Self.contradictsUTF16(name) else { return }
            violate(
                .incorrectEncoding,
                "encoding specified in XML declaration is incorrect: the document is in UTF-16, as its first bytes say,"
                    + " but declares encoding=\"\(MessageText.name(name))\"",
                at: declaredEncodingPosition(utf16BigEndian: bigEndian))
        }
    }

    /// Whether a declaration of `name` contradicts a UTF-8 byte order mark: an encoding the
    /// package reads that gives bytes above ASCII another meaning than UTF-8 does.
    static func contradictsUTF8(_ name: String) -> Bool {
        if let table = SingleByteEncoding(named: name) { return table.definesBytesAboveASCII }
        if EncodingCatalog.isExpatBuiltIn(name) { return false }
        return EncodingCatalog.path(for: name) != nil
    }

    /// Whether a declaration of `name` contradicts a UTF-16 document: an 8-bit encoding
    /// (or UTF-32) that the package reads and expat does not check itself.
    static func contradictsUTF16(_ name: String) -> Bool {
        if EncodingCatalog.isExpatBuiltIn(name) { return false }
        if SingleByteEncoding(named: name) != nil { return true }
        return EncodingCatalog.path(for: name) != nil
    }

    /// Whether a document's first bytes say UTF-16 (a byte order mark, or `<` as a code
    /// unit), and in which byte order; nil when they do not.
    static func utf16ByteOrder(_ first: [UInt8]) -> Bool? {
        guard first.count >= 2 else { return nil }
        switch (first[0], first[1]) {
        case (0xFE, 0xFF), (0x00, 0x3C): return true
        case (0xFF, 0xFE), (0x3C, 0x00): return false
        default: return nil
        }
    }

    /// The position of the encoding name in the XML declaration being reported, where
    /// expat reports its own incorrect-encoding error; the declaration's own position when
    /// the name cannot be found in expat's buffer. `utf16BigEndian` is nil for a document
    /// in an 8-bit encoding.
    private func declaredEncodingPosition(utf16BigEndian: Bool?) -> (line: Int, column: Int, byteOffset: Int) {
        var position = currentPosition()
        var offset: Int32 = 0
        var size: Int32 = 0
        let count = currentEventByteCount
        guard let buffer = XML_GetInputContext(parser, &offset, &size), offset >= 0, Int(offset) + count <= Int(size)
        else { return position }
        let raw = UnsafeRawBufferPointer(start: buffer + Int(offset), count: count)
        // The declaration's characters, one byte each: every character of a declaration is
        // ASCII, a code unit of UTF-16 whose other byte is zero.
        let unit = utf16BigEndian == nil ? 1 : 2
        let declaration: [UInt8] = stride(from: 0, to: count - unit + 1, by: unit).map { index in
            guard let bigEndian = utf16BigEndian else { return raw[index] }
            let (high, low) = bigEndian ? (raw[index], raw[index + 1]) : (raw[index + 1], raw[index])
            return high == 0 ? low : 0xFF
        }
        guard let nameOffset = declaration.withUnsafeBytes({ XMLDeclarationScan.encodingValueOffset(in: $0) }) else { return position }
        // Every character before the name is ASCII: one column each, and CR LF, CR or LF
        // one line break.
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
        position.byteOffset += nameOffset * unit
        return position
    }
}

/// Expat's unknown-encoding callback: the encodings expat does not read itself but can
/// read through a map of the 256 byte values (single-byte tables, and the multi-byte
/// encodings whose lead byte decides a sequence's length, converted by iconv).
extension ExpatDriver {
    /// Installs the callback; an encoding it cannot read is remembered for the error's
    /// message. The corresponding expat function is `XML_SetUnknownEncodingHandler`.
    /// With it, the XML declaration's callback (``watchXMLDeclaration(_:)``), which checks
    /// the encoding a declaration names before expat asks here about it.
    func installUnknownEncodingHandler(_ parser: OpaquePointer) {
        watchXMLDeclaration(parser)
        XML_SetUnknownEncodingHandler(
            parser,
            { userData, name, info in
                guard let name, let info else { return 0 }
                let encoding = UTF8Text.string(cString: name)
                guard ExpatDriver.fill(info, for: encoding) else {
                    withDriver(userData) { $0.inputEncoding.unknownEncodingName = encoding }
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

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finds the entity references (`&name;`, not `&#…;`) in the input bytes of a start tag or
/// of an attribute default's literal as expat read them, with the position of each.
///
/// In a tag, `&` can only start a reference in an attribute value, so the scan needs no
/// grammar. The bytes are in the document's encoding: UTF-16 (either byte order), or an
/// ASCII-compatible one (UTF-8, or an encoding in which every byte below 0x80 is that
/// ASCII character, which holds for every encoding the package reads: `&`, `;`, `#` and
/// line ends are never part of a multi-byte character, except as the second byte of a
/// sequence of expat's map, such as JOHAB's, which the scan steps over whole with ``leads``).
/// A name is read as UTF-8 when the document's bytes are UTF-8 (``bytesAreUTF8``), else as
/// ISO-8859-1.
struct EntityReferenceScan {
    enum Form {
        case asciiCompatible
        case utf16LittleEndian
        case utf16BigEndian
    }

    let bytes: UnsafeRawBufferPointer
    let form: Form
    /// The lead bytes of the multi-byte encoding expat reads through its map, if it does:
    /// a sequence is then one character (one column), as expat counts it.
    var leads: EncodingCatalog.LeadBytes? = nil
    /// Whether the bytes are UTF-8 (a character may take several), rather than an 8-bit
    /// encoding in which each byte is a character; ignored for UTF-16 and with ``leads``.
    var bytesAreUTF8 = true
    /// Reads a name holding bytes above ASCII in the document's encoding, when it is not
    /// UTF-8 (ISO-8859-1 when not given): names are compared with the declared ones, which
    /// expat gives in UTF-8.
    var decodeName: ((UnsafeRawBufferPointer) -> String)? = nil

    /// The form of a token that starts with an ASCII character (`<`, a quote).
    static func form(of bytes: UnsafeRawBufferPointer) -> Form {
        if bytes.count >= 2 && bytes[0] == 0 { return .utf16BigEndian }
        if bytes.count >= 2 && bytes[1] == 0 { return .utf16LittleEndian }
        return .asciiCompatible
    }

    private var unitSize: Int { form == .asciiCompatible ? 1 : 2 }

    private func unit(at index: Int) -> UInt16 {
        switch form {
        case .asciiCompatible: UInt16(bytes[index])
        case .utf16LittleEndian: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
        case .utf16BigEndian: UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
        }
    }

    /// Whether the bytes hold an `&` at all: most tags do not, and cost no more than this.
    var mayHoldReferences: Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        return memchr(base, 0x26, bytes.count) != nil
    }

    /// Calls `body` with the name of each reference but the predefined ones (`&lt;`…) and
    /// the index of its `&` in ``bytes``, until `body` returns `false`.
    func forEachReference(_ body: (String, Int) -> Bool) {
        let size = unitSize
        var index = 0
        let end = bytes.count - size + 1
        while index < end {
            guard unit(at: index) == 0x26 else {
                index += step(at: index)
                continue
            }
            let nameStart = index + size
            var nameEnd = nameStart
            while nameEnd < end, case let next = unit(at: nameEnd), next != 0x3B, next >= 0x80 || !Self.endsName(next) {
                nameEnd += step(at: nameEnd)
            }
            if nameEnd < end && unit(at: nameEnd) == 0x3B && nameEnd > nameStart && unit(at: nameStart) != 0x23
                && !isPredefined(from: nameStart, to: nameEnd)
            {
                let name = self.name(UnsafeRawBufferPointer(rebasing: bytes[nameStart..<nameEnd]))
                guard body(name, index) else { return }
            }
            index = max(nameEnd, nameStart)
        }
    }

    /// The bytes of the character at `index`: a whole sequence of expat's map (whose second
    /// byte may look like `;` or `<`), else one unit.
    private func step(at index: Int) -> Int {
        guard let leads, form == .asciiCompatible, bytes[index] >= 0x80 else { return unitSize }
        return max(1, leads.length(Int(bytes[index])))
    }

    /// Whether the name between `start` and `end` is one XML predefines (lt, gt, amp, quot, apos).
    private func isPredefined(from start: Int, to end: Int) -> Bool {
        let count = (end - start) / unitSize
        guard count >= 2 && count <= 4 else { return false }
        var units: (UInt16, UInt16, UInt16, UInt16) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &units) { raw in
            let buffer = raw.bindMemory(to: UInt16.self)
            for offset in 0..<count { buffer[offset] = unit(at: start + offset * unitSize) }
        }
        switch units {
        case (0x6C, 0x74, 0, 0), (0x67, 0x74, 0, 0), (0x61, 0x6D, 0x70, 0), (0x71, 0x75, 0x6F, 0x74),
            (0x61, 0x70, 0x6F, 0x73):
            return true
        default:
            return false
        }
    }

    /// The position of the unit at `target`, moved from `start` (the position of the first
    /// byte) by the characters before it, counted as expat counts them: a line end (CR LF,
    /// CR or LF) starts a line, and every other character is a column.
    func position(
        of target: Int, from start: (line: Int, column: Int, byteOffset: Int)
    ) -> (line: Int, column: Int, byteOffset: Int) {
        let size = unitSize
        let countsUTF8Characters =
            form == .asciiCompatible && leads == nil && bytesAreUTF8
            && Self.isValidUTF8(UnsafeRawBufferPointer(rebasing: bytes[..<target]))
        var position = start
        var index = 0
        while index < target {
            let value = unit(at: index)
            if let leads, value >= 0x80 {
                position.column += 1
                index += max(1, leads.length(Int(value)))
                continue
            }
            switch value {
            case 0x0D:
                position.line += 1
                position.column = 1
                if index + size < target && unit(at: index + size) == 0x0A { index += size }
            case 0x0A:
                position.line += 1
                position.column = 1
            case 0xDC00...0xDFFF where form != .asciiCompatible:
                break  // the second half of a pair, counted with the first
            case 0x80...0xBF where countsUTF8Characters:
                break  // a UTF-8 continuation byte
            default:
                position.column += 1
            }
            index += size
        }
        position.byteOffset = start.byteOffset + target
        return position
    }

    private static func endsName(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x26, 0x20, 0x09, 0x0A, 0x0D, 0x22, 0x27, 0x3C, 0x3E: true
        default: false
        }
    }

    private func name(_ raw: UnsafeRawBufferPointer) -> String {
        switch form {
        case .asciiCompatible:
            if !raw.contains(where: { $0 >= 0x80 }) || (bytesAreUTF8 && leads == nil && Self.isValidUTF8(raw)) {
                return String(decoding: raw, as: UTF8.self)
            }
            if let decodeName { return decodeName(raw) }
            return String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) }))
        case .utf16LittleEndian, .utf16BigEndian:
            let scan = EntityReferenceScan(bytes: raw, form: form)
            let units: [UInt16] = stride(from: 0, to: raw.count - 1, by: 2).map { scan.unit(at: $0) }
            return String(decoding: units, as: UTF16.self)
        }
    }

    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}

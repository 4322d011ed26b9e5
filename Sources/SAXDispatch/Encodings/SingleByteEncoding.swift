/// A single-byte encoding from ``SingleByteEncodingTables``, for expat's unknown-encoding callback.
struct SingleByteEncoding {
    private let offset: Int

    /// Looks an encoding up by any of its names, ignoring case.
    init?(named name: String) {
        guard let index = SingleByteEncodingTables.indexByName[name.lowercased()] else { return nil }
        offset = index * 128
    }

    /// The Unicode scalar value of `byte`, or -1 when the encoding does not define it.
    func scalar(_ byte: Int) -> Int32 {
        guard byte >= 0x80 else { return Int32(byte) }
        let value = SingleByteEncodingTables.upperHalves[offset + byte - 0x80]
        return value == 0xFFFF ? -1 : Int32(value)
    }
}

extension SingleByteEncoding {
    /// Whether the encoding gives any byte above 0x7F a meaning: false only for the
    /// tables that are ASCII under another name.
    var definesBytesAboveASCII: Bool {
        (0x80...0xFF).contains { scalar($0) != -1 }
    }
}

/// Converts one multi-byte sequence for expat's map (its `convert` callback), which has
/// already decided the sequence's length from its lead byte.
///
/// Two-byte sequences are converted by iconv once per distinct sequence a document
/// holds, then looked up: the encodings read through a map are stateless, so a sequence
/// always means the same character.
///
/// Expat calls the callback for every multi-byte character it checks and again for each
/// it converts, so the lookup is what the callback does first, straight from the pointer
/// expat hands back (``retainedTable()``), without reaching the object: the table begins
/// with a header that holds the decoder, and only a sequence met for the first time, or one
/// longer than two bytes, goes to it.
final class SequenceDecoder {
    private let converter: IconvConverter
    private let leads: EncodingCatalog.LeadBytes
    /// The sequences the published table reads otherwise than iconv (``EncodingTableOverrides``).
    private let overrides: [UInt32: UInt32]
    /// The header (the decoder, unretained) and then the scalar of each two-byte sequence
    /// met so far, by `lead << 8 | trail`; `unknown` until the sequence is first converted.
    private let table: UnsafeMutableRawPointer
    private static let unknown = Int32.min
    /// Bytes before the scalars: room for a pointer, aligned for `Int32`.
    private static let headerSize = MemoryLayout<UnsafeRawPointer>.stride

    init(converter: IconvConverter, leads: EncodingCatalog.LeadBytes, overrides: [UInt32: UInt32] = [:]) {
        self.converter = converter
        self.leads = leads
        self.overrides = overrides
        table = .allocate(byteCount: Self.headerSize + (1 << 16) * 4, alignment: MemoryLayout<UnsafeRawPointer>.alignment)
        (table + Self.headerSize).initializeMemory(as: Int32.self, repeating: Self.unknown, count: 1 << 16)
        table.storeBytes(of: Unmanaged.passUnretained(self).toOpaque(), as: UnsafeMutableRawPointer.self)
    }

    deinit {
        table.deallocate()
    }

    /// The pointer to hand expat as the callback's data; it keeps the decoder alive until
    /// ``release(table:)``.
    func retainedTable() -> UnsafeMutableRawPointer {
        _ = Unmanaged.passRetained(self)
        return table
    }

    /// Ends the life that ``retainedTable()`` gave the decoder.
    static func release(table: UnsafeMutableRawPointer) {
        Unmanaged<SequenceDecoder>.fromOpaque(table.load(as: UnsafeMutableRawPointer.self)).release()
    }

    /// The scalar value of the sequence at `bytes`, or -1 when it is invalid. Expat reads
    /// only characters of the Basic Multilingual Plane through a map, so others are -1 too.
    ///
    /// Expat calls this only for a lead byte its map gives a length of two or more, with
    /// that many bytes at `bytes`, so the second byte is always there to read.
    @inline(__always)
    static func scalar(at bytes: UnsafePointer<CChar>, table: UnsafeMutableRawPointer) -> Int32 {
        let key = Int(UInt8(bitPattern: bytes[0])) << 8 | Int(UInt8(bitPattern: bytes[1]))
        let known = table.load(fromByteOffset: headerSize + key &* 4, as: Int32.self)
        if _fastPath(known != unknown) { return known }
        return Unmanaged<SequenceDecoder>.fromOpaque(table.load(as: UnsafeMutableRawPointer.self))
            ._withUnsafeGuaranteedRef { $0.scalarConverting(bytes, key: key) }
    }

    /// A sequence not met before, or longer than two bytes (which is never remembered, so
    /// that its first two bytes are never taken for a two-byte sequence).
    private func scalarConverting(_ bytes: UnsafePointer<CChar>, key: Int) -> Int32 {
        let length = leads.length(key >> 8)
        guard length == 2 else { return convert(bytes, length: length) }
        let scalar = convert(bytes, length: 2)
        (table + Self.headerSize).storeBytes(of: scalar, toByteOffset: key * 4, as: Int32.self)
        return scalar
    }

    private func convert(_ bytes: UnsafePointer<CChar>, length: Int) -> Int32 {
        if !overrides.isEmpty {
            var key: UInt32 = 0
            for index in 0..<length { key = key << 8 | UInt32(UInt8(bitPattern: bytes[index])) }
            if let scalar = overrides[key] { return Int32(scalar) }
        }
        let scalar = converter.scalar(of: UnsafeRawBufferPointer(start: bytes, count: length))
        guard let scalar, scalar <= 0xFFFF else { return -1 }
        return Int32(scalar)
    }
}

/// The UTF-8 of each two-byte sequence of a stateless, ASCII-compatible encoding (GB18030)
/// that the ``EncodingTranscoder`` has met, converted by iconv once per distinct sequence:
/// a document's text repeats a few thousand characters, and iconv spends far more on a
/// call, and per byte on ASCII, than a lookup costs.
///
/// A sequence that iconv does not convert to one character of at most three UTF-8 bytes
/// (a four-byte sequence's first half, an invalid pair, a character outside the Basic
/// Multilingual Plane) is remembered as such, and the transcoder gives it to iconv.
final class TwoByteSequenceCache {
    /// By `first << 8 | second`: 0 until met; `uncached`; or the UTF-8 bytes, first
    /// byte lowest, and their count in the top byte.
    private let entries: UnsafeMutablePointer<UInt32>
    static let uncached = UInt32.max
    /// Two-byte sequences read by the published table rather than by iconv
    /// (``EncodingTableOverrides``), by `first << 8 | second`.
    private let overrides: [UInt32: UInt32]

    init(overrides: [UInt32: UInt32] = [:]) {
        self.overrides = overrides
        entries = .allocate(capacity: 1 << 16)
        entries.initialize(repeating: 0, count: 1 << 16)
    }

    deinit { entries.deallocate() }

    /// The entry of the sequence `first`, `second`, converting it with `converter` when it
    /// is met for the first time.
    @inline(__always)
    func entry(_ first: UInt8, _ second: UInt8, converter: IconvConverter) -> UInt32 {
        let key = Int(first) << 8 | Int(second)
        let entry = entries[key]
        if _fastPath(entry != 0) { return entry }
        return convert(first, second, key: key, converter: converter)
    }

    private func convert(_ first: UInt8, _ second: UInt8, key: Int, converter: IconvConverter) -> UInt32 {
        if let scalar = overrides[UInt32(key)].flatMap(Unicode.Scalar.init) {
            var entry: UInt32 = 0
            var count: UInt32 = 0
            for byte in UTF8.encode(scalar) ?? UTF8.EncodedScalar() {
                entry |= UInt32(byte) << (8 * count)
                count += 1
            }
            entries[key] = entry | count << 24
            return entries[key]
        }
        var input = (first, second)
        var output: UInt32 = 0
        let (status, consumed, written) = withUnsafeBytes(of: &input) { bytes in
            withUnsafeMutableBytes(of: &output) { converter.convert(bytes, into: $0) }
        }
        converter.reset()
        let entry: UInt32
        if status == .complete && consumed == 2 && (1...3).contains(written) {
            entry = UInt32(littleEndian: output) & 0x00FF_FFFF | UInt32(written) << 24
        } else {
            entry = Self.uncached
        }
        entries[key] = entry
        return entry
    }
}

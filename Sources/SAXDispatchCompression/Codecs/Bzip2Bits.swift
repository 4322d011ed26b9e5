/// The bit-level layout of bzip2 that splitting a stream into its blocks needs: the two
/// 48-bit markers, a block header's first fields, and a stream of one block rebuilt from
/// a block's bits.
///
/// A bzip2 stream is `BZh` and a block-size digit, then blocks that each begin with the
/// block marker (the digits of pi, `0x314159265359`) and the block's CRC, then the end
/// marker (the digits of the square root of pi, `0x177245385090`) and a CRC combined from
/// every block's, padded to a byte. Blocks and the end marker sit at any bit offset.
enum Bzip2Bits {
    static let blockMarker: UInt64 = 0x3141_5926_5359
    static let endMarker: UInt64 = 0x1772_4538_5090

    /// What a marker found at a bit offset is.
    enum Marker {
        case block
        case end
    }

    /// The first marker at or after bit `from` of `bytes` (bit 0 is the first byte's high
    /// bit) whose 48 bits, and the 16 after them, are in `bytes`; `nil` if there is none yet.
    static func firstMarker(in bytes: UnsafeRawBufferPointer, from: Int) -> (bit: Int, marker: Marker)? {
        guard from >= 0 else { return nil }
        var index = from >> 3
        // A marker at bit `index * 8 + shift` fills the top 48 bits of the word read at
        // `index` shifted left by `shift`: eight bytes must be there.
        while index + 8 <= bytes.count {
            let word = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            for shift in 0..<8 {
                let value = (word &<< UInt64(shift)) &>> 16
                if value == blockMarker || value == endMarker {
                    let bit = index * 8 + shift
                    if bit >= from { return (bit, value == blockMarker ? .block : .end) }
                }
            }
            index += 1
        }
        return nil
    }

    /// `count` bits (at most 57) from bit `bit` of `bytes`, as the low bits of the result;
    /// `nil` when they are not all in `bytes`.
    static func bits(_ bytes: UnsafeRawBufferPointer, at bit: Int, count: Int) -> UInt64? {
        guard bit >= 0, count <= 57, bit + count <= bytes.count * 8 else { return nil }
        var value: UInt64 = 0
        let first = bit >> 3
        let last = (bit + count - 1) >> 3
        for index in first...last { value = value << 8 | UInt64(bytes[index]) }
        let trailing = (last + 1) * 8 - (bit + count)
        return (value >> UInt64(trailing)) & ((1 << UInt64(count)) - 1)
    }

    /// Whether what follows a block marker at bit `bit` reads as a block header for block
    /// size digit `level`: an origin pointer within the block, at least one byte value in
    /// use, two to six Huffman tables and at least one selector. `nil` while the header is
    /// not all in `bytes`.
    ///
    /// Random bits that happen to spell the 48-bit marker pass this too about one time in
    /// 2^7, so a cut inside a block's data is about one in 2^55 per bit of input.
    static func isBlockHeader(_ bytes: UnsafeRawBufferPointer, at bit: Int, level: Int) -> Bool? {
        var cursor = bit + 48 + 32 + 1  // marker, block CRC, randomised flag
        guard let origin = Self.bits(bytes, at: cursor, count: 24) else { return nil }
        guard origin < UInt64(level * 100_000) else { return false }
        cursor += 24
        guard let groupsInUse = Self.bits(bytes, at: cursor, count: 16) else { return nil }
        guard groupsInUse != 0 else { return false }
        cursor += 16
        var used = 0
        for group in 0..<16 where groupsInUse & (1 << (15 - UInt64(group))) != 0 {
            guard let inUse = Self.bits(bytes, at: cursor, count: 16) else { return nil }
            used += inUse.nonzeroBitCount
            cursor += 16
        }
        guard used > 0 else { return false }
        guard let tables = Self.bits(bytes, at: cursor, count: 3) else { return nil }
        guard (2...6).contains(tables) else { return false }
        guard let selectors = Self.bits(bytes, at: cursor + 3, count: 15) else { return nil }
        return selectors > 0
    }

    /// The stream of bytes `header` (`BZh` and the size digit) followed by the bits
    /// `[start, end)` of `bytes` (whole blocks), the end marker and `combinedCRC`: a stream
    /// a decompressor reads on its own. With `ending` false, the stream stops after the
    /// blocks' bits, as a truncated one does.
    static func stream(
        header: [UInt8], blocksOf bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, combinedCRC: UInt32,
        ending: Bool = true
    ) -> [UInt8] {
        var writer = BitWriter(capacity: header.count + (end - start) / 8 + 12)
        writer.bytes += header
        writer.append(bits: bytes, from: start, to: end)
        if ending {
            writer.append(endMarker, count: 48)
            writer.append(UInt64(combinedCRC), count: 32)
        }
        return writer.finish()
    }

    /// The CRC a stream's end carries after `blockCRC` when it was `combined` before.
    static func combine(_ combined: UInt32, _ blockCRC: UInt32) -> UInt32 {
        (combined << 1 | combined >> 31) ^ blockCRC
    }
}

/// Bits appended most significant first, padded with zeros to a byte at the end.
private struct BitWriter {
    var bytes: [UInt8]
    /// Bits waiting to fill a byte: the low `pendingCount` bits of `pending`.
    private var pending: UInt64 = 0
    private var pendingCount = 0

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends the low `count` bits (at most 56) of `value`.
    mutating func append(_ value: UInt64, count: Int) {
        pending = pending << UInt64(count) | (value & ((1 << UInt64(count)) - 1))
        pendingCount += count
        while pendingCount >= 8 {
            pendingCount -= 8
            bytes.append(UInt8(truncatingIfNeeded: pending >> UInt64(pendingCount)))
        }
        pending &= (1 << UInt64(pendingCount)) - 1
    }

    /// Appends bits `[start, end)` of `source`.
    mutating func append(bits source: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        var bit = start
        // Whole bytes while the writer is on a byte boundary (it is after a header): each
        // output byte is one source byte, or two neighbouring ones shifted.
        if pendingCount == 0 {
            let shift = UInt8(bit & 7)
            var index = bit >> 3
            var whole = (end - bit) >> 3
            // A shifted byte reads the source byte after it too, which must be there.
            if shift != 0 { whole = min(whole, source.count - index - 1) }
            if whole > 0 {
                if shift == 0 {
                    bytes += UnsafeRawBufferPointer(rebasing: source[index..<(index + whole)])
                } else {
                    for _ in 0..<whole {
                        bytes.append(source[index] << shift | source[index + 1] >> (8 - shift))
                        index += 1
                    }
                }
                bit += whole * 8
            }
        }
        append(bits: source, slowlyFrom: bit, to: end)
    }

    /// Appends bits `[start, end)` of `source` a few at a time.
    private mutating func append(bits source: UnsafeRawBufferPointer, slowlyFrom start: Int, to end: Int) {
        var bit = start
        while bit < end {
            let count = min(32, end - bit)
            append(Bzip2Bits.bits(source, at: bit, count: count) ?? 0, count: count)
            bit += count
        }
    }

    /// The bytes, the last one padded with zero bits.
    mutating func finish() -> [UInt8] {
        if pendingCount > 0 {
            bytes.append(UInt8(truncatingIfNeeded: pending << UInt64(8 - pendingCount)))
            pending = 0
            pendingCount = 0
        }
        return bytes
    }
}

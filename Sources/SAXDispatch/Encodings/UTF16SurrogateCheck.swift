/// Finds unpaired surrogates in UTF-16 input before expat sees them.
///
/// Expat 2.5.0 as Debian 12 first shipped it decodes a high surrogate followed by
/// anything as a pair (`D800` then `x` decodes as U+10078), so handlers would receive a
/// character the document does not contain. The check recognizes UTF-16 exactly as
/// expat's initial scan of a document does, from the first two bytes: a byte order mark
/// (`FE FF`, `FF FE`), else a zero first byte (big-endian) or a zero second byte
/// (little-endian), whatever the other byte is: a document that starts with whitespace
/// in UTF-16 is UTF-16 to expat, so it must be to the check. It is idle for every other
/// encoding.
struct UTF16SurrogateCheck {
    private enum Mode {
        /// Fewer than two bytes seen.
        case undetermined
        case littleEndian
        case bigEndian
        /// Not UTF-16: nothing to check.
        case off
    }

    private var mode = Mode.undetermined
    /// The first byte, while the second has not arrived.
    private var firstByte: UInt8?
    /// A code unit's first byte, when a feed ended between its two bytes.
    private var pendingByte: UInt8?
    /// Whether the last code unit was a high surrogate, so the next must be a low one.
    private var expectsLowSurrogate = false

    /// Whether the input is known not to be UTF-16.
    var isOff: Bool { mode == .off }

    /// Whether the input is UTF-16, as expat reads it.
    var isUTF16: Bool { mode == .littleEndian || mode == .bigEndian }

    /// Whether the input is big-endian UTF-16.
    var isBigEndian: Bool { mode == .bigEndian }

    /// Scans the next piece of input.
    ///
    /// - Returns: the offset in `bytes` of the first byte of the code unit that shows a
    ///   surrogate is unpaired (the unit after a high surrogate, or a lone low surrogate),
    ///   or `nil` when the piece is fine so far.
    mutating func firstInvalidOffset(in bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        if mode == .undetermined {
            guard let byte = bytes.first else { return nil }
            guard let first = firstByte else {
                firstByte = byte
                guard bytes.count > 1 else { return nil }
                return continueDetermining(bytes, from: 1)
            }
            _ = first
            return continueDetermining(bytes, from: 0)
        }
        guard mode != .off else { return nil }
        if let pending = pendingByte {
            guard let second = bytes.first else { return nil }
            pendingByte = nil
            index = 1
            if !accept(unit(pending, second)) { return 0 }
        }
        return scan(bytes, from: index)
    }

    private mutating func continueDetermining(_ bytes: UnsafeRawBufferPointer, from index: Int) -> Int? {
        guard let first = firstByte else { return nil }
        let second = bytes[index]
        switch (first, second) {
        case (0xFE, 0xFF): mode = .bigEndian
        case (0xFF, 0xFE): mode = .littleEndian
        case (0x00, _): mode = .bigEndian
        case (_, 0x00): mode = .littleEndian
        default:
            mode = .off
            return nil
        }
        // The first unit is a byte order mark or has a zero byte: neither is a surrogate.
        return scan(bytes, from: index + 1)
    }

    private mutating func scan(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if !accept(unit(bytes[index], bytes[index + 1])) { return index }
            index += 2
        }
        if index < bytes.count { pendingByte = bytes[index] }
        return nil
    }

    @inline(__always)
    private func unit(_ first: UInt8, _ second: UInt8) -> UInt16 {
        mode == .littleEndian ? UInt16(second) << 8 | UInt16(first) : UInt16(first) << 8 | UInt16(second)
    }

    /// Takes one code unit; `false` when it shows an unpaired surrogate.
    @inline(__always)
    private mutating func accept(_ unit: UInt16) -> Bool {
        let isHigh = unit & 0xFC00 == 0xD800
        let isLow = unit & 0xFC00 == 0xDC00
        if expectsLowSurrogate {
            expectsLowSurrogate = false
            return isLow
        }
        expectsLowSurrogate = isHigh
        return !isLow
    }
}

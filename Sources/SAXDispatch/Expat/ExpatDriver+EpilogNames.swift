/// A name at the end of a feed after the root element, held back so that the error it is
/// does not depend on how the input was split.
///
/// After the root, expat 2.5.0 reads a name (or `#name`, or `)`) that ends a non-final
/// input as junk after the document element, at its first character. Fed whole, the same
/// name followed by a character that cannot follow it (`x=`, `x\u{02}`) is an invalid
/// token at that character instead. Holding the name back until the next feed (or the
/// last) lets expat see what follows it, as it does when the input is fed whole.
///
/// What must stay true: only a feed that ends in such a run pays more than a test of its
/// last byte, and inside the root nothing is held (a feed that ends in a name while the
/// root is open is parsed in two calls, so that the root's end inside it is seen before the
/// name is given); a run longer than ``longestHeldEpilogName`` is given as it is, so held
/// input stays bounded whatever the input.
extension ExpatDriver {
    /// The longest trailing name held back: a junk name longer than this after the root is
    /// reported at its start, whatever follows it.
    static let longestHeldEpilogName = 4096

    /// Parses `bytes`, a feed that is not the last, holding back a name at its end
    /// (``trailingNameRun(_:)``) when the root element ended before it. When the root is
    /// still open, what precedes the name is parsed first, since the root may end there.
    /// - Returns: how the parse went, and how many bytes at the end of `bytes` were held back.
    func parseHoldingEpilogName(_ bytes: UnsafeRawBufferPointer) -> (FeedResult, tail: Int) {
        let run = trailingNameRun(bytes)
        guard run > 0, let sink else { return (parse(bytes, isFinal: false), 0) }
        let before = UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - run)])
        if sink.documentEndedAndParseGoesOn { return (parse(before, isFinal: false), run) }
        guard run < bytes.count else { return (parse(bytes, isFinal: false), 0) }
        let result = parse(before, isFinal: false)
        if result != .accepted || sink.documentEndedAndParseGoesOn { return (result, run) }
        return (parse(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - run)...]), isFinal: false), 0)
    }

    /// Whether `bytes` may end in a name (``trailingNameRun(_:)``), by its last byte alone
    /// (in UTF-16, always: a code unit's two bytes decide).
    @inline(__always)
    func mayEndInName(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let last = bytes.last else { return false }
        return Self.continuesName(last) || last == 0x29 || inputEncoding.surrogateCheck.isUTF16
    }

    /// The bytes at the end of `bytes` that expat would read as an unfinished name, `#name`
    /// or `)` in the prolog's tokens, with a `)` before a name (which the name's first
    /// character makes an invalid token): 0 when there are none, or more than
    /// ``longestHeldEpilogName``.
    @inline(__always)
    func trailingNameRun(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let last = bytes.last else { return 0 }
        if inputEncoding.surrogateCheck.isUTF16 { return trailingUTF16NameRun(bytes) }
        guard Self.continuesName(last) || last == 0x29 else { return 0 }
        if last == 0x29 { return 1 }
        var start = bytes.count - 1
        let lowest = max(0, bytes.count - Self.longestHeldEpilogName)
        while start > lowest && Self.continuesName(bytes[start - 1]) { start -= 1 }
        if start == lowest && lowest > 0 { return 0 }
        if start > 0 && (bytes[start - 1] == 0x23 || bytes[start - 1] == 0x29) { start -= 1 }
        return bytes.count - start
    }

    /// ``trailingNameRun(_:)`` in UTF-16, by code units from where the document started (a
    /// trailing odd byte is the start of a unit, held with a run before it).
    private func trailingUTF16NameRun(_ bytes: UnsafeRawBufferPointer) -> Int {
        let bigEndian = inputEncoding.surrogateCheck.isBigEndian
        let odd = (holdback.bytesGiven - documents.documentStart.byteOffset + bytes.count) & 1
        func unit(endingAt end: Int) -> UInt16? {
            guard end >= 2 else { return nil }
            let (first, second) = (UInt16(bytes[end - 2]), UInt16(bytes[end - 1]))
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        func continuesName(_ unit: UInt16) -> Bool { unit >= 0x80 || Self.continuesName(UInt8(unit)) }
        var start = bytes.count - odd
        guard let last = unit(endingAt: start), continuesName(last) || last == 0x29 else { return 0 }
        if last == 0x29 { return 2 + odd }
        let lowest = max(0, bytes.count - Self.longestHeldEpilogName)
        while start - 2 >= lowest, let before = unit(endingAt: start), continuesName(before) { start -= 2 }
        if start - 2 < lowest && lowest > 0 { return 0 }
        if let before = unit(endingAt: start), before == 0x23 || before == 0x29 { start -= 2 }
        return bytes.count - start
    }

    /// Whether expat's prolog tokens read `byte` as part of a name: an ASCII letter, digit,
    /// `-`, `.`, `_` or `:`, or any byte of a multi-byte character (held back too when it is
    /// not a name character: expat then reads the same invalid token either way).
    @inline(__always)
    static func continuesName(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x61...0x7A, 0x41...0x5A, 0x30...0x3A, 0x2D, 0x2E, 0x5F, 0x80...: true
        default: false
        }
    }
}

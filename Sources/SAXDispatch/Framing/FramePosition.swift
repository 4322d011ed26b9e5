/// A line and column counted over a document's bytes as expat counts them, so that a
/// position the framer reports equals the one a parse of the same bytes reports.
///
/// Expat ends a line at a line feed, a carriage return, or the pair `\r\n` (one break);
/// a column is a character of the input encoding: in UTF-8 every byte but a continuation
/// byte starts one, in a single-byte encoding every byte is one. Lines and columns start
/// at 1, as ``ElementContext/line`` and ``ElementContext/column`` do.
///
/// What must stay true: the counter sees every byte of the document once, in order, and
/// nothing else; a `\r` at the end of one piece and a `\n` at the start of the next are
/// one break.
package struct FramePosition: Sendable, Equatable {
    package private(set) var line = 1
    package private(set) var column = 1
    /// Whether the byte before was a carriage return, so that a line feed now ends no line.
    private var afterCarriageReturn = false
    /// Whether continuation bytes (`10xxxxxx`) continue a character (UTF-8) rather than
    /// being characters of their own (a single-byte encoding).
    private var continuationBytesContinue: Bool

    /// Whether characters are counted as UTF-8 (rather than a byte each).
    package var countsUTF8: Bool { continuationBytesContinue }

    package init(utf8: Bool) {
        continuationBytesContinue = utf8
    }

    /// The position `line`, `column` (from 1), after a byte that is not a carriage return.
    package init(line: Int, column: Int, utf8: Bool) {
        self.line = line
        self.column = column
        continuationBytesContinue = utf8
    }

    /// Counts every byte as a character from now on: the document declared a single-byte
    /// encoding.
    package mutating func countEveryByte() {
        continuationBytesContinue = false
    }

    /// Counts `bytes`, the next bytes of the document. Without a carriage return, line
    /// feeds are counted (and carriage returns looked for) sixteen bytes at a time in one
    /// pass, and the characters after the last line feed sixteen at a time; with one, a byte
    /// at a time.
    package mutating func count(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let start = base.assumingMemoryBound(to: UInt8.self)
        let count = bytes.count
        if afterCarriageReturn { return countEach(start, count) }
        guard let feeds = Self.lineFeeds(start, count) else { return countEach(start, count) }
        guard feeds > 0 else {
            column &+= characters(start, count)
            return
        }
        line &+= feeds
        var lineStart = count
        while start[lineStart - 1] != 0x0A { lineStart -= 1 }
        column = 1 &+ characters(start + lineStart, count - lineStart)
    }

    /// How many of `count` bytes match, sixteen at a time: each vector's matching lanes
    /// (0xFF) are subtracted from byte lanes, summed at most 252 vectors at a time so that
    /// none wraps. `matches` gets the sixteen bytes at an index and gives their lanes.
    @inline(__always)
    private static func countLanes(
        _ start: UnsafePointer<UInt8>, _ count: Int, _ matches: (SIMD16<UInt8>) -> SIMD16<UInt8>
    ) -> (total: Int, vectorBytes: Int) {
        func lanes(_ index: Int) -> SIMD16<UInt8> {
            matches(UnsafeRawPointer(start + index).loadUnaligned(as: SIMD16<UInt8>.self))
        }
        var total = 0
        var index = 0
        while index + 16 <= count {
            var sums = SIMD16<UInt8>()
            let blockEnd = min(count, index + 252 * 16)
            while index + 64 <= blockEnd {
                sums &-= lanes(index) &+ lanes(index + 16) &+ lanes(index + 32) &+ lanes(index + 48)
                index += 64
            }
            while index + 16 <= blockEnd {
                sums &-= lanes(index)
                index += 16
            }
            total += Int(SIMD16<UInt16>(truncatingIfNeeded: sums).wrappedSum())
        }
        return (total, index)
    }

    /// How many line feeds `count` bytes hold, or `nil` when they hold a carriage return:
    /// both sought in one pass.
    private static func lineFeeds(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int? {
        let feed = SIMD16<UInt8>(repeating: 0x0A)
        let carriageReturn = SIMD16<UInt8>(repeating: 0x0D)
        var returns = SIMD16<UInt8>()
        let (vectorFeeds, done) = countLanes(start, count) { bytes in
            returns |= unsafeBitCast(bytes .== carriageReturn, to: SIMD16<UInt8>.self)
            return unsafeBitCast(bytes .== feed, to: SIMD16<UInt8>.self)
        }
        if returns != SIMD16<UInt8>() { return nil }
        var total = vectorFeeds
        for index in done..<count {
            if start[index] == 0x0D { return nil }
            if start[index] == 0x0A { total += 1 }
        }
        return total
    }

    /// How many characters `count` bytes hold: every byte, or in UTF-8 every byte but the
    /// continuation bytes (`10xxxxxx`), sixteen at a time.
    private func characters(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int {
        guard continuationBytesContinue else { return count }
        let topBits = SIMD16<UInt8>(repeating: 0xC0)
        let continuation = SIMD16<UInt8>(repeating: 0x80)
        let (continuations, done) = Self.countLanes(start, count) { bytes in
            unsafeBitCast(bytes & topBits .== continuation, to: SIMD16<UInt8>.self)
        }
        var characters = count - continuations
        for index in done..<count where start[index] & 0xC0 == 0x80 {
            characters -= 1
        }
        return characters
    }

    /// Counts `count` bytes one at a time.
    private mutating func countEach(_ start: UnsafePointer<UInt8>, _ count: Int) {
        var line = self.line
        var column = self.column
        var afterCarriageReturn = self.afterCarriageReturn
        let utf8 = continuationBytesContinue
        for index in 0..<count {
            let byte = start[index]
            if byte == 0x0A {
                if !afterCarriageReturn {
                    line &+= 1
                    column = 1
                }
                afterCarriageReturn = false
            } else if byte == 0x0D {
                line &+= 1
                column = 1
                afterCarriageReturn = true
            } else {
                afterCarriageReturn = false
                if !utf8 || byte & 0xC0 != 0x80 { column &+= 1 }
            }
        }
        self.line = line
        self.column = column
        self.afterCarriageReturn = afterCarriageReturn
    }
}

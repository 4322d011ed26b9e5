#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
    /// feeds are counted sixteen bytes at a time and the characters after the last one
    /// eight bytes at a time; with one, a byte at a time.
    package mutating func count(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let start = base.assumingMemoryBound(to: UInt8.self)
        let count = bytes.count
        if afterCarriageReturn || memchr(base, 0x0D, count) != nil { return countEach(start, count) }
        let feeds = Self.lineFeeds(start, count)
        guard feeds > 0 else {
            column &+= characters(start, count)
            return
        }
        line &+= feeds
        var lineStart = count
        while start[lineStart - 1] != 0x0A { lineStart -= 1 }
        column = 1 &+ characters(start + lineStart, count - lineStart)
    }

    /// How many line feeds `count` bytes hold: a vector compare per sixteen bytes, summed in
    /// byte lanes (at most 255 vectors before the lanes are added up, so none wraps).
    private static func lineFeeds(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int {
        let feed = SIMD16<UInt8>(repeating: 0x0A)
        // A lane that matches is 0xFF: subtracting it adds 1.
        func matches(_ index: Int) -> SIMD16<UInt8> {
            unsafeBitCast(UnsafeRawPointer(start + index).loadUnaligned(as: SIMD16<UInt8>.self) .== feed, to: SIMD16<UInt8>.self)
        }
        var total = 0
        var index = 0
        while index + 16 <= count {
            var lanes = SIMD16<UInt8>()
            let blockEnd = min(count, index + 252 * 16)
            while index + 64 <= blockEnd {
                lanes &-= matches(index) &+ matches(index + 16) &+ matches(index + 32) &+ matches(index + 48)
                index += 64
            }
            while index + 16 <= blockEnd {
                lanes &-= matches(index)
                index += 16
            }
            total += Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
        }
        while index < count {
            if start[index] == 0x0A { total += 1 }
            index += 1
        }
        return total
    }

    /// How many characters `count` bytes hold: every byte, or in UTF-8 every byte but the
    /// continuation bytes, eight at a time.
    private func characters(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int {
        guard continuationBytesContinue else { return count }
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var characters = count
        var index = 0
        let raw = UnsafeRawPointer(start)
        while index + 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if word & highBits != 0 {
                // A continuation byte has its high bit set and the next one clear.
                let continuations = (word & ~(word << 1) & highBits) >> 7
                characters -= Int((continuations &* 0x0101_0101_0101_0101) >> 56)
            }
            index += 8
        }
        while index < count {
            if start[index] & 0xC0 == 0x80 { characters -= 1 }
            index += 1
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

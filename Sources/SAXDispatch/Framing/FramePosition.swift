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

    /// Counts every byte as a character from now on: the document declared a single-byte
    /// encoding.
    package mutating func countEveryByte() {
        continuationBytesContinue = false
    }

    /// Counts `bytes`, the next bytes of the document.
    package mutating func count(_ bytes: UnsafeRawBufferPointer) {
        var line = self.line
        var column = self.column
        var afterCarriageReturn = self.afterCarriageReturn
        let utf8 = continuationBytesContinue
        for byte in bytes {
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

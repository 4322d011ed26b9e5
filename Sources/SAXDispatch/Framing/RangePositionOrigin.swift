/// Where a range of a document, read as a document of its own, sits in the whole
/// document: its own document is a context (the prolog and the start tags of the elements
/// open around the range) followed by the range's bytes, and every position in those bytes
/// is reported as the whole document counts it.
///
/// What must stay true: the context's line breaks and columns are counted as expat counts
/// them (``FramePosition``), so that the range's first byte, at the context's end, maps to
/// exactly ``line``, ``column`` and ``byteOffset``.
package struct RangePositionOrigin: Sendable, Equatable {
    /// The size of the context, and the line and column (from 1) where the range's first
    /// byte is in the range's own document.
    package let contextBytes: Int
    package let contextEndLine: Int
    package let contextEndColumn: Int
    /// Where the range's first byte is in the whole document.
    package let line: Int
    package let column: Int
    package let byteOffset: Int

    /// The origin of a range that begins at `boundary`'s position after `context`, whose
    /// characters are counted as UTF-8 or, for a single-byte encoding, a byte each.
    package init(context: [UInt8], utf8: Bool, line: Int, column: Int, byteOffset: Int) {
        var counter = FramePosition(utf8: utf8)
        context.withUnsafeBytes { counter.count($0) }
        contextBytes = context.count
        contextEndLine = counter.line
        contextEndColumn = counter.column
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
    }

    /// A position in the range's own document, as the whole document counts it. Positions
    /// inside the context come out before the range's start.
    package func map(_ position: (line: Int, column: Int, byteOffset: Int)) -> (line: Int, column: Int, byteOffset: Int) {
        (
            line + position.line - contextEndLine,
            position.line == contextEndLine ? column + position.column - contextEndColumn : position.column,
            position.byteOffset < 0 ? position.byteOffset : byteOffset + position.byteOffset - contextBytes
        )
    }
}

/// A part of a document of records that can be read on its own: on another core, or by a
/// task of a distributed engine given the same file.
///
/// A range begins where a record's start tag begins (or at the document's start) and ends
/// where the next range begins (or at the document's end). Read through
/// ``XMLInput/range(_:of:)``, it is a document of its own: the ``context`` (the bytes
/// before the root element, then the start tags of the elements open at ``start``), the
/// range's bytes, and the ``closing`` end tags, with every position (line, column, byte
/// offset: in contexts, errors and records) as the whole document counts it. Ranges made
/// by ``split(_:record:parts:size:)`` cover the document once: every record is read by exactly
/// one of them.
///
/// ```swift
/// let ranges = try XMLDocumentRange.split(.file("pages.xml"), record: "page", parts: 8)
/// for range in ranges {   // each on a core or a machine of its own
///     try Page.record.forEach(in: .range(range, of: .file("pages.xml"))) { page in … }
/// }
/// ```
///
/// Ranges are proposed by a fast lexical pass (comments, CDATA sections, processing
/// instructions, the DOCTYPE and its internal subset, quoted attribute values, depth), not
/// a parse. A range's parse checks the pass: the range must end inside the elements the
/// pass said are open there, or the parse fails at its ``closing`` tags. Read every range,
/// and a document whose ranges all parse was split where the pass said. A document the
/// pass does not frame (an encoding other than UTF-8, US-ASCII or ISO-8859-1; a prolog or
/// an ancestor's start tag over 4 MiB or 1 MiB) is one range from its last boundary on.
public struct XMLDocumentRange: Sendable, Hashable {
    /// The offset of the range's first byte in the document: a record's `<`, or 0.
    public let start: Int
    /// The offset where the next range begins, or `nil` for the last range, which ends
    /// with the document.
    public let end: Int?
    /// The line (from 1) of the range's first byte in the document.
    public let line: Int
    /// The column (from 1, in characters) of the range's first byte in the document.
    public let column: Int
    /// What goes before the range's bytes in its document of its own: the document's bytes
    /// before its root element (the XML declaration, the DOCTYPE), then the start tags, as
    /// written, of the elements open at ``start``. Empty for a range at the document's start.
    public let context: [UInt8]
    /// The end tags of the elements open at ``end``, innermost first, which close the
    /// range's document. Empty for the last range.
    public let closing: [UInt8]
    /// How many record start tags the framing pass found in the range.
    public let records: Int
    /// Whether the document's characters are UTF-8 (columns count characters) rather than
    /// a byte each (ISO-8859-1).
    let countsUTF8: Bool

    /// A range as stored: a line of `saxdispatch split`'s output, or one of
    /// ``split(_:record:parts:size:)``'s kept by a task.
    ///
    /// - Parameters:
    ///   - start: The offset of its first byte in the document.
    ///   - end: Where the next range begins, or `nil` at the document's end.
    ///   - line: The line of its first byte, from 1.
    ///   - column: The column of its first byte, from 1, in characters.
    ///   - context: The document's bytes before its root element, then the start tags of
    ///     the elements open at `start`.
    ///   - closing: The end tags of the elements open at `end`.
    ///   - records: How many records the framing pass found in it.
    public init(start: Int, end: Int?, line: Int, column: Int, context: [UInt8], closing: [UInt8], records: Int) {
        // The context's XML declaration says how its characters are counted.
        var framer = DocumentFramer(recordName: [])
        context.withUnsafeBytes { framer.scan($0) { _ in } }
        self.init(
            start: start, end: end, line: line, column: column, context: context, closing: closing, records: records,
            countsUTF8: framer.countsUTF8)
    }

    init(
        start: Int, end: Int?, line: Int, column: Int, context: [UInt8], closing: [UInt8], records: Int,
        countsUTF8: Bool
    ) {
        self.start = start
        self.end = end
        self.line = line
        self.column = column
        self.context = context
        self.closing = closing
        self.records = records
        // Only a range after a context has positions to move: how its characters count is
        // said by the context, so a range at the document's start is the same whatever it says.
        self.countsUTF8 = context.isEmpty || countsUTF8
    }

    /// How the positions of the range's own document map to the whole document's.
    var positionOrigin: RangePositionOrigin {
        RangePositionOrigin(context: context, utf8: countsUTF8, line: line, column: column, byteOffset: start)
    }
}

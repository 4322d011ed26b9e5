extension XMLDocumentRange {
    /// Splits a document of records into at most `parts` ranges of about equal size, each
    /// beginning where a record's start tag begins, so that every record is read by exactly
    /// one range.
    ///
    /// A fast lexical pass reads the input once (files are read twice when `size` is not
    /// given: once for their size) and proposes a boundary at the `<` of every start tag at
    /// the depth of the first element named `record`, from that one on: each `page` of a
    /// MediaWiki dump; each `node`, and the ways and relations after them, of an
    /// OpenStreetMap extract. The ranges begin at the first boundary past each `1/parts`
    /// of the document.
    ///
    /// ```swift
    /// let ranges = try XMLDocumentRange.split(.file("planet.osm"), record: "node", parts: 64)
    /// ```
    ///
    /// - Parameters:
    ///   - input: The document.
    ///   - record: The records' local name, without a prefix.
    ///   - parts: How many ranges to make at most: fewer when the document has fewer
    ///     boundaries, or the pass stops early (see ``XMLDocumentRange``).
    ///   - size: The document's size in bytes, if known.
    /// - Throws: ``XMLInputError`` when the input cannot be opened or read, or what a custom
    ///   reader throws.
    public static func split(_ input: XMLInput, record: String, parts: Int, size: Int? = nil) throws -> [XMLDocumentRange] {
        let size = try size ?? byteCount(of: input)
        let parts = max(1, parts)
        var framer = DocumentFramer(recordName: Array(record.utf8))
        var cuts: [FrameBoundary] = []
        var recordsPerRange = [0]
        // The k-th range should begin at k/parts of the document: at the first boundary there
        // or past it.
        var k = 1
        func target(_ k: Int) -> Int { k < parts ? k * size / parts : Int.max }
        try read(input) { chunk in
            framer.scan(chunk) { boundary in
                // A range must hold the root's start tag or begin inside the root: never
                // cut at the root itself, nor inside a record, which neither range could
                // hold whole.
                if boundary.offset >= target(k) && !boundary.ancestors.isEmpty && !boundary.insideRecord {
                    cuts.append(boundary)
                    recordsPerRange.append(0)
                    while target(k) <= boundary.offset { k += 1 }
                }
                if boundary.isRecord { recordsPerRange[recordsPerRange.count - 1] += 1 }
            }
        }
        let utf8 = framer.countsUTF8
        var ranges: [XMLDocumentRange] = []
        for index in 0...cuts.count {
            let start = index == 0 ? nil : cuts[index - 1]
            let end = index < cuts.count ? cuts[index] : nil
            ranges.append(
                XMLDocumentRange(
                    start: start?.offset ?? 0, end: end?.offset, line: start?.line ?? 1, column: start?.column ?? 1,
                    context: start.map { framer.prolog + $0.ancestors.flatMap(\.bytes) } ?? [],
                    closing: end.map { $0.ancestors.reversed().flatMap(\.endTag) } ?? [],
                    records: recordsPerRange[index], countsUTF8: utf8))
        }
        return ranges
    }

    /// The size of a document, by reading it.
    static func byteCount(of input: XMLInput) throws -> Int {
        var count = 0
        try read(input) { count += $0.count }
        return count
    }

    /// Reads `input` to its end, a chunk at a time.
    static func read(_ input: XMLInput, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var reader = try input.makeReader()
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        try buffer.withUnsafeMutableBytes { buffer in
            while true {
                let count = try reader.read(into: buffer)
                if count == 0 { return }
                try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
        }
    }
}

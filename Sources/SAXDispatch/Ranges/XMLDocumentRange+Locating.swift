extension XMLDocumentRange {
    /// Where the records whose start tags begin at `offsets` are, as the framing pass finds
    /// them reading the document from its start: the ``XMLDocumentRange`` from the first
    /// record boundary at or past `offsets.lowerBound` (the document's start for 0) to the
    /// first at or past `offsets.upperBound` (or the document's end).
    ///
    /// The pass stops reading at the range's end. Ranges located for adjacent offsets
    /// (`0..<k`, `k..<n`, …) are adjacent ranges of ``split(_:record:parts:size:)``'s kind:
    /// together they hold every record once.
    ///
    /// - Returns: The range, or `nil` when no record can begin at `offsets` (the pass read
    ///   the whole document and no boundary is there); `exact` is false when the pass
    ///   stopped (``FramingStop``) before it found the range's boundaries: the range then
    ///   runs from the last boundary it found (or the document's start) to the document's
    ///   end, and only its records that begin at `offsets` are the range's.
    static func locating(
        _ offsets: Range<Int>, in input: XMLInput, record: [UInt8], readsUTF8: Bool
    ) throws -> (range: XMLDocumentRange, exact: Bool)? {
        guard !offsets.isEmpty else { return nil }
        var framer = DocumentFramer(recordName: record, readsUTF8: readsUTF8)
        var start: FrameBoundary?
        var end: FrameBoundary?
        var records = 0
        var reader = try input.makeReader()
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        try buffer.withUnsafeMutableBytes { buffer in
            while end == nil, framer.stop == nil {
                let count = try reader.read(into: buffer)
                if count == 0 { return }
                framer.scan(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { boundary in
                    guard end == nil else { return }
                    // The same cuts as a split: inside the root, never inside a record.
                    let isCut = !boundary.ancestors.isEmpty && !boundary.insideRecord
                    let started = start != nil || offsets.lowerBound == 0
                    if isCut && !started && boundary.offset >= offsets.lowerBound {
                        start = boundary
                        // A range that would end where it begins holds no record.
                        if boundary.offset >= offsets.upperBound { end = boundary }
                    } else if isCut && started && boundary.offset >= offsets.upperBound {
                        end = boundary
                    }
                    if boundary.isRecord && end == nil && (start != nil || offsets.lowerBound == 0) { records += 1 }
                }
            }
        }
        let exact = end != nil || framer.stop == nil
        if (start == nil && offsets.lowerBound > 0 && exact) || (start != nil && start?.offset == end?.offset) { return nil }
        let range = XMLDocumentRange(
            start: start?.offset ?? 0, end: exact ? end?.offset : nil, line: start?.line ?? 1, column: start?.column ?? 1,
            context: start.map { framer.prolog + $0.ancestors.flatMap(\.bytes) } ?? [],
            closing: exact ? end.map { $0.ancestors.reversed().flatMap(\.endTag) } ?? [] : [],
            records: records, countsUTF8: framer.countsUTF8)
        return (range, exact)
    }
}

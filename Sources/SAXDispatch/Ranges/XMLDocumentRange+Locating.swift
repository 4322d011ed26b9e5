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
    ///
    /// With a `checkpoint` (a range of the same document, at or before the offsets, whose
    /// boundaries were the records'), the pass begins there, with the checkpoint's context,
    /// rather than at the document's start.
    static func locating(
        _ offsets: Range<Int>, in input: XMLInput, record: [UInt8], readsUTF8: Bool, from checkpoint: XMLDocumentRange? = nil
    ) throws -> (range: XMLDocumentRange, exact: Bool)? {
        guard !offsets.isEmpty else { return nil }
        let resumed = checkpoint.flatMap { $0.start > 0 && $0.start <= offsets.lowerBound && !$0.context.isEmpty ? $0 : nil }
        // Resumed, the pass reads the checkpoint's own document (its context, then the bytes
        // from its start), with the records at the depth below its context's elements.
        var framer = DocumentFramer(recordName: record, readsUTF8: readsUTF8, recordDepth: resumed.map { $0.contextDepth + 1 })
        let origin = resumed.map(\.positionOrigin)
        // No boundary before the offsets is wanted: the pass only follows the markup there.
        framer.proposalsFrom = resumed.map { $0.context.count + offsets.lowerBound - $0.start } ?? offsets.lowerBound
        var start: FrameBoundary?
        var end: FrameBoundary?
        var records = 0
        var reader = try resumed.map { XMLInput.range($0.toDocumentEnd, of: input) }.map { try $0.makeReader() } ?? input.makeReader()
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        try buffer.withUnsafeMutableBytes { buffer in
            while end == nil, framer.stop == nil {
                let count = try reader.read(into: buffer)
                if count == 0 { return }
                framer.scan(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { found in
                    guard end == nil else { return }
                    let boundary = origin.map { found.moved(by: $0) } ?? found
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

extension XMLDocumentRange {
    /// How many elements are open at the range's start: the start tags in its context.
    var contextDepth: Int {
        var framer = DocumentFramer(recordName: [])
        context.withUnsafeBytes { framer.scan($0) { _ in } }
        return framer.openElements
    }

    /// The same range, to the document's end.
    var toDocumentEnd: XMLDocumentRange {
        XMLDocumentRange(
            start: start, end: nil, line: line, column: column, context: context, closing: [], records: records,
            countsUTF8: countsUTF8)
    }
}

extension FrameBoundary {
    /// The boundary as the whole document counts it, found in a range's own document.
    func moved(by origin: RangePositionOrigin) -> FrameBoundary {
        let position = origin.map((line, column, offset))
        return FrameBoundary(
            offset: position.byteOffset, line: position.line, column: position.column, ancestors: ancestors,
            isRecord: isRecord, insideRecord: insideRecord)
    }
}

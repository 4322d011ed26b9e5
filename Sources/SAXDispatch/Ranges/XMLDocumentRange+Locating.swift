extension XMLDocumentRange {
    /// The range a parse reads to find the records whose start tags begin at `offsets`, as
    /// the framing pass finds it reading the document from its start: from the last record
    /// boundary at or before `offsets.lowerBound` (the document's start when there is none)
    /// to the first at or past `offsets.upperBound` (or the document's end, also when the
    /// pass stopped, ``FramingStop``, before it).
    ///
    /// The range holds every record that begins at `offsets`, and the whole of every
    /// element at the records' depth around them; its parse keeps those whose start tag
    /// (or whose outermost record's) is at `offsets`. The pass stops reading at the range's
    /// end.
    ///
    /// With a `checkpoint` (a range of the same document, split for the same record, that
    /// begins at or before the offsets), the pass begins there, with the checkpoint's
    /// context, rather than at the document's start.
    ///
    /// - Returns: The range, or `nil` for empty `offsets`.
    static func locating(
        _ offsets: Range<Int>, in input: XMLInput, record: [UInt8], readsUTF8: Bool, from checkpoint: XMLDocumentRange? = nil
    ) throws -> XMLDocumentRange? {
        guard !offsets.isEmpty else { return nil }
        let resumed = checkpoint.flatMap {
            $0.start > 0 && $0.start <= offsets.lowerBound && !$0.context.isEmpty && $0.context.count <= $0.start ? $0 : nil
        }
        // Resumed, the pass reads the checkpoint's own document (its context, then the bytes
        // from its start), with the records at the depth below its context's elements.
        var framer = DocumentFramer(recordName: record, readsUTF8: readsUTF8, recordDepth: resumed.map { $0.contextDepth + 1 })
        let origin = resumed.map(\.positionOrigin)
        var start: FrameBoundary?
        var end: FrameBoundary?
        var reader = try resumed.map { XMLInput.range($0.toDocumentEnd, of: input) }.map { try $0.makeReader() } ?? input.makeReader()
        var buffer = [UInt8](repeating: 0, count: XMLInput.defaultChunkSize)
        try buffer.withUnsafeMutableBytes { buffer in
            while end == nil, framer.stop == nil {
                let count = try reader.read(into: buffer)
                if count == 0 { return }
                framer.scan(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { found in
                    // The same cuts as a split: inside the root, never inside a record.
                    guard end == nil, !found.ancestors.isEmpty, !found.insideRecord else { return }
                    let boundary = origin.map { found.moved(by: $0) } ?? found
                    if boundary.offset <= offsets.lowerBound {
                        start = boundary
                    } else if boundary.offset >= offsets.upperBound {
                        end = boundary
                    }
                }
            }
        }
        let ends = end != nil && framer.stop == nil
        return XMLDocumentRange(
            start: start?.offset ?? 0, end: ends ? end?.offset : nil, line: start?.line ?? 1, column: start?.column ?? 1,
            context: start.map { framer.prolog + $0.ancestors.flatMap(\.bytes) } ?? [],
            closing: ends ? end.map { $0.ancestors.reversed().flatMap(\.endTag) } ?? [] : [], records: 0,
            countsUTF8: framer.countsUTF8)
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

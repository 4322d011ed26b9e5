extension ParallelRangeParse.State {
    /// The cuts found ahead in the held bytes from the pending range's start on; the
    /// framer's, resumed there, when looking ahead does not find them.
    ///
    /// The framing pass reads every byte to find one cut a range. After a cut, the first
    /// start tag past the range's size of the element the cut begins with (`<page`,
    /// `<node`) is the next cut, found with `memchr`, its ancestors assumed to be the
    /// cut's. The parse of the range before it verifies the guess as it verifies the
    /// framer's cuts, and more (``RangeJob/endsInItsContext``): its closing tags must close
    /// the elements open there, so the cut is in content, at the same depth, in elements
    /// of the same names (not in a comment, CDATA section or processing instruction, where
    /// the closing tags would be read as their text, nor inside a record); and the
    /// innermost element open at its end must be the one its context opened, so no ancestor
    /// was closed and another of the same name, with other attributes, opened in its bytes.
    ///
    /// So that a guess seldom fails (which costs the ranges in flight and frames the next
    /// ones, ``ParallelRangeParse/framedAfterFailedGuesses(_:)``), a tag that seems to be
    /// inside a comment, CDATA section or processing instruction, read back from it
    /// (``MarkupReadBack``), is passed over for the next. A range without such a start tag
    /// soon is read by a framer resumed at its start.
    mutating func speculate(sizes: RangeSizes, maximumContextBytes: Int) -> [FrameBoundary] {
        guard let name = speculativeName, var base = pendingBoundary else { return [] }
        let held = HeldBytes(pieces: pending, start: pendingStart)
        var cuts: [FrameBoundary] = []
        var readBack = MarkupReadBack()
        while true {
            let rangeBytes = sizes.size(from: base.offset)
            let from = max(base.offset + rangeBytes, searchedFrom, base.offset + 1)
            guard let cut = held.firstStartTag(named: name, from: from) else {
                searchedFrom = max(searchedFrom, held.end - name.count - 1)
                if held.end - base.offset > rangeBytes + ParallelRangeParse.lookAheadBytes {
                    cuts += resumeFraming(at: base, held, sizes: sizes, maximumContextBytes: maximumContextBytes)
                }
                return cuts
            }
            if readBack.seemsInsideMarkup(at: cut, in: held, rangeStart: base.offset) {
                // Likely text of a comment, CDATA section or processing instruction: the next
                // tag is looked at.
                searchedFrom = cut + 1
                continue
            }
            var position = FramePosition(line: base.line, column: base.column, utf8: framer.countsUTF8)
            held.count(from: base.offset, to: cut, into: &position)
            base = FrameBoundary(
                offset: cut, line: position.line, column: position.column, ancestors: base.ancestors,
                contextBytes: base.contextBytes, foundAhead: true)
            cuts.append(base)
        }
    }

    /// Frames the held bytes from `base` on with a framer resumed there, which goes on
    /// reading until it proposes a cut; the cuts it proposes in them.
    mutating func resumeFraming(
        at base: FrameBoundary, _ held: HeldBytes, sizes: RangeSizes, maximumContextBytes: Int
    ) -> [FrameBoundary] {
        framer = DocumentFramer(
            resumingAt: base, prolog: framer.prolog, recordName: framer.recordName, recordDepth: framer.recordDepth,
            countsUTF8: framer.countsUTF8, readsUTF8: framer.readsUTF8)
        framer.proposalsFrom = base.offset + sizes.size(from: base.offset)
        speculativeName = nil
        var cuts: [FrameBoundary] = []
        var pieceStart = held.start
        for piece in held.pieces {
            defer { pieceStart += piece.count }
            // Only the bytes from the base on.
            let skip = base.offset - pieceStart
            guard skip < piece.count else { continue }
            piece.withUnsafeBytes { bytes in
                framer.scanForCuts(UnsafeRawBufferPointer(rebasing: bytes[max(0, skip)...])) { boundary in
                    ParallelRangeParse.admit(
                        boundary, into: &cuts, sizes: sizes, maximumContextBytes: maximumContextBytes)
                }
            }
        }
        return cuts
    }
}

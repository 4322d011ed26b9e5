extension XMLRecord {
    /// Calls `body` with the model of each record whose start tag begins at `offsets` of
    /// the document, in document order: what a task given a byte range of a file reads, so
    /// that tasks given adjacent ranges (`0..<k`, `k..<n`, …) together read every record
    /// exactly once, as one parse of the whole would.
    ///
    /// ```swift
    /// // One task of many, each given a byte range of the same file:
    /// try Page.record.forEach(in: .file("pages.xml"), startingIn: 4_000_000..<8_000_000) { page in … }
    /// // A task that stopped after the record at offset k resumes with the rest:
    /// try Page.record.forEach(in: .file("pages.xml"), startingIn: (k + 1)..<Int.max) { page in … }
    /// ```
    ///
    /// It is Hadoop's rule for records in byte ranges, kept exactly: a record that begins
    /// in the range and ends past it is read whole by this range, and by no other; a record
    /// inside another of its kind goes with the outermost one. A framing pass reads the
    /// document from its start up to the range's end (reading, not parsing: a scan for
    /// tags), and finds the last record boundary at or before `offsets` and the first past
    /// them, as ``XMLDocumentRange/split(_:record:parts:size:)`` places boundaries; the parse
    /// reads from the one to the other as a document of its own (``XMLInput/range(_:of:)``),
    /// with positions as the whole document counts them, and keeps the records that begin
    /// at `offsets`. Where the framing pass cannot follow the document (``XMLDocumentRange``
    /// says when), the parse reads from the last boundary it found to the document's end.
    ///
    /// - Parameters:
    ///   - input: The document.
    ///   - offsets: Where the records' start tags (their `<`) begin, in bytes from the
    ///     document's start (of the decompressed document, for a compressed input);
    ///     `k..<Int.max` for every record from `k` on.
    ///   - checkpoint: A range of the same document, split for the same record name
    ///     (``XMLDocumentRange/split(_:record:parts:size:)``, or `saxdispatch split`'s line),
    ///     that begins at or before `offsets`: the framing pass begins there, with its
    ///     context, instead of at the document's start, so a task reads only from the
    ///     checkpoint on. Ignored when it begins past `offsets.lowerBound`.
    ///   - safety: The limits the document must keep; expat's memory budget and the
    ///     amplification ratios count what the range's parse reads.
    ///   - diagnostics: Receives the errors of the range's records that the failure policy
    ///     skipped or replaced.
    ///   - body: Receives each model.
    /// - Returns: What the range delivered and set aside. A part of the document gives no
    ///   warning that the pattern or a field matched nothing: it may hold no record, or none
    ///   with that field.
    /// - Throws: As ``forEach(in:safety:diagnostics:_:)``, with the line and column the
    ///   whole document has there; ``XMLParseError`` at the range's end when the document is
    ///   not open there as the framing pass found (a document malformed there).
    @discardableResult
    public func forEach(
        in input: XMLInput, startingIn offsets: Range<Int>, framingFrom checkpoint: XMLDocumentRange? = nil,
        safety: SafetyProfile = .default, diagnostics: ((XMLRecordError) -> Void)? = nil, _ body: (Model) throws -> Void
    ) throws -> RecordParseSummary {
        var filtered = self
        filtered.plan.byteOffsets = offsets
        guard let reading = input.framedReading, let name = pattern.lastStepLocalName else {
            // No framing pass for this input or pattern: the whole document, its records filtered.
            return try filtered.forEach(in: input, safety: safety, diagnostics: diagnostics, body)
        }
        guard let range = try XMLDocumentRange.locating(
            offsets, in: input, record: Array(name.utf8), readsUTF8: reading.readsUTF8, from: checkpoint)
        else { return RecordParseSummary() }
        let rangeInput = range.start == 0 && range.end == nil ? input : XMLInput.range(range, of: input)
        var summary = try filtered.forEach(in: rangeInput, safety: safety, diagnostics: diagnostics, body)
        // A part of a document may hold no record, or none with a field: the whole document must.
        if offsets != 0..<Int.max {
            summary.warnings.removeAll { $0.code == .unmatchedPattern || $0.code == .unmatchedField }
        }
        return summary
    }
}

extension XMLInput {
    /// A range of `document` (``XMLDocumentRange``) as a document of its own: the range's
    /// context, its bytes and its closing tags, with every position (in contexts, errors
    /// and records) as the whole document counts it.
    ///
    /// ```swift
    /// let pages = XMLInput.file("pages.xml")
    /// let ranges = try XMLDocumentRange.split(pages, record: "page", parts: 4)
    /// try Page.record.forEach(in: .range(ranges[2], of: pages)) { page in … }
    /// ```
    ///
    /// A file is read from the range's start; any other input is read from its start and
    /// the bytes before the range passed over. Positions are moved for the synchronous
    /// verbs (``Dispatcher/parse(_:)-(XMLInput)``, ``PushParser/parse(_:)``, records and
    /// decoded values read from an ``XMLInput``).
    ///
    /// A parse throws ``XMLParseError`` at the closing tags when the document is not open
    /// where the range says at its end: the framing pass that proposed the range was wrong
    /// there, or the document is malformed.
    public static func range(_ range: XMLDocumentRange, of document: XMLInput) -> XMLInput {
        var input = XMLInput.reader(name: document.name) { RangeReader(base: try document.makeReader(), range: range) }
        input.chunkSize = document.chunkSize
        input.encoding = document.encoding
        input.rangeOrigin = range.start > 0 ? range.positionOrigin : nil
        return input
    }
}

/// How the framing pass reads an input it can read (``XMLInput/framedReading``).
struct FramedReading {
    /// Whether the bytes are read as UTF-8 whatever the document declares: an input whose
    /// encoding is set to UTF-8.
    let readsUTF8: Bool
}

extension XMLInput {
    /// How the framing pass reads this input, or `nil` when it cannot: an input whose
    /// encoding is set to another than UTF-8, one that holds documents one after another,
    /// or a range already.
    var framedReading: FramedReading? {
        let readsUTF8 = encoding.map { ["utf-8", "utf8"].contains($0.lowercased()) }
        guard readsUTF8 != false, !readsConcatenatedDocuments, rangeOrigin == nil else { return nil }
        return FramedReading(readsUTF8: readsUTF8 == true)
    }
}

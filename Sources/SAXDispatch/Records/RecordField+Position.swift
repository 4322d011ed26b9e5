extension RecordField where Value == Int {
    /// The byte offset of the record element's `<` from the start of the document: in a
    /// range's parse (``XMLInput/range(_:of:)``, or a parse on many workers) as the whole
    /// document counts it. It captures nothing and costs nothing per element.
    ///
    /// The offset says where a record is in a file independently of how the file was cut
    /// into ranges: it orders records from many tasks, and a job that stops after a record
    /// at offset `k` resumes with the range that begins at `k + 1`.
    ///
    /// ```swift
    /// let page = XMLRecord("page", .byteOffset, .text("title")) { Page(offset: $0, title: $1) }
    /// ```
    public static var byteOffset: RecordField<Int> {
        RecordField<Int>(plan: FieldPlan(path: ".", capture: .position)) { _, site, out in
            out.initialize(as: Int.self, to: site.record.context.byteOffset)
            return nil
        }.named("byte offset")
    }
}

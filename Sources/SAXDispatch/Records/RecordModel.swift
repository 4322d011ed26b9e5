/// A model type that says how it is read from XML, so that reading it reads naturally:
/// `try Animal.records(in: .file("zoo.xml"))`.
///
/// ```swift
/// struct Animal: RecordModel {
///     let kind: String
///     let name: String
///
///     static let record = XMLRecord("animal", .text("kind"), .text("nested_nonsense/name")) {
///         Animal(kind: $0, name: $1)
///     }
/// }
///
/// for animal in try Animal.records(in: .file("zoo.xml")) { print(animal.name) }
/// ```
///
/// Other records nest it by type: `.many("animals/animal", Animal.record)`.
public protocol RecordModel {
    /// How the type is built from an element, and where that element is when the type is read on its own.
    static var record: XMLRecord<Self> { get }
}

extension RecordModel {
    /// Every record of this type in a document, in document order. See
    /// ``XMLRecord/all(in:safety:onWarning:)``; `onWarning` receives the warnings of the
    /// parse, such as a record pattern that matched no element.
    ///
    /// ```swift
    /// let animals = try Animal.records(in: .file("zoo.xml"))
    /// ```
    ///
    /// - Throws: ``XMLRecordError`` for a record that cannot be built (unless the record's failure
    ///   policy skips or replaces it), ``XMLParseError`` for a malformed document or a broken
    ///   ``SafetyProfile`` limit, or ``XMLInputError`` if the input cannot be opened or read.
    public static func records(in input: XMLInput, onWarning: ((ParseWarning) -> Void)? = nil) throws -> [Self] {
        try record.all(in: input, onWarning: onWarning)
    }

    /// Calls `body` with each record of this type in a document, in constant memory. See
    /// ``XMLRecord/forEach(in:safety:diagnostics:_:)``.
    ///
    /// - Throws: ``XMLRecordError`` for a record that cannot be built (unless the record's failure
    ///   policy skips or replaces it), ``XMLParseError`` for a malformed document or a broken
    ///   ``SafetyProfile`` limit, ``XMLInputError`` if the input cannot be opened or read, or
    ///   what `body` throws.
    @discardableResult
    public static func forEachRecord(
        in input: XMLInput, diagnostics: ((XMLRecordError) -> Void)? = nil, _ body: (Self) throws -> Void
    ) throws -> RecordParseSummary {
        try record.forEach(in: input, diagnostics: diagnostics, body)
    }
}

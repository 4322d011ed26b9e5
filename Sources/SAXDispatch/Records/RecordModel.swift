#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A model type that says how it is read from XML, so that reading it reads naturally:
/// `try Animal.records(contentsOfFile: "zoo.xml")`.
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
/// for animal in try Animal.records(contentsOfFile: "zoo.xml") { print(animal.name) }
/// ```
///
/// Other records nest it by type: `.many("animals/animal", Animal.record)`.
public protocol RecordModel {
    /// How the type is built from an element, and where that element is when the type is read on its own.
    static var record: XMLRecord<Self> { get }
}

extension RecordModel {
    /// Every record of this type in a file, in document order. See ``XMLRecord/all(contentsOfFile:safety:)``.
    ///
    /// - Throws: ``XMLRecordError`` for a record that cannot be built (unless the record's failure
    ///   policy skips or replaces it),
    ///   ``XMLParseError`` for a malformed document or a broken ``SafetyProfile`` limit, or
    ///   ``XMLInputError`` if the file cannot be opened or read.
    public static func records(contentsOfFile path: String) throws -> [Self] {
        try record.all(contentsOfFile: path)
    }

    /// Every record of this type in a local file named by a `file:` URL.
    ///
    /// - Throws: ``XMLRecordError`` for a record that cannot be built (unless the record's failure
    ///   policy skips or replaces it),
    ///   ``XMLParseError`` for a malformed document or a broken ``SafetyProfile`` limit, or
    ///   ``XMLInputError`` if `url` is not a `file:` URL or the file cannot be opened or read.
    public static func records(contentsOf url: URL) throws -> [Self] {
        try record.all(contentsOf: url)
    }

    /// Calls `body` with each record of this type in a local file named by a `file:` URL.
    ///
    /// - Throws: ``XMLRecordError`` for a record that cannot be built (unless the record's failure
    ///   policy skips or replaces it),
    ///   ``XMLParseError`` for a malformed document or a broken ``SafetyProfile`` limit,
    ///   ``XMLInputError`` if `url` is not a `file:` URL or the file cannot be opened or read,
    ///   or what `body` throws.
    @discardableResult
    public static func forEachRecord(
        contentsOf url: URL, diagnostics: ((XMLRecordError) -> Void)? = nil, _ body: (Self) throws -> Void
    ) throws -> RecordParseSummary {
        try record.forEach(contentsOf: url, diagnostics: diagnostics, body)
    }

    /// Every record of this type in a document held in a string.
    ///
    /// - Throws: ``XMLRecordError`` for a record that cannot be built (unless the record's failure
    ///   policy skips or replaces it),
    ///   or ``XMLParseError`` for a malformed document or a broken ``SafetyProfile`` limit.
    public static func records(in xml: String) throws -> [Self] {
        try record.all(in: xml)
    }

    /// Calls `body` with each record of this type in a file, in constant memory. See
    /// ``XMLRecord/forEach(contentsOfFile:safety:diagnostics:_:)``.
    ///
    /// - Throws: ``XMLRecordError`` for a record that cannot be built (unless the record's failure
    ///   policy skips or replaces it),
    ///   ``XMLParseError`` for a malformed document or a broken ``SafetyProfile`` limit,
    ///   ``XMLInputError`` if the file cannot be opened or read, or what `body` throws.
    @discardableResult
    public static func forEachRecord(
        contentsOfFile path: String, diagnostics: ((XMLRecordError) -> Void)? = nil, _ body: (Self) throws -> Void
    ) throws -> RecordParseSummary {
        try record.forEach(contentsOfFile: path, diagnostics: diagnostics, body)
    }
}

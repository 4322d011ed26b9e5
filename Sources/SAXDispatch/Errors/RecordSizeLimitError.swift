#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The error a record or decoded element over its size limit was: no longer thrown.
///
/// Every limit is an ``XMLParseError`` code: a typed record whose lists and nested
/// records hold more than ``XMLRecord/maximumRecordBytes(_:)`` allows, or an element
/// decoded by ``XMLRecordDecoder`` that holds more than
/// ``XMLRecordDecoder/maximumRecordBytes``, ends the parse with an ``XMLParseError`` whose
/// code is ``XMLParseError/Code/recordSizeLimitExceeded``, at the element's start tag,
/// with the same message, and the limit as ``XMLParseError/limit``. A `catch` of this
/// type catches nothing: catch ``XMLParseError`` instead.
@available(
    *, deprecated,
    message: "no longer thrown: a record over maximumRecordBytes is an XMLParseError with code .recordSizeLimitExceeded"
)
public struct RecordSizeLimitError: Error, CustomStringConvertible, Sendable, Equatable, LocalizedError {
    /// The matched element's name.
    public var elementName: String
    /// Line of the element's start tag.
    public var line: Int
    /// Column of the element's start tag.
    public var column: Int
    /// The limit it broke, in bytes.
    public var limit: Int
    /// The file or URL the document came from, when known.
    public var source: String?
    /// What the limit counts: `names, attributes and text` for a decoded element, `list
    /// values and nested records` for a typed record.
    public var contents = "names, attributes and text"

    /// `SOURCE:LINE:COLUMN: <NAME> holds more than maximumRecordBytes (LIMIT bytes) of names,
    /// attributes and text` (or what else ``contents`` says), without `SOURCE:` when the
    /// source is unknown; a name longer than 40 characters is cut to its start.
    public var description: String {
        let location = "\(source.map { "\($0):" } ?? "")\(line):\(column)"
        return "\(location): <\(MessageText.name(elementName))> holds more than maximumRecordBytes (\(limit) bytes) of \(contents)"
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

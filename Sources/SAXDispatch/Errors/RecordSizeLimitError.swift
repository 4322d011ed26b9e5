/// A matched element held more than ``XMLRecordDecoder/maximumRecordBytes`` allows, so it
/// was not decoded: the decoder keeps one element at a time in memory, and this bounds it.
/// A typed record's lists and nested records are bounded the same way
/// (``XMLRecord/maximumRecordBytes(_:)``).
///
/// Its description names the element and where it starts:
/// `dump.xml:120:3: <page> holds more than maximumRecordBytes (16777216 bytes) of names, attributes and text`.
public struct RecordSizeLimitError: Error, CustomStringConvertible, Sendable, Equatable {
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
}

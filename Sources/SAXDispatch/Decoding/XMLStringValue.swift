/// An element's whole text, for a `Decodable` property: the text of the element and all
/// its descendants, in document order (XPath's string value), where a `String` property
/// gets the element's own text only.
///
/// ```swift
/// struct Item: Decodable {
///     var title: String                 // <title>Plain <em>and</em> simple</title> → "Plain  simple"
///     var description: XMLStringValue   // <description>Plain <em>and</em> simple</description>
/// }                                     //   → description.text == "Plain and simple"
/// ```
///
/// The decoder learns which elements are read this way before the first value and gathers
/// their whole text while they stream past, shaped by its ``XMLRecordDecoder/whitespace``
/// policy; it counts against ``SafetyProfile/maximumTextBytes`` and the decoder's
/// ``XMLRecordDecoder/maximumRecordBytes``. Read from an attribute, it is the attribute's value.
///
/// Decoding throws an ``XMLDecodingError``: `keyNotFound` for an absent element, `valueNotFound` for
/// one marked nil (declare the property optional for either), and `dataCorrupted` for an
/// element whose whole text was not gathered: the decoder finds the elements read whole by
/// decoding the type once from placeholders before the first element
/// (``XMLRecordDecoder/KeyPruning/probe``, the default), so with key pruning off, or for an
/// `XMLStringValue` that a hand-written `init(from:)` reads only for some values or under
/// a key it found in `allKeys`, none is foreseen. From any other decoder (JSON, say) it
/// decodes from a single string.
public struct XMLStringValue: Decodable, Sendable, Hashable, CustomStringConvertible {
    /// The whole text.
    public var text: String

    /// A whole text, for comparisons in tests.
    public init(_ text: String) {
        self.text = text
    }

    public init(from decoder: any Decoder) throws {
        if let source = decoder as? any ElementContentSource {
            text = try source.decodeWholeText()
        } else {
            text = try decoder.singleValueContainer().decode(String.self)
        }
    }

    /// The text.
    public var description: String { text }
}

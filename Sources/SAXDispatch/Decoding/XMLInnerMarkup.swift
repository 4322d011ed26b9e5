/// An element's inner markup, for a `Decodable` property: its content between its start
/// and end tags, serialized as XML that can be parsed on its own, as a record's
/// `.markup(_:)` field reads it.
///
/// ```swift
/// struct Entry: Decodable {
///     var title: String
///     var content: XMLInnerMarkup   // <content><div xmlns="http://www.w3.org/1999/xhtml">A <b>bold</b> move</div></content>
/// }                                 //   → content.markup == #"<div xmlns="http://www.w3.org/1999/xhtml">A <b>bold</b> move</div>"#
/// ```
///
/// Under the key `"."` it is the inner markup of the element being decoded itself, and so
/// is the matched element decoded as `XMLInnerMarkup` directly.
///
/// Child elements are written with their attributes, text with `&amp;`, `&lt;` and `&gt;`,
/// CDATA sections as escaped text, entity references as their replacement; comments and
/// processing instructions are left out; namespace declarations are written where the
/// fragment needs them to stand alone. The two ends are trimmed unless the decoder's
/// ``XMLRecordDecoder/whitespace`` is `.preserve`; whitespace inside is kept. The markup
/// is written while the element streams past, inside the decoder's capture, and counts
/// against ``SafetyProfile/maximumTextBytes`` and ``SafetyProfile/maximumCollectedTextBytes``
/// (a longer one ends the parse with ``XMLParseError/Code/textLimitExceeded``) and against
/// the decoder's ``XMLRecordDecoder/maximumRecordBytes``. Read from an attribute, it is
/// the attribute's value.
///
/// Decoding throws an ``XMLDecodingError`` as ``XMLStringValue`` does: `keyNotFound` for an
/// absent element, `valueNotFound` for one marked nil, `dataCorrupted` for one whose markup
/// the decoder did not foresee (key pruning off, or a key a hand-written `init(from:)`
/// reads only for some values). From any other decoder (JSON, say) it decodes from a
/// single string.
public struct XMLInnerMarkup: Decodable, Sendable, Hashable, CustomStringConvertible {
    /// The markup.
    public var markup: String

    /// Inner markup, for comparisons in tests.
    public init(_ markup: String) {
        self.markup = markup
    }

    public init(from decoder: any Decoder) throws {
        if let source = decoder as? any ElementContentSource {
            markup = try source.decodeInnerMarkup()
        } else {
            markup = try decoder.singleValueContainer().decode(String.self)
        }
    }

    /// The markup.
    public var description: String { markup }
}

extension XMLInnerMarkup: Encodable {
    /// Encodes the markup as the elements and text it holds, with ``XMLRecordEncoder``
    /// (its namespace declarations written as they are); with any other encoder, as one
    /// string.
    ///
    /// - Throws: `EncodingError.invalidValue` when the markup does not parse as the content
    ///   of an element.
    public func encode(to encoder: any Encoder) throws {
        if let target = encoder as? any InnerMarkupEncoding {
            try target.encodeInnerMarkup(markup)
        } else {
            var container = encoder.singleValueContainer()
            try container.encode(markup)
        }
    }
}

/// An encoder that writes inner markup as the elements and text it holds: the
/// ``XMLRecordEncoder``'s.
protocol InnerMarkupEncoding {
    func encodeInnerMarkup(_ markup: String) throws
}

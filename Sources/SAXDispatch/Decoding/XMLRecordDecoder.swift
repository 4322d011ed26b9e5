#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes `Decodable` values from the elements of a document that match a pattern,
/// one element at a time, while the rest of the document streams past.
///
/// Each matching element is captured with what it contains (bounded by
/// ``maximumRecordBytes``), decoded, handed to you and dropped, so memory stays flat
/// however many elements the document has. Children the type never asks for are not
/// captured at all (see ``keyPruning``).
///
/// ```swift
/// struct Animal: Decodable { let kind: String; let name: String; let url: URL }
///
/// let decoder = XMLRecordDecoder()
/// try decoder.forEach(Animal.self, at: "animals/animal", in: .file("zoo.xml")) { animal in
///     print(animal.name)
/// }
/// ```
///
/// ## Conventions
///
/// - A key names a child element or an attribute of the element being decoded. When
///   both exist, the child element wins unless ``attributeLookup`` says otherwise.
///   `"@href"` names the attribute only, and a key with slashes is a path of child
///   elements (`"nested_nonsense/name"`, `"animals/animal"`, `"link/@href"`).
/// - ``textKey`` (`"#text"` unless changed) is the element's own text, for
///   `<price currency="EUR">3.50</price>`.
/// - A property declared ``XMLStringValue`` reads an element's whole text (its
///   descendants' included) and one declared ``XMLInnerMarkup`` its inner markup; the key
///   `"."` is the element being decoded itself (its own text as a `String`).
/// - An absent element or attribute is `nil` for an optional property and
///   an ``XMLDecodingError`` (`keyNotFound`) otherwise. `nil="nil"` and `xsi:nil="true"` make an
///   element `nil` (`valueNotFound` where a value is required). An
///   element that is present but empty (`<date/>`), or an empty attribute value, is
///   `nil` for an optional whose type reads nothing from empty text (`Date?`, `Int?`,
///   `URL?`, `Bool?`) and `""` for a `String?`; where a value is required, it is a
///   `dataCorrupted` error that names the element. <doc:EmptyValues> states the
///   rule, which typed records and `saxdispatch extract` follow too.
/// - An array is either the repeated children named by its key (`<tag/><tag/>`) or the
///   children of one wrapper element (`<animals><animal/>…</animals>`): a single
///   element with no text whose children all share one name is read as a wrapper,
///   unless the item type reads children of that name (with ``keyPruning`` on, the
///   decoder knows). With attributes (`<adjustments href="…" type="array">`) it is a
///   wrapper when the item type reads what the children hold (``keyPruning`` on); a key with a path (`"animals/animal"`) says it explicitly. A key
///   the element does not have reads as an empty array. An array read from an attribute
///   value (or the text key) splits it at whitespace (`xs:list`).
/// - Values are read with the strictness of ``XMLTextConvertible``: `Bool` is
///   `true/false/1/0`, numbers reject trailing garbage. Dates follow
///   ``dateDecodingStrategy`` (ISO 8601 by default), `Data` is base64, `URL` follows
///   ``urlDecodingStrategy``.
/// - Keys may name elements and attributes in namespaces: `{uri}title` in Clark notation,
///   or `atom:title` with `atom` bound in ``namespaces``; the rules are those of patterns.
/// - Errors are ``XMLDecodingError``s: the `DecodingError` any decoder would throw (its
///   coding path is the keys that led to the value; a conversion's own error is its
///   underlying error), with the source, line and column of the element, the element path
///   and the offending text, in its description and its `localizedDescription`.
public struct XMLRecordDecoder: Sendable {
    /// How property names become element and attribute names.
    public enum KeyDecodingStrategy: Sendable {
        /// Keys are element and attribute names as they are.
        case useDefaultKeys
        /// `toiletCount` reads `<toilet_count>`.
        case convertFromSnakeCase
        /// `toiletCount` reads `<toilet-count>`.
        case convertFromKebabCase
        /// Your function maps a key's name to the XML name it reads.
        case custom(@Sendable (String) -> String)
    }

    /// Which is read when an element has both a child element and an attribute of a key's name.
    public enum AttributeLookup: Sendable {
        /// The child element; the attribute only when there is no such child (the default).
        case afterElements
        /// The attribute; the child element only when there is no such attribute.
        case beforeElements
    }

    /// How a `Date` property reads its text.
    public enum DateDecodingStrategy: Sendable {
        /// ISO 8601 with or without time, fractional seconds and time zone (``DateFormat/iso8601``).
        case iso8601
        /// A format: ``DateFormat/rfc822``, ``DateFormat/secondsSince1970`` or ``DateFormat/custom(_:_:)``.
        case format(DateFormat)
        /// Your function decodes the date from the decoder (for example from several children).
        case custom(@Sendable (any Decoder) throws -> Date)
    }

    /// Where a `URL` property finds its text.
    public enum URLDecodingStrategy: Sendable {
        /// The element's text (or the attribute's value).
        case text
        /// The element's attribute of this name (`href` in Atom's `<link href="…"/>`),
        /// and the element's text when it has no such attribute.
        case attribute(String)
    }

    /// How a `Data` property reads its text.
    public enum DataDecodingStrategy: Sendable {
        /// Base64, ignoring whitespace inside it.
        case base64
        /// Your function makes the data from the text.
        case custom(@Sendable (String) throws -> Data)
    }

    /// Whether children a type never asks for are captured.
    public enum KeyPruning: Sendable {
        /// The decoder learns which keys the type asks for by decoding it once from a
        /// probe that answers every key, and captures only those children (the default).
        ///
        /// This is exact for synthesized `Decodable` conformances. A hand-written
        /// `init(from:)` that asks for a key only for some values of another key may ask
        /// for one the probe did not see: that decode fails with an ``XMLDecodingError`` saying
        /// so (the key is captured from then on); use ``off`` for such types.
        case probe
        /// Everything inside a matched element is captured. The type is not probed, so no
        /// element's whole text is gathered: decoding an ``XMLStringValue`` fails.
        case off
    }

    /// How property names become element and attribute names. Default ``KeyDecodingStrategy/useDefaultKeys``.
    public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
    /// Which wins when a child element and an attribute share a key's name.
    public var attributeLookup: AttributeLookup = .afterElements
    /// The key that reads the element's own text. Default `"#text"`.
    public var textKey = "#text"
    /// How text is shaped before it is read; `.trim` unless changed.
    public var whitespace: WhitespacePolicy = .trim
    /// How dates are read. Default ``DateDecodingStrategy/iso8601``.
    public var dateDecodingStrategy: DateDecodingStrategy = .iso8601
    /// Where URLs are read from. Default ``URLDecodingStrategy/text``.
    public var urlDecodingStrategy: URLDecodingStrategy = .text
    /// Whether a `URL` property percent-encodes the spaces and other characters a URL
    /// cannot hold (`https://example.org/a b` reads as `https://example.org/a%20b`) instead
    /// of failing on them. Default `false`: URLs are read strictly, as
    /// `URL(xmlText:)` reads them.
    ///
    /// ```swift
    /// var decoder = XMLRecordDecoder()
    /// decoder.encodesInvalidCharactersInURLs = true
    /// ```
    ///
    /// `URL(xmlText:encodingInvalidCharacters:)` says where the lenient
    /// reading is available.
    public var encodesInvalidCharactersInURLs = false
    /// How `Data` is read. Default ``DataDecodingStrategy/base64``.
    public var dataDecodingStrategy: DataDecodingStrategy = .base64
    /// Whether an empty element (`<x/>`, no attributes) decodes as `nil` for every optional,
    /// `String?` included. Default `false`.
    ///
    /// Without it, an empty element is already `nil` for an optional whose type reads
    /// nothing from empty text (`Int?`, `Date?`, `URL?`) and `""` for a `String?`
    /// (<doc:EmptyValues>); set it when an empty element means "no value" for text too.
    ///
    /// ```swift
    /// var decoder = XMLRecordDecoder()
    /// decoder.emptyElementsAreNil = true   // <nickname/> → nil for `let nickname: String?`
    /// ```
    public var emptyElementsAreNil = false
    /// The most one matched element may hold (names, attribute values, text, and 32
    /// bytes per element) before the parse fails with ``XMLParseError/Code/recordSizeLimitExceeded``
    /// at its start tag. Default 16 MiB.
    public var maximumRecordBytes = 16 << 20
    /// Whether children the type never asks for are left out of the capture. Default ``KeyPruning/probe``.
    public var keyPruning: KeyPruning = .probe
    /// Values your `init(from:)` can read from `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// The prefixes that keys, and the pattern the decoder decodes at, may use for
    /// namespace URIs. Empty unless set.
    ///
    /// A key `atom:title` then reads the `title` children in the namespace bound to
    /// `atom`, whatever prefix the document wrote them with (a default namespace
    /// included), as `{http://www.w3.org/2005/Atom}title` does without a binding. A
    /// prefix no binding declares reads the prefix as the document wrote it; an
    /// unprefixed key reads unprefixed children, whatever default namespace is in scope,
    /// and unprefixed attributes. The prefix `xml` is always bound (`@xml:lang`).
    ///
    /// ```swift
    /// struct Entry: Decodable {
    ///     let title: String
    ///     let language: String?
    ///     enum CodingKeys: String, CodingKey {
    ///         case title = "atom:title"
    ///         case language = "@xml:lang"
    ///     }
    /// }
    /// var decoder = XMLRecordDecoder()
    /// decoder.namespaces = ["atom": "http://www.w3.org/2005/Atom"]
    /// let entries = try decoder.all(Entry.self, at: "atom:feed/atom:entry", in: feed)
    /// ```
    ///
    /// Binding a prefix twice to different URIs throws (``NamespaceBindings/bind(_:to:)``)
    /// or, in a literal, traps. With ``Dispatcher/onDecoded(_:at:using:_:)``, these
    /// bindings resolve the pattern's prefixes first; those they leave unbound, the
    /// dispatcher's ``Dispatcher/namespaces`` resolve.
    public var namespaces = NamespaceBindings()
    /// Whether names are read by namespace (see ``namespaces``). Turn it off to read a
    /// legacy document that is well-formed XML 1.0 but not namespace-well-formed (an
    /// unbound prefix): every name, in keys and in the pattern, is then compared as
    /// written, prefix included, and a Clark name (`{uri}local`) matches nothing. Default `true`.
    ///
    /// The decoder's own parses use it (``Dispatcher/processesNamespaces``). With
    /// ``Dispatcher/onDecoded(_:at:using:_:)``, the dispatcher's setting decides how the
    /// document is read and this one how keys are: keep the two the same.
    public var processesNamespaces = true
    /// Whether an unprefixed element name, in a key or in the pattern of the elements to
    /// decode, matches its local name in any namespace or none, however the document
    /// writes it (`name` as `*:name`), rather than unprefixed elements only. Default `false`.
    ///
    /// For SOAP bodies and feeds whose producers choose their own namespace URIs: a key
    /// `customer` then reads `<b:customer xmlns:b="urn:billing">` as well as `<customer>`.
    /// A single key can ask for this with `*:customer` whatever the setting. Prefixed and
    /// Clark keys keep matching by namespace; attributes stay as they are, an unprefixed
    /// attribute being in no namespace: a key `id` that falls back to an attribute reads
    /// the unprefixed `id` (as `*:id` and `@*:id` do), and a key `type` never reads `xsi:type`.
    ///
    /// ```swift
    /// var decoder = XMLRecordDecoder()
    /// decoder.matchesUnprefixedNamesInAnyNamespace = true
    /// let customers = try decoder.all(Customer.self, at: "customer", in: .string(soapResponse))
    /// ```
    public var matchesUnprefixedNamesInAnyNamespace = false

    /// A decoder with the default conventions.
    public init() {}
}

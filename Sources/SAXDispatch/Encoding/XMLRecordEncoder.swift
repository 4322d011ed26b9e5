#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encodes `Encodable` values as elements, one value at a time, into an open
/// ``XMLWriter`` or as a document of their own, with the conventions
/// ``XMLRecordDecoder`` reads: a value it encodes decodes back to an equal value.
///
/// ```swift
/// struct Animal: Codable { let kind: String; let name: String; let legs: Int }
///
/// let writer = try XMLWriter(to: .file("zoo.xml"))
/// try writer.startElement("zoo")
/// let encoder = XMLRecordEncoder()
/// for animal in animals {
///     try encoder.encode(animal, as: "animal", to: writer)   // one record at a time
/// }
/// try writer.endElement()
/// try writer.finish()
/// ```
///
/// ## Conventions
///
/// - A key names a child element. `"@href"` names an attribute, ``textKey`` (`"#text"`)
///   the element's own text, `"."` the element itself, and a key with slashes a path of
///   child elements (`"link/@href"`, `"animals/animal"`), each wrapper written once.
/// - Keys may name elements and attributes in namespaces: `{uri}title` in Clark notation,
///   or `atom:title` with `atom` bound in ``namespaces``; the writer declares the
///   prefixes where they are needed. `@xml:lang` is in the XML namespace.
/// - An array is its items as repeated elements named by its key (`<tag/><tag/>`), or,
///   with a key path, the children of one wrapper (`"animals/animal"`); in an attribute
///   or the text key, its items separated by spaces (`xs:list`).
/// - `nil` leaves the element or attribute out (``NilEncodingStrategy/omit``), which
///   decodes as `nil`; ``NilEncodingStrategy/xsiNil`` writes `xsi:nil="true"` instead.
/// - `Bool` is `true`/`false`, floating-point numbers are written so that they read back
///   exactly (`INF`, `-INF`, `NaN`), dates follow ``dateEncodingStrategy`` (ISO 8601 in
///   UTC, with the fraction of a second that reads back to the same date), `Data` is base64, `URL` is its
///   absolute string (or an attribute of its element, ``urlEncodingStrategy``),
///   ``XMLStringValue`` its text, ``XMLInnerMarkup`` the elements and text it holds.
/// - Errors are `EncodingError.invalidValue` with the coding path, for a value that
///   cannot be written where its key puts it (a structure in an attribute) or a name or
///   text the writer refuses (its ``XMLWriterError`` is the underlying error).
public struct XMLRecordEncoder: Sendable {
    /// How property names become keys.
    public enum KeyEncodingStrategy: Sendable {
        /// The property name as it is.
        case useDefaultKeys
        /// `firstName` → `first_name`.
        case convertToSnakeCase
        /// `firstName` → `first-name`.
        case convertToKebabCase
        /// A function of the property name.
        case custom(@Sendable (String) -> String)
    }

    /// How dates are written.
    public enum DateEncodingStrategy: Sendable {
        /// ISO 8601 in UTC (`2026-11-29T20:41:37Z`), with the fraction of a second the date
        /// has (`…37.25Z`), in as few digits as read back to the same date.
        case iso8601
        /// Seconds since 1970 as a decimal number.
        case secondsSince1970
        /// Text of your own, which the decoder's ``XMLRecordDecoder/DateDecodingStrategy/format(_:)`` reads.
        case formatted(@Sendable (Date) -> String)
    }

    /// How a `URL` is written.
    public enum URLEncodingStrategy: Sendable {
        /// Its absolute string, as text.
        case text
        /// An element with its absolute string in the attribute named (`<account href="…"/>`),
        /// which the decoder's ``XMLRecordDecoder/URLDecodingStrategy/attribute(_:)`` reads;
        /// in an attribute or the text key, its absolute string.
        case attribute(String)
    }

    /// How `Data` is written.
    public enum DataEncodingStrategy: Sendable {
        /// Base64 text.
        case base64
        /// Text of your own.
        case custom(@Sendable (Data) throws -> String)
    }

    /// What a `nil` value writes.
    public enum NilEncodingStrategy: Sendable {
        /// Nothing: the element or attribute is left out, which decodes as `nil`.
        case omit
        /// An empty element with `xsi:nil="true"` (attributes and text are left out).
        case xsiNil
    }

    /// How property names become keys. Default ``KeyEncodingStrategy/useDefaultKeys``.
    public var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys {
        didSet { keyPlaces = LockedValue([:]) }
    }
    /// The key of an element's own text. Default `"#text"`, as the decoder's ``XMLRecordDecoder/textKey``.
    public var textKey = "#text" {
        didSet { keyPlaces = LockedValue([:]) }
    }
    /// How dates are written. Default ``DateEncodingStrategy/iso8601``.
    public var dateEncodingStrategy: DateEncodingStrategy = .iso8601
    /// How a `URL` is written. Default ``URLEncodingStrategy/text``.
    public var urlEncodingStrategy: URLEncodingStrategy = .text
    /// How `Data` is written. Default ``DataEncodingStrategy/base64``.
    public var dataEncodingStrategy: DataEncodingStrategy = .base64
    /// What `nil` writes. Default ``NilEncodingStrategy/omit``.
    public var nilEncodingStrategy: NilEncodingStrategy = .omit
    /// The prefixes keys and element names may use for namespace URIs, as the decoder's
    /// ``XMLRecordDecoder/namespaces``. Empty unless set.
    public var namespaces = NamespaceBindings() {
        didSet { keyPlaces = LockedValue([:]) }
    }
    /// Values your `encode(to:)` can read from `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Where each key string puts its value under the settings above, shared by the copies
    /// of this encoder until one changes a setting that decides it (which starts its own).
    private(set) var keyPlaces = LockedValue<[String: EncodingSession.KeyPlace]>([:])
    /// The most key strings remembered: a dictionary encoded by its keys brings the data's.
    static let keyPlaceLimit = 4096

    /// An encoder with the default conventions.
    public init() {}

    /// Writes `value` as one element named `name` at the writer's place: inside the
    /// element open there, or as the root. The element is held until the value is
    /// encoded whole, then written; nothing is held after.
    ///
    /// - Parameters:
    ///   - value: The value, encoded whole before anything is written.
    ///   - name: The element's name: `page`, `atom:entry` with `atom` bound in
    ///     ``namespaces``, or `{uri}entry`.
    ///   - writer: The writer, inside the element the value belongs in (or before the root).
    /// - Throws: `EncodingError.invalidValue` when the value cannot be written as the
    ///   conventions say, or a name or text is one the writer refuses (nothing of the
    ///   value is written then); what the writer's output throws.
    public func encode<T: Encodable>(_ value: T, as name: String, to writer: XMLWriter) throws {
        let element = try encodedElement(value, as: name)
        do {
            try writer.atomically { try element.write(to: writer) }
        } catch let error as XMLWriterError where error.code != .outputFailed {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: error.message, underlyingError: error))
        }
    }

    /// A document whose root element is `value`, named `name`, as UTF-8 bytes.
    ///
    /// ```swift
    /// let bytes = try XMLRecordEncoder().encode(order, as: "order")
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - name: The root element's name, as for ``encode(_:as:to:)``.
    ///   - options: How the document is written (compact, with the XML declaration, unless said).
    /// - Throws: As ``encode(_:as:to:)``.
    public func encode<T: Encodable>(_ value: T, as name: String, options: XMLWriter.Options = XMLWriter.Options()) throws -> [UInt8] {
        let collected = CollectedBytes()
        let writer = try XMLWriter(to: .writer(name: "memory") { collected }, options: options)
        try encode(value, as: name, to: writer)
        try writer.finish()
        return collected.bytes
    }

    /// The element `value` encodes to, whole, before anything is written.
    func encodedElement<T: Encodable>(_ value: T, as name: String) throws -> EncodedElement {
        let session = EncodingSession(self)
        let element = EncodedElement(try session.elementName(name, codingPath: []))
        try ElementEncoder(session: session, slot: .element(element), codingPath: []).encodeValue(value)
        return element
    }
}

/// The bytes a writer wrote, in memory.
private final class CollectedBytes: XMLOutputWriter, @unchecked Sendable {
    // Written and read by one thread, the encoding call's.
    var bytes: [UInt8] = []
    func write(_ buffer: UnsafeRawBufferPointer) throws { bytes += buffer }
}

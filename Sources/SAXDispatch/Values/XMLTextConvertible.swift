#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A type that a record field can make from an element's text or an attribute's value.
///
/// The standard conformances are strict: `Bool` accepts exactly `true`, `false`, `1`
/// and `0`; numbers reject empty text, spaces and trailing garbage; `Date` reads ISO 8601
/// (see ``DateFormat/iso8601``); `URL` rejects empty text and text with spaces or other
/// characters a URL cannot hold (`URL(xmlText:encodingInvalidCharacters:)`
/// reads them percent-encoded). A field trims surrounding
/// whitespace before converting. Conform your own types by throwing any error that
/// says what is wrong; the record layer adds the text, the target type, the element
/// and its position:
///
/// ```swift
/// struct Celsius: XMLTextConvertible {
///     var degrees: Double
///     init(xmlText: String) throws {
///         guard xmlText.hasSuffix("°C"), let value = Double(xmlText.dropLast(2)) else {
///             throw ValueConversionError("expected a temperature such as 21.5°C")
///         }
///         degrees = value
///     }
/// }
/// ```
///
/// An enum with a convertible raw value needs only the declaration:
/// `extension State: XMLTextConvertible {}`.
public protocol XMLTextConvertible: SendableMetatype {
    /// Makes a value from text.
    /// - Throws: Any error, when the text does not denote a value of this type.
    init(xmlText: String) throws
}

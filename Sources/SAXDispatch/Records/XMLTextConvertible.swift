#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A type that a record field can make from an element's text or an attribute's value.
///
/// The standard conformances are strict: `Bool` accepts exactly `true`, `false`, `1`
/// and `0`; numbers reject empty text, spaces and trailing garbage; `Date` reads ISO 8601
/// (see ``DateFormat/iso8601``); `URL` rejects empty text. A field trims surrounding
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

/// Why a text could not become a value, thrown by the standard conversions.
public struct ValueConversionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was expected, in words (`expected true, false, 1 or 0`).
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

extension String: XMLTextConvertible {
    public init(xmlText: String) {
        self = xmlText
    }
}

extension Bool: XMLTextConvertible {
    /// Accepts exactly `true`, `false`, `1` and `0`.
    public init(xmlText: String) throws {
        switch xmlText {
        case "true", "1": self = true
        case "false", "0": self = false
        default: throw ValueConversionError("expected true, false, 1 or 0")
        }
    }
}

extension XMLTextConvertible where Self: FixedWidthInteger {
    /// Accepts an optional sign and decimal digits, nothing else.
    public init(xmlText: String) throws {
        guard let value = Self(xmlText, radix: 10) else {
            throw ValueConversionError(
                xmlText.isEmpty ? "expected an integer, found empty text" : "expected an integer in \(Self.min)...\(Self.max)")
        }
        self = value
    }
}

extension Int: XMLTextConvertible {}
extension Int8: XMLTextConvertible {}
extension Int16: XMLTextConvertible {}
extension Int32: XMLTextConvertible {}
extension Int64: XMLTextConvertible {}
extension UInt: XMLTextConvertible {}
extension UInt8: XMLTextConvertible {}
extension UInt16: XMLTextConvertible {}
extension UInt32: XMLTextConvertible {}
extension UInt64: XMLTextConvertible {}

extension XMLTextConvertible where Self: BinaryFloatingPoint & LosslessStringConvertible {
    /// Accepts a decimal number with optional exponent (`-1.5e3`), `INF`, `-INF` and `NaN`
    /// (XML Schema's spellings); nothing else.
    public init(xmlText: String) throws {
        switch xmlText {
        case "INF": self = .infinity
        case "-INF": self = -.infinity
        case "NaN": self = .nan
        default:
            guard DecimalSyntax.isDecimal(xmlText), let value = Self(xmlText) else {
                throw ValueConversionError("expected a decimal number")
            }
            self = value
        }
    }
}

extension Double: XMLTextConvertible {}
extension Float: XMLTextConvertible {}

extension Decimal: XMLTextConvertible {
    /// Accepts a decimal number with optional exponent, nothing else (Foundation's own
    /// `Decimal(string:)` stops quietly at the first character it does not know).
    public init(xmlText: String) throws {
        guard DecimalSyntax.isDecimal(xmlText), let value = Decimal(string: xmlText, locale: nil) else {
            throw ValueConversionError("expected a decimal number")
        }
        self = value
    }
}

extension URL: XMLTextConvertible {
    /// Accepts any text `URL(string:)` accepts, except empty text.
    public init(xmlText: String) throws {
        guard !xmlText.isEmpty, let url = URL(string: xmlText) else {
            throw ValueConversionError(xmlText.isEmpty ? "expected a URL, found empty text" : "expected a URL")
        }
        self = url
    }
}

extension Date: XMLTextConvertible {
    /// Reads ISO 8601, as ``DateFormat/iso8601`` describes.
    public init(xmlText: String) throws {
        self = try DateFormat.iso8601.date(from: xmlText)
    }
}

extension XMLTextConvertible where Self: RawRepresentable, RawValue: XMLTextConvertible {
    /// Converts the text to the raw value, then to a case.
    public init(xmlText: String) throws {
        guard let value = Self(rawValue: try RawValue(xmlText: xmlText)) else {
            throw ValueConversionError("expected one of the values of \(Self.self)")
        }
        self = value
    }
}

/// The syntax `[+-]digits[.digits][(e|E)[+-]digits]`, with digits on at least one side of the point.
enum DecimalSyntax {
    static func isDecimal(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes.removeFirst() }
        let integerDigits = bytes.prefix(while: isDigit).count
        bytes.removeFirst(integerDigits)
        var fractionDigits = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            fractionDigits = bytes.prefix(while: isDigit).count
            bytes.removeFirst(fractionDigits)
        }
        guard integerDigits + fractionDigits > 0 else { return false }
        if let first = bytes.first, first == UInt8(ascii: "e") || first == UInt8(ascii: "E") {
            bytes.removeFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes.removeFirst() }
            let exponentDigits = bytes.prefix(while: isDigit).count
            guard exponentDigits > 0 else { return false }
            bytes.removeFirst(exponentDigits)
        }
        return bytes.isEmpty
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

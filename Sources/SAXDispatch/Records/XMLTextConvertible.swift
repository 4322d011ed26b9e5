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
        self = try FloatingPointText.value(of: xmlText) { Self($0) }
    }
}

// Double and Float convert without going through the generic `LosslessStringConvertible`
// initializer, which asks the runtime for metadata on every call.

extension Double: XMLTextConvertible {
    /// Accepts a decimal number with optional exponent (`-1.5e3`), `INF`, `-INF` and `NaN`
    /// (XML Schema's spellings); nothing else.
    public init(xmlText: String) throws {
        self = try FloatingPointText.value(of: xmlText) { Double($0) }
    }
}

extension Float: XMLTextConvertible {
    /// Accepts a decimal number with optional exponent (`-1.5e3`), `INF`, `-INF` and `NaN`
    /// (XML Schema's spellings); nothing else.
    public init(xmlText: String) throws {
        self = try FloatingPointText.value(of: xmlText) { Float($0) }
    }
}

/// XML Schema's floating-point spellings, checked before the standard library reads the number.
enum FloatingPointText {
    @inline(__always)
    static func value<Number: BinaryFloatingPoint>(of text: String, _ read: (String) -> Number?) throws -> Number {
        switch text {
        case "INF": return .infinity
        case "-INF": return -.infinity
        case "NaN": return .nan
        default:
            guard DecimalSyntax.isDecimal(text), let value = read(text) else {
                throw ValueConversionError("expected a decimal number")
            }
            return value
        }
    }
}

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
        var text = text
        return text.withUTF8(isDecimal)
    }

    /// The same check on UTF-8 bytes: one pass over contiguous memory, no index arithmetic
    /// on a string view (this runs once per converted number).
    static func isDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        func skipDigits() -> Int {
            let start = index
            while index < count && isDigit(bytes[index]) { index += 1 }
            return index - start
        }
        if index < count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
        let integerDigits = skipDigits()
        var fractionDigits = 0
        if index < count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionDigits = skipDigits()
        }
        guard integerDigits + fractionDigits > 0 else { return false }
        if index < count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard skipDigits() > 0 else { return false }
        }
        return index == count
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

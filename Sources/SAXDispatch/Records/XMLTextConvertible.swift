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

    /// Creates an error saying what was expected, in words.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The ``reason``.
    public var description: String { reason }
}

extension String: XMLTextConvertible {
    public init(xmlText: String) {
        self = xmlText
    }
}

extension Bool: XMLTextConvertible {
    /// Accepts exactly `true`, `false`, `1` and `0`.
    ///
    /// - Throws: ``ValueConversionError`` for any other text.
    public init(xmlText: String) throws {
        switch xmlText {
        case "true", "1": self = true
        case "false", "0": self = false
        default: throw ValueConversionError("expected true, false, 1 or 0")
        }
    }
}

extension XMLTextConvertible where Self: FixedWidthInteger {
    /// Accepts an optional sign and decimal digits, nothing else. The error names the
    /// type's range only for an integer outside it.
    ///
    /// - Throws: ``ValueConversionError`` for empty text, text that is not an integer, or
    ///   an integer outside the type's range.
    public init(xmlText: String) throws {
        guard let value = Self(xmlText, radix: 10) else {
            if xmlText.isEmpty { throw ValueConversionError("expected an integer, found empty text") }
            let digits = xmlText.utf8.first == UInt8(ascii: "-") || xmlText.utf8.first == UInt8(ascii: "+") ? xmlText.utf8.dropFirst() : xmlText.utf8[...]
            let isInteger = !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            throw ValueConversionError(isInteger ? "expected an integer in \(Self.min)...\(Self.max)" : "expected an integer")
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
    ///
    /// - Throws: ``ValueConversionError`` for any other text. A number beyond the type's
    ///   range is no error: it rounds to infinity or zero.
    public init(xmlText: String) throws {
        self = try FloatingPointText.value(of: xmlText) { Self($0) }
    }
}

// Double and Float convert without going through the generic `LosslessStringConvertible`
// initializer, which asks the runtime for metadata on every call.

extension Double: XMLTextConvertible {
    /// Accepts a decimal number with optional exponent (`-1.5e3`), `INF`, `-INF` and `NaN`
    /// (XML Schema's spellings); nothing else.
    ///
    /// - Throws: ``ValueConversionError`` for any other text. A number beyond the type's
    ///   range is no error: it rounds to infinity or zero.
    public init(xmlText: String) throws {
        var text = xmlText
        switch text.withUTF8(DecimalSyntax.scan) {
        case .exact(let value):
            self = value
        case .decimal:
            guard let value = Double(text) else { throw ValueConversionError("expected a decimal number") }
            self = value
        case .invalid:
            self = try FloatingPointText.special(text)
        }
    }
}

extension Float: XMLTextConvertible {
    /// Accepts a decimal number with optional exponent (`-1.5e3`), `INF`, `-INF` and `NaN`
    /// (XML Schema's spellings); nothing else.
    ///
    /// - Throws: ``ValueConversionError`` for any other text. A number beyond the type's
    ///   range is no error: it rounds to infinity or zero.
    public init(xmlText: String) throws {
        self = try FloatingPointText.value(of: xmlText) { Float($0) }
    }
}

/// XML Schema's floating-point spellings, checked before the standard library reads the number.
enum FloatingPointText {
    @inline(__always)
    static func value<Number: BinaryFloatingPoint>(of text: String, _ read: (String) -> Number?) throws -> Number {
        guard DecimalSyntax.isDecimal(text) else { return try special(text) }
        guard let value = read(text) else { throw ValueConversionError("expected a decimal number") }
        return value
    }

    /// `INF`, `-INF` or `NaN`, or the error for text that is no number at all.
    static func special<Number: BinaryFloatingPoint>(_ text: String) throws -> Number {
        switch text {
        case "INF": return .infinity
        case "-INF": return -.infinity
        case "NaN": return .nan
        default: throw ValueConversionError("expected a decimal number")
        }
    }
}

extension Decimal: XMLTextConvertible {
    /// Accepts a decimal number with optional exponent, nothing else (Foundation's own
    /// `Decimal(string:)` stops quietly at the first character it does not know).
    ///
    /// - Throws: ``ValueConversionError`` for any other text, and for a number `Decimal`
    ///   cannot hold exactly (such as `1e128`, `1e-150`, or one with more than 38
    ///   significant digits, which `Decimal(string:)` would round).
    public init(xmlText: String) throws {
        guard DecimalSyntax.isDecimal(xmlText) else { throw ValueConversionError("expected a decimal number") }
        guard Self.significantDigits(xmlText) <= 38 else {
            throw ValueConversionError("more significant digits than Decimal holds (38)")
        }
        guard let value = Decimal(string: xmlText, locale: nil) else {
            throw ValueConversionError("a number beyond what Decimal can hold")
        }
        self = value
    }

    /// The digits of the mantissa from the first nonzero one to the last, in text that
    /// ``DecimalSyntax`` accepted.
    private static func significantDigits(_ text: String) -> Int {
        var digits = 0
        var first = -1
        var last = -1
        for byte in text.utf8 {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { continue }
            if byte != UInt8(ascii: "0") {
                if first < 0 { first = digits }
                last = digits
            }
            digits += 1
        }
        return first < 0 ? 0 : last - first + 1
    }
}

extension URL: XMLTextConvertible {
    /// Accepts any text `URL(string:)` accepts, except empty text.
    ///
    /// - Throws: ``ValueConversionError`` for empty text or text `URL(string:)` rejects.
    public init(xmlText: String) throws {
        guard !xmlText.isEmpty, let url = URL(string: xmlText) else {
            throw ValueConversionError(xmlText.isEmpty ? "expected a URL, found empty text" : "expected a URL")
        }
        self = url
    }
}

extension Date: XMLTextConvertible {
    /// Reads ISO 8601, as ``DateFormat/iso8601`` describes.
    ///
    /// - Throws: ``ValueConversionError`` for text that is not an ISO 8601 date, or that
    ///   names no real day or time of day (`2024-02-30`, `24:30`).
    public init(xmlText: String) throws {
        self = try DateFormat.iso8601.date(from: xmlText)
    }
}

extension XMLTextConvertible where Self: RawRepresentable, RawValue: XMLTextConvertible {
    /// Converts the text to the raw value, then to a case.
    ///
    /// - Throws: What the raw value type's `init(xmlText:)` throws for text it does not
    ///   accept, or ``ValueConversionError`` for a raw value that names no case.
    public init(xmlText: String) throws {
        guard let value = Self(rawValue: try RawValue(xmlText: xmlText)) else {
            throw ValueConversionError("expected one of the values of \(Self.self)")
        }
        self = value
    }
}

/// The syntax `[+-]digits[.digits][(e|E)[+-]digits]`, with digits on at least one side of
/// the point, and the numbers of that syntax a `Double` can take exactly on the way.
enum DecimalSyntax {
    enum Scan: Equatable {
        /// Not a decimal number.
        case invalid
        /// A decimal number; converting it needs the standard library's reader.
        case decimal
        /// A decimal number, already converted, correctly rounded.
        case exact(Double)
    }

    static func isDecimal(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isDecimal)
    }

    static func isDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { scan(bytes) != .invalid }

    /// Checks the syntax in one pass over the UTF-8 bytes and, on the way, converts the
    /// numbers Clinger's fast path covers: at most 15 significant digits (the significand is
    /// then below 2^53, exact in a `Double`) and a decimal exponent within ±22 (10^22 is the
    /// largest exact power of ten). One multiplication or division of two exact values is
    /// correctly rounded, so the result is what a full conversion gives, bit for bit
    /// (`strtod` reads `51.5074123` through arbitrary-precision arithmetic to the same value).
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Scan {
        guard var position = bytes.baseAddress else { return .invalid }
        let end = position + bytes.count
        var negative = false
        if position < end && (position.pointee == UInt8(ascii: "+") || position.pointee == UInt8(ascii: "-")) {
            negative = position.pointee == UInt8(ascii: "-")
            position += 1
        }
        // Leading zeros are not significant; the significand takes every other digit (it
        // wraps past 19 of them, but is used only with at most 15), and each digit after the
        // point lowers the exponent by one.
        var significand: UInt64 = 0
        var exponent = 0
        let digitsStart = position
        while position < end && position.pointee == UInt8(ascii: "0") { position += 1 }
        let integerStart = position
        while position < end, case let digit = position.pointee &- UInt8(ascii: "0"), digit < 10 {
            significand = significand &* 10 &+ UInt64(digit)
            position += 1
        }
        var significantDigits = position - integerStart
        var digitCount = position - digitsStart
        if position < end && position.pointee == UInt8(ascii: ".") {
            position += 1
            let fractionStart = position
            if significantDigits == 0 {
                while position < end && position.pointee == UInt8(ascii: "0") { position += 1 }
            }
            let significantStart = position
            while position < end, case let digit = position.pointee &- UInt8(ascii: "0"), digit < 10 {
                significand = significand &* 10 &+ UInt64(digit)
                position += 1
            }
            significantDigits += position - significantStart
            exponent -= position - fractionStart
            digitCount += position - fractionStart
        }
        guard digitCount > 0 else { return .invalid }
        if position < end && (position.pointee == UInt8(ascii: "e") || position.pointee == UInt8(ascii: "E")) {
            position += 1
            var exponentNegative = false
            if position < end && (position.pointee == UInt8(ascii: "+") || position.pointee == UInt8(ascii: "-")) {
                exponentNegative = position.pointee == UInt8(ascii: "-")
                position += 1
            }
            let exponentStart = position
            var written = 0
            while position < end, case let digit = position.pointee &- UInt8(ascii: "0"), digit < 10 {
                if written < 100_000 { written = written * 10 + Int(digit) }
                position += 1
            }
            guard position > exponentStart else { return .invalid }
            exponent += exponentNegative ? -written : written
        }
        guard position == end else { return .invalid }
        guard significantDigits <= 15, exponent >= -22, exponent <= 22 else { return .decimal }
        var value = Double(significand)
        if exponent < 0 {
            value /= exactPowersOfTen[-exponent]
        } else if exponent > 0 {
            value *= exactPowersOfTen[exponent]
        }
        return .exact(negative ? -value : value)
    }

    /// 10^0 through 10^22, each exact in a `Double`.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
        1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

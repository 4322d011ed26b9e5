#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

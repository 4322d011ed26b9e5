import Testing

@testable import SAXDispatch
@testable import SAXDispatchTools  // SplitMix64, the seeded generator the zoo sample uses

/// A single attribute field of type `Double`, `Int` or `Bool` converts the attribute's
/// bytes as it reads them, without making a `String` (``FieldReader/convert(_:_:)``).
/// These tests hold it to the `String` path, `init(xmlText:)` on the trimmed text.
@Suite("Attribute fields converted from their bytes")
struct AttributeConversionTests {
    /// What `init(xmlText:)` makes of `value` after the field's trimming, or the text a
    /// failure must show.
    static func expected<T: XMLTextConvertible>(_ value: String, as type: T.Type) -> Result<T, ConversionText> {
        let trimmed = String(value.trimmingPrefix(while: \.isASCIIWhitespace).reversed().drop(while: \.isASCIIWhitespace).reversed())
        do { return .success(try T(xmlText: trimmed)) } catch { return .failure(ConversionText(text: trimmed)) }
    }

    struct ConversionText: Error, Equatable {
        var text: String
    }

    /// The value a record reads from `value` in an attribute of the record element and of
    /// a child (the two ways a record captures attributes), or the failing text.
    static func read<T: XMLTextConvertible & Sendable>(
        _ value: String, as type: T.Type
    ) throws -> [Result<T, ConversionText>] {
        let escaped = value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
        let xml = #"<r v="\#(escaped)"><c v="\#(escaped)"/></r>"#
        return try [XMLRecord("r", .value("@v", as: T.self)) { $0 }, XMLRecord("r", .value("c/@v", as: T.self)) { $0 }].map {
            record in
            do {
                return .success(try record.first(in: .string(xml)))
            } catch let error as XMLRecordError {
                let failure = try #require(error.failures.first)
                guard case .conversion(let text, _, _) = failure.reason else { return .failure(ConversionText(text: "\(failure.reason)")) }
                return .failure(ConversionText(text: text))
            }
        }
    }

    static let doubles = [
        "0", "-0", "1.5", "  2.25 ", "1e3", "1E-3", "-1.5e+3", "123456789012345678", "0.1", "3.14159265358979323846",
        "1e400", "-1e-400", "INF", "-INF", "NaN", "inf", "1.", ".5", "+1", "1e", "", " ", "4x2", "1,5", "0x10", "1_000",
        "\u{661}\u{662}", "9007199254740993", "1e22", "1e23", "123456789012345", "1234567890123456",
    ]

    @Test("Double attributes: the same value, or the same failing text, as init(xmlText:)")
    func doubles() throws {
        var random = SplitMix64(seed: 2_028)
        var values = Self.doubles
        for _ in 0..<2_000 {
            let digits = String((0..<Int.random(in: 1...19, using: &random)).map { _ in "0123456789".randomElement(using: &random)! })
            var value = Bool.random(using: &random) ? "-" + digits : digits
            if Bool.random(using: &random) { value.insert(".", at: value.index(value.startIndex, offsetBy: value.count / 2)) }
            if Int.random(in: 0..<4, using: &random) == 0 { value += "e\(Int.random(in: -30...30, using: &random))" }
            values.append(value)
        }
        for value in values {
            let expected = Self.expected(value, as: Double.self).map(\.bitPattern)
            for read in try Self.read(value, as: Double.self) {
                #expect(read.map(\.bitPattern) == expected, "\(value.debugDescription)")
            }
        }
    }

    @Test("Int attributes: signs, leading zeros and Int's range, as init(xmlText:)")
    func integers() throws {
        var values = [
            "0", "-0", "+7", " 42 ", "00012", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
            "-9223372036854775809", "99999999999999999999", "", "+", "-", "+-1", "1.0", "1e3", "0x10", "4 2",
            "\u{663}",
        ]
        var random = SplitMix64(seed: 2_029)
        for _ in 0..<2_000 {
            let digits = String((0..<Int.random(in: 1...20, using: &random)).map { _ in "0123456789".randomElement(using: &random)! })
            values.append(["", "-", "+"].randomElement(using: &random)! + digits)
        }
        for value in values {
            let expected = Self.expected(value, as: Int.self)
            for read in try Self.read(value, as: Int.self) {
                #expect(read == expected, "\(value.debugDescription)")
            }
        }
    }

    @Test("Bool attributes: exactly true, false, 1 and 0 (trimmed), as init(xmlText:)")
    func booleans() throws {
        for value in ["true", "false", "1", "0", " true ", "\tfalse", "TRUE", "yes", "", "01", "2", "truex", "t"] {
            let expected = Self.expected(value, as: Bool.self)
            for read in try Self.read(value, as: Bool.self) {
                #expect(read == expected, "\(value.debugDescription)")
            }
        }
    }
}

extension Character {
    fileprivate var isASCIIWhitespace: Bool { self == " " || self == "\n" || self == "\t" || self == "\r" }
}

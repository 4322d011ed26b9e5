import Foundation
import SAXDispatch
import Testing

@Suite("Value conversions")
struct ValueConversionTests {
    enum Color: String, XMLTextConvertible { case red, green }
    enum Level: Int, XMLTextConvertible { case low = 1, high = 2 }

    /// Converts one text: the error's description, or nil when it converted.
    static func failure<T: XMLTextConvertible>(_ text: String, as type: T.Type) -> String? {
        do {
            _ = try T(xmlText: text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("Bool accepts exactly true, false, 1 and 0", arguments: [
        ("true", true), ("false", false), ("1", true), ("0", false),
    ])
    func boolAccepts(text: String, value: Bool) throws {
        #expect(try Bool(xmlText: text) == value)
    }

    @Test("Bool rejects everything else", arguments: ["TRUE", "yes", "", " true", "2", "t"])
    func boolRejects(text: String) {
        #expect(Self.failure(text, as: Bool.self) == ("expected true, false, 1 or 0"))
    }

    @Test("integers reject garbage, spaces, empty text and overflow")
    func integers() throws {
        #expect(try Int(xmlText: "-42") == -42)
        #expect(try Int(xmlText: "+7") == 7)
        #expect(try UInt8(xmlText: "255") == 255)
        for bad in ["4x2", "42 ", "0x10", "1.0", "1e3"] {
            #expect(Self.failure(bad, as: Int.self) == ("expected an integer"))
        }
        #expect(Self.failure("", as: Int.self) == ("expected an integer, found empty text"))
        #expect(Self.failure("256", as: UInt8.self) == ("expected an integer in 0...255"))
        #expect(Self.failure("-1", as: UInt.self) == ("expected an integer in 0...\(UInt.max)"))
        #expect(Self.failure("99999999999999999999", as: Int.self) == ("expected an integer in \(Int.min)...\(Int.max)"))
    }

    @Test("floating point and Decimal accept decimal syntax only")
    func decimals() throws {
        #expect(try Double(xmlText: "-1.5e3") == -1500)
        #expect(try Double(xmlText: ".5") == 0.5)
        #expect(try Double(xmlText: "INF") == .infinity)
        #expect(try Double(xmlText: "NaN").isNaN)
        #expect(try Float(xmlText: "2") == 2)
        #expect(try Decimal(xmlText: "3.50") == Decimal(string: "3.5"))
        for bad in ["12abc", "1.2.3", "", "e5", "1e", "nan", "0x1p3", "1,5"] {
            #expect(Self.failure(bad, as: Double.self) == ("expected a decimal number"))
            #expect(Self.failure(bad, as: Decimal.self) == ("expected a decimal number"))
        }
        // Well-formed, but beyond what Decimal holds: said as such, not as bad syntax.
        for huge in ["1e128", "1e-150"] {
            #expect(Self.failure(huge, as: Decimal.self) == ("a number beyond what Decimal can hold"))
        }
        // Exact or not at all: 38 significant digits are held, a 39th would be rounded away.
        let digits38 = "12345678901234567890123456789012345678"
        #expect(try Decimal(xmlText: digits38) == Decimal(string: digits38))
        #expect(try Decimal(xmlText: "-0.000" + digits38 + "000e5") == Decimal(string: "-0.000" + digits38 + "e5"))
        #expect(try Decimal(xmlText: "1" + String(repeating: "0", count: 60)) == Decimal(string: "1e60"))
        for long in [digits38 + "9", "0." + digits38 + "9", digits38 + ".9e-3"] {
            #expect(Self.failure(long, as: Decimal.self) == ("more significant digits than Decimal holds (38)"))
        }
        // XML Schema 1.1: a double literal beyond the range rounds to infinity or zero.
        #expect(try Double(xmlText: "1e400") == .infinity)
        #expect(try Float(xmlText: "1e-60") == 0)
    }

    @Test("URL, String and raw-value enums")
    func urlsStringsEnums() throws {
        #expect(try URL(xmlText: "http://a/b?c") == URL(string: "http://a/b?c"))
        #expect(Self.failure("", as: URL.self) == ("expected a URL, found empty text"))
        #expect(String(xmlText: " x ") == " x ")
        #expect(try Color(xmlText: "green") == .green)
        #expect(Self.failure("blue", as: Color.self) == ("expected one of the values of Color"))
        #expect(try Level(xmlText: "2") == .high)
        #expect(Self.failure("3", as: Level.self) == ("expected one of the values of Level"))
    }

    @Test("ISO 8601 dates with and without time, seconds, fraction and zone", arguments: [
        ("2024-03-01", 1_709_251_200.0),
        ("2024-03-01T12:30", 1_709_296_200),
        ("2024-03-01T12:30:05Z", 1_709_296_205),
        ("2024-03-01T12:30:05.250Z", 1_709_296_205.25),
        ("2024-03-01T12:30:05+01:00", 1_709_292_605),
        ("2024-03-01T12:30:05-0230", 1_709_305_205),
        ("2024-03-01 12:30:05", 1_709_296_205),
        ("2000-02-29T00:00:00Z", 951_782_400),
    ])
    func iso8601(text: String, seconds: Double) throws {
        #expect(try Date(xmlText: text).timeIntervalSince1970 == seconds)
    }

    @Test("ISO 8601 rejects malformed dates and impossible days", arguments: [
        "2024-3-1", "2024-02-30", "2023-02-29", "2024-03-01T25:00", "2024-03-01T12", "2024-03-01Z", "2024-03-01T12:30:05 ",
        "yesterday", "",
    ])
    func iso8601Rejects(text: String) {
        #expect(
            Self.failure(text, as: Date.self)
                == ("expected an ISO 8601 date such as 2024-03-01 or 2024-03-01T12:30:00Z"))
    }

    @Test("RFC 822 dates as RSS writes them", arguments: [
        ("Tue, 10 Jun 2003 04:00:00 GMT", 1_055_217_600.0),
        ("10 Jun 2003 04:00 GMT", 1_055_217_600),
        ("Tue, 10 Jun 03 04:00:00 +0000", 1_055_217_600),
        ("Mon, 09 Jun 2003 23:00:00 EST", 1_055_217_600),
        ("Tue, 10 Jun 2003 06:00:00 +0200", 1_055_217_600),
    ])
    func rfc822(text: String, seconds: Double) throws {
        #expect(try DateFormat.rfc822.date(from: text).timeIntervalSince1970 == seconds)
    }

    @Test("RFC 822 rejects what is not one", arguments: ["2003-06-10", "Tue 10 Jun 2003 04:00:00 GMT", "10 Jux 2003 04:00 GMT", "10 Jun 2003 04:00 XYZ"])
    func rfc822Rejects(text: String) {
        #expect(throws: ValueConversionError.self) { try DateFormat.rfc822.date(from: text) }
    }

    @Test("a field can name its own date format or conversion")
    func fieldFormats() throws {
        struct Item: Equatable { let published: Date; let updated: Date; let size: Int }
        let item = XMLRecord(
            "item",
            .date("pubDate", format: .rfc822),
            .date("updated"),
            .value("size") { @Sendable text -> Int in
                guard text.hasSuffix("kB"), let value = Int(text.dropLast(2)) else { throw ValueConversionError("expected NkB") }
                return value * 1000
            }
        ) { Item(published: $0, updated: $1, size: $2) }
        let model = try item.first(
            in: .string("<item><pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate><updated>2003-06-10T04:00:00Z</updated><size>3kB</size></item>"))
        #expect(model.published == model.updated)
        #expect(model.size == 3000)
    }

    @Test("an application's own type converts through the protocol, its error kept as the underlying error")
    func ownType() throws {
        struct Celsius: XMLTextConvertible, Equatable {
            var degrees: Double
            init(xmlText: String) throws {
                guard xmlText.hasSuffix("°C"), let value = Double(xmlText.dropLast(2)) else {
                    throw ValueConversionError("expected a temperature such as 21.5°C")
                }
                degrees = value
            }
        }
        let reading = XMLRecord("reading", .value(".", as: Celsius.self)) { $0 }
        let expected = try Celsius(xmlText: "21.5°C")
        #expect(try reading.all(in: .string("<r><reading>21.5°C</reading></r>")) == [expected])
        #expect {
            _ = try reading.all(in: .string("<r><reading>hot</reading></r>"))
        } throws: { error in
            guard let error = error as? XMLRecordError, case .conversion(let text, let type, let underlying) = error.failures.first?.reason
            else { return false }
            return text == "hot" && type == "Celsius"
                && (underlying as? ValueConversionError)?.reason == "expected a temperature such as 21.5°C"
        }
    }
}

import Testing

@testable import SAXDispatch
@testable import SAXDispatchTools  // SplitMix64, the seeded generator the zoo sample uses

@Suite("Decimal numbers read in one pass")
struct DecimalSyntaxTests {
    func scan(_ text: String) -> DecimalSyntax.Scan {
        var text = text
        return text.withUTF8(DecimalSyntax.scan)
    }

    /// The standard library's reading, the reference.
    func reference(_ text: String) throws -> Double {
        try #require(Double(text), "the standard library reads \(text)")
    }

    @Test(
        "short numbers are converted on the way, bit for bit as the standard library reads them",
        arguments: [
            "0", "-0", "+0", "0.0", "-0.0", "5.", ".5", "+.5", "-.5", "1", "-1", "51.5074123", "-0.1278", "0.1",
            "0.2", "0.3", "1e22", "1e-22", "123456789012345", "0.000000000000001", "900719925474099e-15",
            "1.7976931348623e5", "4.9e-9", "00000000000000000000000012.5", "1.5E3", "1.5e+3", "2.5e-3",
        ])
    func exactCases(text: String) throws {
        guard case .exact(let value) = scan(text) else {
            Issue.record("\(text) took the slow path")
            return
        }
        #expect(value.bitPattern == (try reference(text)).bitPattern, "\(text)")
    }

    @Test(
        "numbers outside the fast path are left to the standard library, still checked for syntax",
        arguments: ["1234567890123456", "1e23", "1e-23", "3.141592653589793238", "1e400", "9" + String(repeating: "9", count: 40)])
    func slowCases(text: String) throws {
        #expect(scan(text) == .decimal)
        #expect(try Double(xmlText: text).bitPattern == (try reference(text)).bitPattern)
    }

    @Test(
        "anything else is not a decimal number",
        arguments: ["", "+", "-", ".", "e5", "1e", "1e+", "1.2.3", "1,5", " 1", "1 ", "0x10", "1_000", "١", "INF", "inf"])
    func invalid(text: String) {
        #expect(scan(text) == .invalid)
    }

    @Test("random numbers of up to 17 digits with exponents up to ±30 read as the standard library reads them")
    func randomAgreement() throws {
        var random = SplitMix64(seed: 20_261_123)
        var fast = 0
        for _ in 0..<20_000 {
            let digitCount = Int.random(in: 1...17, using: &random)
            var digits = String((0..<digitCount).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
            if Bool.random(using: &random) {
                digits.insert(".", at: digits.index(digits.startIndex, offsetBy: Int.random(in: 0...digitCount, using: &random)))
            }
            var text = (Bool.random(using: &random) ? "-" : "") + digits
            if Bool.random(using: &random) { text += "e\(Int.random(in: -30...30, using: &random))" }
            let value = try Double(xmlText: text)
            #expect(value.bitPattern == (try reference(text)).bitPattern, "\(text)")
            if case .exact = scan(text) { fast += 1 }
        }
        // The fast path is the common one, not a corner the comparison never reached.
        #expect(fast > 5_000)
    }
}

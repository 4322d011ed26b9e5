import SAXDispatch
import Testing

/// Whole text collected for elements nested in one another counts once for each of them
/// against ``SafetyProfile/maximumCollectedTextBytes``, as inner markup does: each is
/// handed its own copy, so nesting cannot multiply what a document makes the parser
/// deliver beyond the limit.
@Suite("Whole text of nested elements and the collected-text limit")
struct NestedWholeTextLimitTests {
    /// Three `<r>` nested: while the innermost one's text is read, its whole text is 2
    /// bytes (`ef`), its parent's 5 (`\ncdef`) and the outermost one's 7 (`ab\ncdef`): 14
    /// bytes held for three handlers, where the buffer they share holds 7.
    static let nested = "<r>ab<r>\ncd<r>ef</r></r></r>"

    /// The outcome fed whole and in pieces of 1, 7 and 4096 bytes, which must agree:
    /// the texts delivered, then `ok` or the error's code, position, limit and message.
    static func outcome(_ document: String, limit: Int, configure: (inout Dispatcher, @escaping (String) -> Void) -> Void)
        -> [String]
    {
        var outcomes: [[String]] = []
        for size in [Int.max, 1, 7, 4096] {
            var lines: [String] = []
            var dispatcher = Dispatcher()
            dispatcher.safety.maximumCollectedTextBytes = .atMost(limit)
            configure(&dispatcher) { lines.append($0) }
            let parser = PushParser(dispatcher)
            do {
                try parser.feed(Array(document.utf8), inPiecesOf: size)
                try parser.finish()
                lines.append("ok")
            } catch let error as XMLParseError {
                lines.append("\(error.code) \(error.line):\(error.column) limit \(error.limit ?? -1): \(error.message)")
            } catch {
                lines.append("\(error)")
            }
            outcomes.append(lines)
        }
        #expect(Set(outcomes).count == 1, "\(outcomes)")
        return outcomes[0]
    }

    @Test("handlers of nested elements' whole text: each byte counts once per handler that gets it")
    func handlers() {
        let configure: (inout Dispatcher, @escaping (String) -> Void) -> Void = { dispatcher, log in
            dispatcher.onEnd("r", text: .whole, whitespace: .preserve) { _, text in log(text.debugDescription) }
        }
        #expect(Self.outcome(Self.nested, limit: 14, configure: configure) == [#""ef""#, #""\ncdef""#, #""ab\ncdef""#, "ok"])
        #expect(
            Self.outcome(Self.nested, limit: 13, configure: configure) == [
                "textLimitExceeded 2:3 limit 13: the text collected for <r> and the other open elements (3 in all)"
                    + " is longer than maximumCollectedTextBytes (13)"
            ])
    }

    @Test("records nested in one another with a whole-text field")
    func records() throws {
        let record = XMLRecord("r", .text(".", whitespace: .preserve, scope: .whole)) { $0 }
        var safety = SafetyProfile.default
        safety.maximumCollectedTextBytes = .atMost(14)
        #expect(try record.all(in: .string(Self.nested), safety: safety) == ["ef", "\ncdef", "ab\ncdef"])
        safety.maximumCollectedTextBytes = .atMost(13)
        #expect {
            try record.all(in: .string(Self.nested), safety: safety)
        } throws: { error in
            let error = error as? XMLParseError
            return error?.code == .textLimitExceeded && error?.limit == 13 && error?.line == 2 && error?.column == 3
        }
    }

    @Test("deep nesting cannot multiply the whole text delivered past the limit")
    func deepNesting() {
        // 50 levels around 1,000 bytes: 50,000 bytes would be handed out.
        let document = String(repeating: "<r>", count: 50) + String(repeating: "x", count: 1000)
            + String(repeating: "</r>", count: 50)
        var delivered = 0
        let outcome = Self.outcome(document, limit: 20_000) { dispatcher, _ in
            dispatcher.onEnd("r", text: .whole) { _, text in delivered += text.utf8.count }
        }
        #expect(
            outcome == [
                "textLimitExceeded 1:148 limit 20000: the text collected for <r> and the other open elements (50 in all)"
                    + " is longer than maximumCollectedTextBytes (20000)"
            ])
        #expect(delivered == 0)
    }
}

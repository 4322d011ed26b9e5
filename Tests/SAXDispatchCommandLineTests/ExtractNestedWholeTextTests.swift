import Foundation
import SAXDispatchTestSupport
import Testing

/// `string(.)` of records nested in one another: each record's whole text counts against
/// the collected-text limit, so nesting cannot multiply the output past it.
@Suite("saxdispatch extract: whole text of nested records and the collected-text limit")
struct ExtractNestedWholeTextTests {
    /// Three `<r>` nested: while the innermost one's text is read, the three records hold
    /// 2, 5 and 7 bytes of whole text, 14 in all.
    static let nested = "<r>ab<r>\ncd<r>ef</r></r></r>"

    func extract(limit: Int, format: String) throws -> CommandRunner.Result {
        try CommandRunner.run(
            "saxdispatch",
            ["extract", "-", "--record", "r", "--field", "w=string(.)", "--format", format, "--limit", "collected-text-bytes=\(limit)"],
            input: Data(Self.nested.utf8))
    }

    @Test("within the limit every record's whole text; one byte less, the limit's error at the innermost record")
    func limit() throws {
        let within = try extract(limit: 14, format: "jsonl")
        #expect(within.status == 0, "\(within.error)")
        #expect(within.output == #"{"w":"ef"}"# + "\n" + #"{"w":"cdef"}"# + "\n" + #"{"w":"ab\ncdef"}"# + "\n")

        let over = try extract(limit: 13, format: "jsonl")
        #expect(over.status == 1)
        #expect(over.output.isEmpty)
        #expect(
            over.error
                == "-:2:3: error: the text collected for <r> and the other open elements (3 in all) is longer than"
                + " maximumCollectedTextBytes (13) (in r/r/r)\n")
    }

    @Test("deep nesting: the output stays within the limit's multiple, and the command fails")
    func deepNesting() throws {
        let document = String(repeating: "<rec>", count: 200) + String(repeating: "x", count: 100_000)
            + String(repeating: "</rec>", count: 200)
        let result = try CommandRunner.run(
            "saxdispatch", ["extract", "-", "--record", "rec", "--field", "w=string(.)", "--limit", "collected-text-bytes=1M"],
            input: Data(document.utf8))
        #expect(result.status == 1)
        #expect(result.output.utf8.count < 1 << 20)
        #expect(result.error.contains("maximumCollectedTextBytes (1048576)"), "\(result.error)")
        #expect(result.error.hasPrefix("-:1:996: error: "), "\(result.error)")
    }
}

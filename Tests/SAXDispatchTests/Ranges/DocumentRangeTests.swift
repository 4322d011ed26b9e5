import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// Ranges of a document read apart give what one parse of the whole gives: every start
/// tag in exactly one range, at the same line, column and offset, with the same ancestors.
@Suite("Ranges: a document split at record boundaries and read range by range")
struct DocumentRangeTests {
    struct Start: Equatable, CustomStringConvertible {
        var offset: Int
        var line: Int
        var column: Int
        var path: String
        var description: String { "\(path)@\(offset) \(line):\(column)" }
    }

    /// The start tags a parse of `input` reports, or its error.
    static func starts(_ input: XMLInput) -> (starts: [Start], error: XMLParseError?) {
        var starts: [Start] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { element in
            starts.append(
                Start(offset: element.byteOffset, line: element.line, column: element.column, path: element.path.description))
        }
        do {
            try dispatcher.parse(input)
            return (starts, nil)
        } catch let error as XMLParseError {
            return (starts, error)
        } catch {
            Issue.record("unexpected error \(error)")
            return (starts, nil)
        }
    }

    /// What differs between reading `bytes` whole and range by range, split at `record`.
    static func disagreements(_ bytes: [UInt8], file: String, record: String, parts: Int, chunkSize: Int) throws -> [String] {
        let whole = starts(.bytes(bytes))
        let document = XMLInput.bytes(bytes).named(file)
        let ranges = try XMLDocumentRange.split(document, record: record, parts: parts)
        var found: [String] = []
        let label = "\(file) record \(record) parts \(parts)"
        if ranges.first?.start != 0 || ranges.last?.end != nil
            || zip(ranges, ranges.dropFirst()).contains(where: { $0.end != $1.start })
        {
            found.append("\(label): the ranges do not cover the document once")
        }
        var joined: [Start] = []
        for range in ranges {
            var input = XMLInput.range(range, of: document)
            input.chunkSize = chunkSize
            let (starts, error) = Self.starts(input)
            joined += starts.filter { start in start.offset >= range.start && range.end.map { start.offset < $0 } ?? true }
            if let error {
                // A document that parses whole parses in ranges; otherwise the first failing
                // range fails where the whole parse does.
                if whole.error == nil {
                    found.append("\(label): range at \(range.start) fails: \(error)")
                } else if let expected = whole.error, error.byteOffset >= range.start,
                    range.end.map({ error.byteOffset < $0 }) ?? true
                {
                    if (error.line, error.column, error.byteOffset, error.code) != (expected.line, expected.column, expected.byteOffset, expected.code) {
                        found.append("\(label): error \(error.code) at \(error.line):\(error.column)@\(error.byteOffset), whole: \(expected.code) at \(expected.line):\(expected.column)@\(expected.byteOffset)")
                    }
                    break
                }
            }
            if let wholeError = whole.error, range.end.map({ $0 > wholeError.byteOffset }) ?? true { break }
        }
        let expected = whole.error.map { error in whole.starts.filter { $0.offset < error.byteOffset } } ?? whole.starts
        let compared = whole.error.map { error in joined.filter { $0.offset < error.byteOffset } } ?? joined
        if compared != expected {
            let index = zip(compared, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(compared.count, expected.count)
            let got = index < compared.count ? compared[index].description : "nothing"
            let owed = index < expected.count ? expected[index].description : "nothing"
            found.append("\(label), \(ranges.count) ranges: start tag \(index) is \(got), the whole parse has \(owed)")
        }
        return found
    }

    /// The local names of a document's first elements, at most `limit`.
    static func names(_ bytes: [UInt8], limit: Int) -> [String] {
        var names: [String] = []
        for start in starts(.bytes(bytes)).starts {
            let last = start.path.split(separator: "/").last.map(String.init) ?? ""
            let local = last.split(separator: ":").last.map(String.init) ?? last
            if !names.contains(local) && names.count < limit { names.append(local) }
        }
        return names
    }

    @Test("the fixtures, split at every name into 2, 3 and 64 parts, read in chunks of 5 and 64 KiB")
    func fixtures() throws {
        var found: [String] = []
        var checked = 0
        for (file, bytes) in DocumentFramerTests.documents(under: TestPaths.fixtures) {
            for record in Self.names(bytes, limit: 8) {
                for parts in [2, 3, 64] {
                    for chunkSize in [5, 64 * 1024] {
                        found += try Self.disagreements(bytes, file: file, record: record, parts: parts, chunkSize: chunkSize)
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 300)
        #expect(found.count == 0, "\(found.prefix(20).joined(separator: "\n"))")
    }

    @Test(
        "the W3C suite, split at its first names into as many ranges as it has records",
        .enabled(if: TestPaths.conformanceSuite != nil, TestPaths.conformanceSuiteMissing))
    func conformanceSuite() throws {
        let suite = try #require(TestPaths.conformanceSuite)
        var found: [String] = []
        for (file, bytes) in DocumentFramerTests.documents(under: suite, limit: 64 * 1024) {
            for record in Self.names(bytes, limit: 4) {
                found += try Self.disagreements(bytes, file: file, record: record, parts: 64, chunkSize: 64 * 1024)
            }
        }
        #expect(found.count == 0, "\(found.count):\n\(found.prefix(30).joined(separator: "\n"))")
    }

    @Test("a malformed document fails in the range that holds its first error, at the whole parse's position")
    func malformed() throws {
        let text = "<r>\n" + (1...20).map { "  <page n='\($0)'><t>x</t></page>\n" }.joined() + "  <page><t></page>\n" + "  <page/>\n</r>\n"
        for parts in [2, 5, 21] {
            #expect(try Self.disagreements(Array(text.utf8), file: "bad", record: "page", parts: parts, chunkSize: 3) == [])
        }
        let ranges = try XMLDocumentRange.split(.string(text), record: "page", parts: 22)
        let failing = ranges.last { $0.start <= text.utf8.count - 30 }
        let error = #expect(throws: XMLParseError.self) {
            try Dispatcher().parse(.range(try #require(failing), of: .string(text)))
        }
        #expect(error?.line == 22)
    }

    @Test("positions in a range count from the whole document: lines, columns in characters, offsets")
    func positions() throws {
        let text = #"<?xml version="1.0"?>"# + "\n<!DOCTYPE m [\n<!ENTITY e 'é'>\n]>\n<m xmlns:a='u'\n   b='\n'>\r\n<a:page>é&e;</a:page><a:page>東</a:page>\n<a:page/></m>"
        #expect(try Self.disagreements(Array(text.utf8), file: "positions", record: "page", parts: 3, chunkSize: 1) == [])
        let ranges = try XMLDocumentRange.split(.string(text), record: "page", parts: 64)
        #expect(ranges.map(\.records) == [0, 1, 1, 1])
        #expect(ranges.map(\.line) == [1, 8, 8, 9])
        #expect(ranges.map(\.column) == [1, 1, 22, 1])
        #expect(String(decoding: ranges[1].context, as: UTF8.self).hasSuffix("<m xmlns:a='u'\n   b='\n'>"))
        #expect(String(decoding: ranges[1].closing, as: UTF8.self) == "</m>")
    }

    @Test("a range's closing tags close what the framer said is open: a document that is not so fails there")
    func closingTagsCheckTheFramer() throws {
        // A range as the framer would propose it for a document whose `<b>` is still open
        // at the boundary, not `<a>`: its parse fails at the closing tags.
        let text = "<r><a><page/></a><b><page/></b></r>"
        let ranges = try XMLDocumentRange.split(.string(text), record: "page", parts: 2)
        #expect(ranges.map(\.start) == [0, 20])
        let wrong = XMLDocumentRange(
            start: 0, end: 20, line: 1, column: 1, context: [], closing: Array("</a></r>".utf8), records: 1, countsUTF8: true)
        #expect(throws: XMLParseError.self) { try Dispatcher().parse(.range(wrong, of: .string(text))) }
        #expect(throws: Never.self) { try Dispatcher().parse(.range(ranges[0], of: .string(text))) }
    }

    @Test("no range begins inside a record: records around records are read whole, once")
    func recordsAroundRecords() throws {
        let text = "<feed><a><item n='1'/></a><item n='2'><item n='3'/><item n='4'/></item><item n='5'/></feed>"
        let record = XMLRecord("item", .text("@n"), .many("item/@n", as: String.self)) { "\($0):\($1.joined(separator: ","))" }
        let whole = try record.all(in: .string(text))
        for parts in 1...12 {
            var joined: [String] = []
            let ranges = try XMLDocumentRange.split(.string(text), record: "item", parts: parts)
            for range in ranges { joined += try record.all(in: .range(range, of: .string(text))) }
            #expect(joined == whole, "parts \(parts): \(ranges.map(\.start))")
            #expect(!ranges.map(\.start).contains(39) && !ranges.map(\.start).contains(52))
        }
    }

    @Test("typed records read range by range are the records of the whole, in order")
    func records() throws {
        let zoo = XMLInput.file(TestPaths.fixture("zoo.xml").path)
        let record = XMLRecord("animal", .text("kind")) { $0 }
        let whole = try record.all(in: zoo)
        for parts in 1...6 {
            var joined: [String] = []
            for range in try XMLDocumentRange.split(zoo, record: "animal", parts: parts) {
                joined += try record.all(in: .range(range, of: zoo))
            }
            #expect(joined == whole, "parts \(parts)")
        }
    }
}

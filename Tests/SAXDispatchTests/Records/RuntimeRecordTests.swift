import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// Records whose fields are chosen at run time, checked paths, transformed fields, and
/// documents fed piece by piece.
@Suite("Records built at run time")
struct RuntimeRecordTests {
    @Test("XMLRecord(pattern, fields:) receives one value per field, in order")
    func fieldList() throws {
        let paths = ["kind", "nested_nonsense/name", "url"]
        let fields: [RecordField<String>] = try paths.map { .text(try RecordFieldPath($0).description) }
        let row = XMLRecord("animal", fields: fields) { $0 }
        let rows = try row.all(in: .file(TestPaths.fixture("zoo.xml").path))
        #expect(
            rows == [
                ["cat", "grumpy", "http://en.wikipedia.org/wiki/Grumpy_Cat"],
                ["dog", "i have no idea what i'm doing", "http://knowyourmeme.com/memes/i-have-no-idea-what-im-doing"],
            ])
    }

    @Test("a field list reports every failing field, named as declared")
    func fieldListFailures() throws {
        enum Cell: Equatable, Sendable { case number(Int), text(String) }
        let fields: [RecordField<Cell>] = [
            RecordField.value("@n", as: Int.self).map { .number($0) }.named("n"),
            RecordField.text("title").map { .text($0) },
        ]
        let row = XMLRecord("item", fields: fields) { $0 }.named("row")
        let xml = "<list>\n<item n='1'><title>a</title></item>\n<item n='x'/>\n</list>"
        #expect(try row.first(in: .string(xml)) == [.number(1), .text("a")])
        let error = try #require(throws: XMLRecordError.self) { try row.all(in: .string(xml)) }
        #expect(
            error.description == """
                <string>:3:1: error: cannot convert "x" to Int at list/item/@n (in record row, field n): expected an integer
                <string>:3:1: error: record row has no title
                """)
    }

    @Test("RecordFieldPath checks a path from input and says what is wrong")
    func fieldPathErrors() throws {
        for valid in [".", "kind", "a/b", "//name", "@href", "link/@href", "link[@rel='self']/@href", "./a"] {
            #expect(try RecordFieldPath(valid).description == valid)
        }
        let cases: [(String, String)] = [
            ("", "the path is empty; use '.' for the record element"),
            ("/zoo/name", "paths are relative to the record; drop the leading '/'"),
            ("a/@", "'@' must be followed by an attribute name"),
            ("a[", "'@' and an attribute name were expected after '['"),
        ]
        for (text, message) in cases {
            let error = try #require(throws: XMLPatternError.self) { try RecordFieldPath(text) }
            #expect(error.message == message, "\(text)")
            #expect(error.description == "invalid field path \"\(text)\": \(message)")
        }
    }

    @Test("optional and repeated dates in any format")
    func dateFields() throws {
        struct Entry: Equatable, Sendable { let published: Date?; let edited: [Date] }
        let entry = XMLRecord(
            "entry",
            .date("published", as: Date?.self, format: .rfc822, emptyAsNil: true),
            .many("edited", as: Date.self, format: .secondsSince1970)
        ) { Entry(published: $0, edited: $1) }
        let xml = """
            <feed>
              <entry><published>Tue, 10 Jun 2003 04:00:00 GMT</published><edited>60</edited><edited>120.5</edited></entry>
              <entry><published/></entry>
              <entry/>
            </feed>
            """
        #expect(
            try entry.all(in: .string(xml)) == [
                Entry(
                    published: Date(timeIntervalSince1970: 1_055_217_600),
                    edited: [Date(timeIntervalSince1970: 60), Date(timeIntervalSince1970: 120.5)]),
                Entry(published: nil, edited: []),
                Entry(published: nil, edited: []),
            ])
        let bad = "<feed><entry><published>yesterday</published><edited>soon</edited></entry></feed>"
        let error = try #require(throws: XMLRecordError.self) { try entry.all(in: .string(bad)) }
        #expect(error.failures.count == 2)
        #expect(error.failures.map(\.fieldPath) == ["published", "edited"])
    }

    @Test("forEach(in:) reads a document that a reader gives piece by piece, under the given safety profile")
    func feeding() throws {
        let title = XMLRecord("item", .text("title")) { $0 }
        let pieces = ["<rss><item><ti", "tle>One</title></item><item><title>Tw", "o</title></item></rss>"]
        var titles: [String] = []
        let summary = try title.forEach(in: .pieces(pieces.joined(), of: 14)) { titles.append($0) }
        #expect(titles == ["One", "Two"])
        #expect(summary.delivered == 2)

        var shallow = SafetyProfile.default
        shallow.maximumDepth = 2
        titles = []
        let error = try #require(throws: XMLParseError.self) {
            try title.forEach(in: .string(pieces.joined()).named("feed.xml"), safety: shallow) {
                titles.append($0)
            }
        }
        #expect(error.line == 1)
        #expect(error.description.hasPrefix("feed.xml:1:12: error: elements nest deeper than maximumDepth (2)"))
        #expect(titles.isEmpty)
    }

    @Test("every way of reading records takes a safety profile; first(...) reports skipped nested records")
    func safetyAndFirstDiagnostics() throws {
        let title = XMLRecord("title", .text(".")) { $0 }
        var shallow = SafetyProfile.default
        shallow.maximumDepth = 2
        let xml = "<feed><entry><title>a</title></entry></feed>"
        #expect(try title.all(in: .string(xml)) == ["a"])
        let error = try #require(throws: XMLParseError.self) { try title.all(in: .string(xml), safety: shallow) }
        #expect(error.description.hasPrefix("<string>:1:14: error: elements nest deeper than maximumDepth (2)"))
        #expect(throws: XMLParseError.self) { try title.first(in: .string(xml), safety: shallow) }
        #expect(throws: XMLParseError.self) { try title.forEach(in: .bytes(Array(xml.utf8)), safety: shallow) { _ in } }

        let count = XMLRecord("n", .value(".", as: Int.self)) { $0 }.onFailure(.skip)
        let list = XMLRecord("/list", .many("n", count)) { $0 }
        var diagnostics: [String] = []
        let numbers = try list.first(in: .string("<list><n>1</n><n>x</n><n>3</n></list>")) { diagnostics.append("\($0)") }
        #expect(numbers == [1, 3])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.contains(#"cannot convert "x" to Int at list/n"#) == true)
    }
}

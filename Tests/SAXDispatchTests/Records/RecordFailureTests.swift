import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

@Suite("Record nil conventions, errors and failure policies")
struct RecordFailureTests {
    struct Fields: Equatable, Sendable {
        var name: String?
        var count: Int?
        var tags: [String]
    }

    static let fields = XMLRecord(
        "r",
        .value("name", as: String?.self),
        .value("count", as: Int?.self, emptyAsNil: true),
        .many("tag", as: String.self)
    ) { Fields(name: $0, count: $1, tags: $2) }

    @Test("nil conventions for optional fields", arguments: [
        ("<r/>", Fields(name: nil, count: nil, tags: [])),
        (#"<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><name nil="nil"/><count xsi:nil="true"/></r>"#, Fields(name: nil, count: nil, tags: [])),
        (#"<r><name nil="true">x</name><count/></r>"#, Fields(name: nil, count: nil, tags: [])),
        ("<r><name/><count>3</count><tag/><tag>b</tag></r>", Fields(name: "", count: 3, tags: ["", "b"])),
        (#"<r><tag>a</tag><tag nil="nil"/><tag>c</tag></r>"#, Fields(name: nil, count: nil, tags: ["a", "c"])),
    ])
    func nilConventions(xml: String, expected: Fields) throws {
        #expect(try Self.fields.first(in: .string(xml)) == expected)
    }

    @Test("required fields: absent, nil-marked and empty numbers fail; empty String is \"\"")
    func requiredFields() throws {
        let record = XMLRecord("r", .text("name"), .value("count", as: Int.self)) { "\($0)/\($1)" }
        #expect(try record.first(in: .string("<r><name/><count>1</count></r>")) == "/1")
        let cases: [(String, String)] = [
            ("<r><count>1</count></r>", "<string>:1:1: error: record String has no name"),
            (
                "<r>\n <name nil=\"nil\"/><count>1</count></r>",
                "<string>:2:2: error: name of record String is nil but required"
            ),
            (
                "<r><name>a</name>\n<count/></r>",
                "<string>:2:1: error: cannot convert \"\" to Int at r/count (in record String, field count): expected an integer, found empty text"
            ),
        ]
        for (xml, message) in cases {
            #expect {
                _ = try record.first(in: .string(xml))
            } throws: { error in
                "\(error)" == message
            }
        }
    }

    @Test("every failing field of a record is reported, each with its line, column, text and type")
    func multipleFailures() throws {
        let url = TestPaths.fixture("zoo-bad.xml")
        #expect {
            _ = try ZooRecords.zoo.first(in: .file(url))
        } throws: { error in
            guard let error = error as? XMLRecordError else { return false }
            let expected = """
                \(url.path):15:9: error: cannot convert "4x2" to Int at zoo/facilities/toilet (in record Zoo, field toiletCount): expected an integer
                \(url.path):16:9: error: cannot convert "maybe" to Bool at zoo/facilities/disabled_parking (in record Zoo, field facilities/disabled_parking): expected true, false, 1 or 0
                """
            #expect(error.description == expected)
            #expect(error.recordName == "Zoo")
            #expect(error.recordPath == ["zoo"])
            #expect(error.failures.map(\.fieldName) == ["toiletCount", "facilities/disabled_parking"])
            return error.failures.count == 2
        }
    }

    @Test("a bad nested record stops the parse with its own error, naming it and its element")
    func nestedFailure() throws {
        let xml = """
            <zoo><animals>
              <animal><kind>cat</kind><nested_nonsense><name>a</name></nested_nonsense><url>http://a/</url></animal>
              <animal><kind>dog</kind><url>http://b/</url></animal>
            </animals><facilities><toilet>1</toilet><disabled_parking>0</disabled_parking></facilities></zoo>
            """
        #expect {
            _ = try ZooRecords.zoo.first(in: .string(xml))
        } throws: { error in
            "\(error)" == "<string>:3:3: error: record ZooAnimal has no nested_nonsense/name"
        }
    }

    @Test("long offending text is cut in the message, not in the error value")
    func longText() throws {
        let record = XMLRecord("n", .value(".", as: Int.self)) { $0 }
        let text = String(repeating: "9x", count: 40)
        #expect {
            _ = try record.first(in: .string("<n>\(text)</n>"))
        } throws: { error in
            guard let error = error as? XMLRecordError, case .conversion(let kept, _, _) = error.failures[0].reason else {
                return false
            }
            return kept == text && error.description.contains(#"cannot convert "9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9…" to Int"#)
        }
    }

    static let items = """
        <rss><channel>
          <item><title>one</title><pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate></item>
          <item><title>two</title><pubDate>last Tuesday</pubDate></item>
          <item><title>three</title><pubDate>Wed, 11 Jun 2003 04:00:00 GMT</pubDate></item>
        </channel></rss>
        """

    struct Item: Equatable, Sendable {
        let title: String
        let date: Date
    }

    static let item = XMLRecord("item", .text("title"), .date("pubDate", format: .rfc822)) { Item(title: $0, date: $1) }

    @Test("policy fail (the default) stops at the bad record, after delivering the ones before it")
    func policyFail() throws {
        var titles: [String] = []
        #expect(throws: XMLRecordError.self) {
            try Self.item.forEach(in: .string(Self.items)) { titles.append($0.title) }
        }
        #expect(titles == ["one"])
    }

    @Test("first: a not-found error says when every matching element was skipped, and how many")
    func firstWhenAllSkipped() throws {
        let count = XMLRecord("n", .value(".", as: Int.self)) { $0 }.onFailure(.skip)
        let allBad = #expect(throws: XMLRecordError.self) { try count.first(in: .string("<r><n>x</n><n>y</n></r>")) }
        #expect(allBad?.kind == .notFound(pattern: "n", skipped: 2))
        #expect(allBad?.failures.isEmpty == true)
        #expect(allBad?.description == "<string>: error: no element matching n could be built: the failure policy skipped all 2 (record Int)")
        let none = #expect(throws: XMLRecordError.self) { try count.first(in: .string("<r/>")) }
        #expect(none?.kind == .notFound(pattern: "n", skipped: 0))
        #expect(none?.description == "<string>: error: no element matches n (record Int)")
        #expect(try count.first(in: .string("<r><n>x</n><n>7</n></r>")) == 7)
    }

    @Test("policy skip leaves the bad record out and reports it, with the same information as an error")
    func policySkip() throws {
        var titles: [String] = []
        var streamed: [String] = []
        let summary = try Self.item.onFailure(.skip).forEach(in: .string(Self.items), diagnostics: { streamed.append("\($0)") }) {
            titles.append($0.title)
        }
        #expect(titles == ["one", "three"])
        #expect(summary.delivered == 2)
        #expect(summary.failed == 1)
        let message =
            #"<string>:3:27: error: cannot convert "last Tuesday" to Date at rss/channel/item/pubDate (in record Item, field pubDate): expected an RFC 822 date such as Tue, 10 Jun 2003 04:00:00 GMT"#
        #expect(streamed == [message])
        #expect(summary.diagnostics.map(\.description) == [message])
    }

    @Test("policy replace delivers the default in the bad record's place and reports it")
    func policyReplace() throws {
        let fallback = Item(title: "?", date: Date(timeIntervalSince1970: 0))
        var titles: [String] = []
        let summary = try Self.item.onFailure(.replace(with: fallback)).forEach(in: .string(Self.items)) { titles.append($0.title) }
        #expect(titles == ["one", "?", "three"])
        #expect(summary.failed == 1)
    }

    @Test("a skipping nested record is left out of its parent's list; the parent is still built")
    func nestedSkip() throws {
        struct Channel: Equatable { let title: String; let items: [Item] }
        let channel = XMLRecord("channel", .many("item", Self.item.onFailure(.skip)), .text("item/title")) {
            Channel(title: $1, items: $0)
        }
        var diagnostics: [XMLRecordError] = []
        var channels: [Channel] = []
        try channel.forEach(in: .string(Self.items), diagnostics: { diagnostics.append($0) }) { channels.append($0) }
        #expect(channels.first?.items.map(\.title) == ["one", "three"])
        #expect(channels.first?.title == "one")
        #expect(diagnostics.map(\.recordName) == ["Item"])
    }

    @Test("on a dispatcher, a record's error arrives wrapped in a HandlerError")
    func dispatcherWrapping() throws {
        var dispatcher = Dispatcher()
        dispatcher.onRecord(Self.item) { _ in }
        #expect {
            try dispatcher.parse(.string(Self.items))
        } throws: { error in
            guard let error = error as? HandlerError, let record = error.underlying as? XMLRecordError else { return false }
            return record.failures.first?.fieldPath == "pubDate" && error.line == 3
        }
    }

    @Test("on a dispatcher, a record's error states its location once, whole and in pieces")
    func dispatcherRenderingOnce() throws {
        let record = XMLRecord("zoo/animal", .value("legs", as: Int.self)) { $0 }.named("Animal")
        let xml = "<zoo>\n  <animal>\n    <legs>4x2</legs>\n  </animal>\n</zoo>"
        for size in [xml.utf8.count, 1, 7, 4096] {
            var dispatcher = Dispatcher()
            dispatcher.onRecord(record) { _ in }
            let error = #expect(throws: HandlerError.self) { try dispatcher.parse(.pieces(xml, of: size, name: "zoo.xml")) }
            let expected = #"zoo.xml:3:5: error: cannot convert "4x2" to Int at zoo/animal/legs (in record Animal, field legs): expected an integer"#
            #expect(error?.description == expected, "by \(size)")
            #expect(error?.localizedDescription == expected, "by \(size)")
        }
    }

    @Test("a dispatcher reused after a parse that failed inside a record builds the next document's records afresh")
    func reuseAfterFailureInsideRecord() throws {
        var values: [Int] = []
        let item = XMLRecord("item", .value("n", as: Int.self)) { $0 }
        let group = XMLRecord("group", .many("item", item)) { $0 }
        var dispatcher = Dispatcher()
        dispatcher.onRecord(item) { values.append($0) }
        dispatcher.onRecord(group) { values.append(-$0.count) }
        for _ in 0..<10 {
            values = []
            #expect(throws: XMLParseError.self) {
                try dispatcher.parse(.string("<r><group><item><n>1</n></item><item><n>2</n><x>"))
            }
            #expect(values == [1])
            values = []
            try dispatcher.parse(.string("<r><item><n>3</n></item><group><item><n>4</n></item></group></r>"))
            #expect(values == [3, 4, -1])
        }
        // The records a failed parse left open are dropped when the next parse begins one.
        let assembler = RecordAssembler(skipsUnnamed: false, report: { _ in }) { model in
            model.assumingMemoryBound(to: [Int].self).deinitialize(count: 1)
        }
        var alone = Dispatcher()
        alone.mount(assembler.handlers(for: group.plan), at: group.pattern)
        #expect(throws: XMLParseError.self) { try alone.parse(.string("<r><group><item><n>1</n></item><item><n>2</n><x>")) }
        #expect(assembler.openRecordCount == 2)
        try alone.parse(.string("<group><item><n>3</n></item></group>"))
        #expect(assembler.openRecordCount == 0)
    }
}

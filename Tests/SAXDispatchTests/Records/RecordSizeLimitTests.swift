import Testing

@testable import SAXDispatch

/// A record holds what its fields read, up to a limit: past it the parse fails naming the
/// record, rather than holding without bound what a list field or an entity expansion brings.
@Suite("Record size limit")
struct RecordSizeLimitTests {
    static func tags(_ count: Int, item: Int) -> String {
        "<item n='\(item)'>" + (0..<count).map { "<tag k='key-number-\($0 % 10)-of-this-item'/>" }.joined() + "</item>"
    }

    @Test("a list field past the limit fails the parse at the record's start tag, after the records before it")
    func listPastTheLimit() throws {
        let item = XMLRecord("item", .value("@n", as: Int.self), .many("tag/@k", as: String.self)) { ($0, $1.count) }
            .maximumRecordBytes(1_000)
        // 15 tags of 25 bytes (each counted with 32 more) fit; 50 do not.
        let xml = "<r>\n" + Self.tags(10, item: 1) + "\n" + Self.tags(15, item: 2) + "\n" + Self.tags(50, item: 3) + "</r>"
        var delivered: [Int] = []
        let error = #expect(throws: XMLParseError.self) {
            try item.forEach(in: .string(xml)) { delivered.append($0.0) }
        }
        #expect(delivered == [1, 2])
        #expect(error?.code == .recordSizeLimitExceeded)
        #expect(error?.elementPath == ["r", "item"])
        #expect(error?.line == 4 && error?.column == 1)
        #expect(error?.limit == 1_000)
        #expect(error?.message == "<item> holds more than maximumRecordBytes (1000 bytes) of list values and nested records")
        #expect(error?.description == "<string>:4:1: error: <item> holds more than maximumRecordBytes (1000 bytes) of list values and nested records (in r/item)")
    }

    @Test("values a single field leaves unread, and records that fit, cost nothing against the limit")
    func onlyWhatIsKept() throws {
        let first = XMLRecord("item", .text("title")) { $0 }.maximumRecordBytes(200)
        let xml = "<r><item>" + String(repeating: "<title>a title of some length</title>", count: 1_000) + "</item></r>"
        #expect(try first.all(in: .string(xml)) == ["a title of some length"])
    }

    @Test("nested records count towards their parent's limit")
    func nestedRecords() throws {
        let tag = XMLRecord("tag", .text("@k")) { $0 }
        let item = XMLRecord("item", .many("tag", tag)) { $0.count }.maximumRecordBytes(1_000)
        #expect(try item.all(in: .string("<r>" + Self.tags(12, item: 1) + "</r>")) == [12])
        let error = #expect(throws: XMLParseError.self) { try item.all(in: .string("<r>" + Self.tags(30, item: 1) + "</r>")) }
        #expect(error?.code == .recordSizeLimitExceeded)
        #expect(error?.elementPath == ["r", "item"])
        #expect(RecordPlan.defaultMaximumBytes == 16 << 20)
    }

    @Test("the limit is the document's: a record that skips its failures still ends the parse")
    func skipPolicyDoesNotSkipTheLimit() throws {
        let item = XMLRecord("item", .value("@n", as: Int.self), .many("tag/@k", as: String.self)) { ($0, $1.count) }
            .maximumRecordBytes(1_000)
            .onFailure(.skip)
        let error = #expect(throws: XMLParseError.self) { try item.all(in: .string("<r>\n" + Self.tags(50, item: 1) + "</r>")) }
        #expect(error?.code == .recordSizeLimitExceeded)
        #expect(error?.line == 2 && error?.column == 1)
    }

    @Test("on a dispatcher, the limit arrives in a HandlerError that states its location once")
    func onADispatcher() throws {
        let item = XMLRecord("item", .many("tag/@k", as: String.self)) { $0.count }.maximumRecordBytes(1_000)
        var dispatcher = Dispatcher()
        dispatcher.onRecord(item) { _ in }
        let error = #expect(throws: HandlerError.self) {
            try dispatcher.parse(.string("<r>\n" + Self.tags(50, item: 1) + "</r>").named("tags.xml"))
        }
        let limit = error?.underlying as? XMLParseError
        #expect(limit?.code == .recordSizeLimitExceeded)
        #expect(limit?.elementPath == ["r", "item"])
        #expect(limit?.byteOffset == 4)
        #expect(error?.description == "tags.xml:2:1: error: <item> holds more than maximumRecordBytes (1000 bytes) of list values and nested records (in r/item)")
    }
}

import Testing

@testable import SAXDispatch

/// Records begun at one element, and records nested in records of their own kind: each
/// field value goes to the record its path is relative to, whichever way the record is read.
@Suite("Records nested in their own kind, or begun at one element")
struct NestedRecordTests {
    struct Named: Equatable { let name: String }
    struct Mailed: Equatable { let email: String }

    /// Every record of `record` in `xml`, read alone and through a shared dispatcher;
    /// both readings must agree.
    static func models<Model: Equatable>(_ record: XMLRecord<Model>, _ xml: String) throws -> [Model] {
        let alone = try record.all(in: .string(xml))
        var shared: [Model] = []
        var dispatcher = Dispatcher()
        dispatcher.onRecord(record) { shared.append($0) }
        dispatcher.onEnd("//unrelated") { _ in }
        try dispatcher.parse(.string(xml))
        #expect(alone == shared)
        return alone
    }

    @Test("two nested records at one path each build from their own fields")
    func twoRecordsAtOneElement() throws {
        struct Item: Equatable { let named: Named; let mailed: Mailed }
        let named = XMLRecord("author", .text("name")) { Named(name: $0) }
        let mailed = XMLRecord("author", .text("email")) { Mailed(email: $0) }
        let item = XMLRecord("/r/item", .record("author", named), .record("author", mailed)) {
            Item(named: $0, mailed: $1)
        }
        let xml = "<r><item><author><name>Ann</name><email>a@x</email></author></item></r>"
        #expect(try Self.models(item, xml) == [Item(named: Named(name: "Ann"), mailed: Mailed(email: "a@x"))])
    }

    @Test("an element that is a record and also a nested record of an enclosing one is both, in a tree")
    func treeOfRecords() throws {
        struct Child: Equatable { let text: String; let type: String? }
        struct Outline: Equatable { let text: String; let children: [Child] }
        // The child record has one field more than the outline record: its slots must not be mixed up.
        let child = XMLRecord("outline", .text("@text"), .optional(.text("@type"))) { Child(text: $0, type: $1) }
        let outline = XMLRecord("outline", .text("@text"), .many("outline", child)) { Outline(text: $0, children: $1) }
        let xml = #"<opml><outline text="a"><outline text="b" type="rss"/><outline text="c"/></outline></opml>"#
        #expect(
            try Self.models(outline, xml) == [
                Outline(text: "b", children: []),
                Outline(text: "c", children: []),
                Outline(text: "a", children: [Child(text: "b", type: "rss"), Child(text: "c", type: nil)]),
            ])
    }

    @Test("a field's element goes to the record its path is relative to, not the innermost one")
    func fieldsOfEnclosingRecord() throws {
        struct Section: Equatable { let title: String; let subtitles: [String]; let figures: [String] }
        let figure = XMLRecord("figure", .text("@id")) { $0 }
        let section = XMLRecord(
            "section", .text("title"), .many("section/title", as: String.self), .many("section/figure", figure)
        ) { Section(title: $0, subtitles: $1, figures: $2) }
        let xml = """
            <doc><section><title>A</title><section><title>B</title><figure id="f1"/></section>\
            <section><title>C</title><figure id="f2"/></section></section></doc>
            """
        #expect(
            try Self.models(section, xml) == [
                Section(title: "B", subtitles: [], figures: []),
                Section(title: "C", subtitles: [], figures: []),
                Section(title: "A", subtitles: ["B", "C"], figures: ["f1", "f2"]),
            ])
    }

    @Test("the record element's own text read under two whitespace policies")
    func ownTextUnderTwoPolicies() throws {
        struct Price: Equatable { let raw: String; let amount: Int; let trimmed: String }
        let price = XMLRecord("/r/p", .text(".", whitespace: .preserve), .value(".", as: Int.self), .text(".")) {
            Price(raw: $0, amount: $1, trimmed: $2)
        }
        #expect(try Self.models(price, "<r><p> 42 </p><p>7</p></r>") == [
            Price(raw: " 42 ", amount: 42, trimmed: "42"), Price(raw: "7", amount: 7, trimmed: "7"),
        ])
    }

    @Test("a field that starts anywhere below (//) belongs to every enclosing record of the kind")
    func anywhereFieldsOfNestedRecords() throws {
        struct Section: Equatable { let first: String; let all: [String] }
        let section = XMLRecord("sec", .text("//title"), .many("//title", as: String.self)) { Section(first: $0, all: $1) }
        let xml = "<r><sec><title>A</title><sec><title>B</title></sec></sec><sec><p><sec><title>C</title></sec></p></sec></r>"
        #expect(
            try Self.models(section, xml) == [
                Section(first: "B", all: ["B"]), Section(first: "A", all: ["A", "B"]),
                Section(first: "C", all: ["C"]), Section(first: "C", all: ["C"]),
            ])
    }

    @Test("a failure of a field with '//' in its path shows the '//', not a path the element need not have")
    func anywhereFieldFailurePaths() throws {
        let item = XMLRecord("item", .value("//n", as: Int.self), .value("a//b/@v", as: Int.self)) { $0 + $1 }
        let xml = "<r><item><g><n>x1</n></g><a><c><b v='x2'/></c></a></item></r>"
        let error = #expect(throws: XMLRecordError.self) { try item.all(in: .string(xml)) }
        #expect(error?.failures.map(\.elementPath.description) == ["r/item//n", "r/item/a//b/@v"])
        #expect(error?.failures.map(\.line) == [1, 1])
    }
}

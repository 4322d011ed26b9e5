import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// The one rule for values that are present but empty (the EmptyValues article): `""` for
/// text, `nil` for an optional whose type reads nothing from empty text, the default of a
/// defaulted field, a conversion failure naming the element where a value is required;
/// the same in typed records and in the `Decodable` decoder.
@Suite("Empty-but-present values: one rule for records and Decodable")
struct EmptyValueRuleTests {
    enum Mood: String, XMLTextConvertible, Decodable, Equatable { case calm, busy }
    /// A type of its own with a value for empty text: no tags.
    struct Tags: XMLTextConvertible, Decodable, Equatable {
        var names: [String]
        init(names: [String]) { self.names = names }
        init(xmlText: String) throws { names = xmlText.split(separator: ",").map(String.init) }
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            names = try container.decode(String.self).split(separator: ",").map(String.init)
        }
    }

    struct Entry: Decodable, Equatable {
        var title: String?
        var date: Date?
        var count: Int?
        var link: URL?
        var flag: Bool?
        var price: Decimal?
        var mood: Mood?
        var tags: Tags?
        var ratio: Double?
    }

    /// Every field present but empty, in each of the ways a document writes it.
    static let emptyDocuments = [
        "<entry><title/><date/><count/><link/><flag/><price/><mood/><tags/><ratio/></entry>",
        "<entry><title></title><date>  </date><count>\n</count><link> </link><flag/><price/><mood/><tags/><ratio/></entry>",
        #"<entry title="" date="" count="" link="" flag="" price="" mood="" tags="" ratio=""/>"#,
    ]
    static let emptyEntry = Entry(
        title: "", date: nil, count: nil, link: nil, flag: nil, price: nil, mood: nil, tags: Tags(names: []), ratio: nil)

    static func record(attributes: Bool) -> XMLRecord<Entry> {
        let p = attributes ? "@" : ""
        return XMLRecord(
            "entry",
            .value(p + "title", as: String?.self),
            .value(p + "date", as: Date?.self),
            .value(p + "count", as: Int?.self),
            .value(p + "link", as: URL?.self),
            .value(p + "flag", as: Bool?.self),
            .value(p + "price", as: Decimal?.self),
            .value(p + "mood", as: Mood?.self),
            .value(p + "tags", as: Tags?.self),
            .value(p + "ratio", as: Double?.self)
        ) {
            Entry(title: $0, date: $1, count: $2, link: $3, flag: $4, price: $5, mood: $6, tags: $7, ratio: $8)
        }
    }

    @Test("records: empty elements and attributes are \"\" for String?, nil for types without an empty value", arguments: [0, 1, 2])
    func records(index: Int) throws {
        let record = Self.record(attributes: index == 2)
        #expect(try record.first(in: .string(Self.emptyDocuments[index])) == Self.emptyEntry)
    }

    @Test("Decodable: the same document decodes to the same value", arguments: [0, 1, 2])
    func decodable(index: Int) throws {
        let entry = try XMLRecordDecoder().all(Entry.self, at: "entry", in: .string(Self.emptyDocuments[index])).first
        #expect(entry == Self.emptyEntry)
    }

    @Test("values that are not empty still convert, and still fail when they do not")
    func nonEmptyValues() throws {
        let xml = """
            <entry><title>T</title><date>2024-03-01</date><count>3</count><link>https://example.org/a</link>\
            <flag>1</flag><price>2.50</price><mood>busy</mood><tags>a,b</tags><ratio>0.5</ratio></entry>
            """
        let fromRecord = try Self.record(attributes: false).first(in: .string(xml))
        let decoded = try XMLRecordDecoder().all(Entry.self, at: "entry", in: .string(xml)).first
        #expect(fromRecord == decoded)
        #expect(fromRecord.count == 3)
        #expect(fromRecord.mood == .busy)
        #expect(fromRecord.tags == Tags(names: ["a", "b"]))
        #expect(fromRecord.link?.absoluteString == "https://example.org/a")

        let bad = "<entry><count>x</count></entry>"
        #expect(throws: XMLRecordError.self) { try Self.record(attributes: false).first(in: .string(bad)) }
        #expect(throws: XMLDecodingError.self) { try XMLRecordDecoder().all(Entry.self, at: "entry", in: .string(bad)).first }
    }

    @Test("whitespace is empty under trimming, and not when whitespace is preserved")
    func preservedWhitespace() throws {
        let record = XMLRecord("r", .value("n", whitespace: .preserve) { @Sendable in $0 }, .value("n", as: Int?.self)) {
            ($0, $1)
        }
        let value = try record.first(in: .string("<r><n>  </n></r>"))
        #expect(value.0 == "  ")
        #expect(value.1 == nil)

        struct Spaced: Decodable { var n: Int? }
        var decoder = XMLRecordDecoder()
        decoder.whitespace = .preserve
        #expect(throws: XMLDecodingError.self) { try decoder.all(Spaced.self, at: "r", in: .string("<r><n>  </n></r>")).first }
        #expect(try XMLRecordDecoder().all(Spaced.self, at: "r", in: .string("<r><n>  </n></r>")).first?.n == nil)
    }

    @Test("a required value that is empty is a conversion failure naming the element")
    func requiredEmpty() throws {
        let record = XMLRecord("item", .value("count", as: Int.self), .date("published")) { ($0, $1) }
        let xml = "<feed>\n  <item>\n    <count/>\n    <published/>\n  </item>\n</feed>"
        do {
            _ = try record.first(in: .string(xml))
            Issue.record("an empty Int was read")
        } catch let error as XMLRecordError {
            #expect(error.failures.count == 2)
            let lines = error.failures.map(\.description)
            #expect(lines.count == 2)
            #expect(lines.first?.hasPrefix("3:5: cannot convert \"\" to Int at feed/item/count") == true)
            #expect(lines.last?.hasPrefix("4:5: cannot convert \"\" to Date at feed/item/published") == true)
        }

        struct Item: Decodable { var count: Int }
        do {
            _ = try XMLRecordDecoder().all(Item.self, at: "feed/item", in: .string(xml)).first
            Issue.record("an empty Int was decoded")
        } catch let error as XMLDecodingError {
            guard case .dataCorrupted(let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(context.codingPath.map(\.stringValue) == ["count"])
            #expect(context.debugDescription.contains("feed/item/count"))
        }
    }

    @Test("a defaulted field reads its default for empty text; a String default reads \"\"")
    func defaults() throws {
        let record = XMLRecord(
            "r", .value("open", as: Bool.self, default: true), .value("name", as: String.self, default: "none")
        ) { ($0, $1) }
        let value = try record.first(in: .string("<r><open/><name/></r>"))
        #expect(value.0 == true)
        #expect(value.1 == "")
    }

    @Test(".optional around any field: empty is nil for a date, \"\" for text")
    func optionalWrapper() throws {
        let record = XMLRecord(
            "r", .optional(.date("d", format: .rfc822)), .optional(.text("t")), .optional(.value("n", as: Int.self))
        ) { ($0, $1, $2) }
        let value = try record.first(in: .string("<r><d/><t/><n/></r>"))
        #expect(value.0 == nil)
        #expect(value.1 == "")
        #expect(value.2 == nil)
        // Text that is there and wrong still fails.
        #expect(throws: XMLRecordError.self) { try record.first(in: .string("<r><d>soon</d></r>")) }
    }

    @Test("the opt-outs: emptyAsNil and emptyElementsAreNil make an empty String? nil too")
    func optOuts() throws {
        let record = XMLRecord("r", .value("s", as: String?.self, emptyAsNil: true), .value("n", as: Int?.self, emptyAsNil: true)) {
            ($0, $1)
        }
        let value = try record.first(in: .string("<r><s/><n/></r>"))
        #expect(value.0 == nil)
        #expect(value.1 == nil)

        struct R: Decodable { var s: String?; var n: Int? }
        var decoder = XMLRecordDecoder()
        decoder.emptyElementsAreNil = true
        let decoded = try decoder.all(R.self, at: "r", in: .string("<r><s/><n/></r>")).first
        #expect(decoded?.s == nil)
        #expect(decoded?.n == nil)
        let byDefault = try XMLRecordDecoder().all(R.self, at: "r", in: .string("<r><s/><n/></r>")).first
        #expect(byDefault?.s == "")
        #expect(byDefault?.n == nil)
    }

    @Test("Decodable: an empty element read as a nested type is nil unless the type decodes from nothing")
    func nestedDecodable() throws {
        struct Address: Decodable, Equatable { var street: String }
        struct Note: Decodable, Equatable { var lang: String? }
        struct Person: Decodable, Equatable { var address: Address?; var note: Note? }
        let person = try XMLRecordDecoder().all(Person.self, at: "p", in: .string("<p><address/><note/></p>")).first
        #expect(person == Person(address: nil, note: Note(lang: nil)))
        // With attributes the element is not empty: a missing child is still an error.
        #expect(throws: XMLDecodingError.self) {
            try XMLRecordDecoder().all(Person.self, at: "p", in: .string(#"<p><address kind="home"/></p>"#)).first
        }
    }
}

import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// The code of TypedRecords.md, verbatim.
@Suite("Article: Typed records")
struct TypedRecordsArticleTests {
    @Test("fields: attribute, collapsed text, URL, RFC 822 date, optional, list")
    func fields() throws {
        let document = """
            <rss><channel>
              <item id="1">
                <title>Hello</title>
                <link>https://example.com/hello</link>
                <pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate>
                <category>news</category><category>swift</category>
              </item>
              <item id="2">
                <title>  Second   post </title>
                <link>https://example.com/second</link>
                <comments nil="nil"/>
                <pubDate>Wed, 11 Jun 2003 09:30:00 GMT</pubDate>
              </item>
            </channel></rss>
            """
        struct Item {
            let id: Int
            let title: String
            let link: URL
            let published: Date
            let comments: Int?
            let categories: [String]
        }
        let item = XMLRecord("item",
            .value("@id", as: Int.self),
            .text("title", whitespace: .collapse),
            .value("link", as: URL.self),
            .date("pubDate", format: .rfc822),
            .value("comments", as: Int?.self),
            .many("category", as: String.self)
        ) { Item(id: $0, title: $1, link: $2, published: $3, comments: $4, categories: $5) }

        let items = try item.all(in: .string(document))
        // items[0].categories == ["news", "swift"], items[1].categories == []
        // items[1].title == "Second post"; items[0].comments and items[1].comments are nil

        #expect(items.map(\.id) == [1, 2])
        #expect(items[0].categories == ["news", "swift"])
        #expect(items[1].categories == [])
        #expect(items.map(\.title) == ["Hello", "Second post"])
        #expect(items[0].comments == nil && items[1].comments == nil)
        #expect(items[1].link == URL(string: "https://example.com/second"))
        #expect(items[0].published == Date(timeIntervalSince1970: 1_055_217_600))
    }

    @Test("the nil conventions the article lists")
    func nilConventions() throws {
        struct Fields: Equatable, Sendable { let name: String?; let count: Int?; let tags: [String]; let open: Bool }
        let record = XMLRecord("r",
            .value("name", as: String?.self),
            .value("count", as: Int?.self, emptyAsNil: true),
            .many("tag", as: String.self),
            .value("open", as: Bool.self, default: false)
        ) { Fields(name: $0, count: $1, tags: $2, open: $3) }
        #expect(try record.first(in: .string("<r/>")) == Fields(name: nil, count: nil, tags: [], open: false))
        #expect(
            try record.first(in: .string(#"<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><name nil="true"/><count/><tag>a</tag><tag xsi:nil="true"/><open nil="nil"/></r>"#))
                == Fields(name: nil, count: nil, tags: ["a"], open: false))
        #expect(try record.first(in: .string("<r><name/><open>1</open></r>")) == Fields(name: "", count: nil, tags: [], open: true))

        let required = XMLRecord("r", .text("name"), .value("count", as: Int.self)) { "\($0)\($1)" }
        #expect(throws: XMLRecordError.self) { try required.first(in: .string("<r><name/><count/></r>")) }
        let markedNil = #expect(throws: XMLRecordError.self) { try required.first(in: .string(#"<r><name nil="nil"/><count>1</count></r>"#)) }
        #expect(markedNil?.description == "<string>:1:4: error: name of record String is nil but required")
        // A single field whose element occurs more than once takes the first.
        #expect(try required.first(in: .string("<r><name>a</name><name>b</name><count>1</count></r>")) == "a1")
    }

    @Test("conversions: a raw-value enum, an own type, a one-field closure")
    func conversions() throws {
        enum Status: String, XMLTextConvertible { case active, closed }

        struct Celsius: XMLTextConvertible {
            var degrees: Double
            init(xmlText: String) throws {
                guard xmlText.hasSuffix("°C"), let value = Double(xmlText.dropLast(2)) else {
                    throw ValueConversionError("expected a temperature such as 21.5°C")
                }
                degrees = value
            }
        }
        struct Room { let status: Status; let temperature: Celsius; let seats: Int }

        let room = XMLRecord("room",
            .value("status", as: Status.self),
            .value("temperature", as: Celsius.self),
            .value("size") { @Sendable text in
                guard text.hasSuffix(" seats"), let seats = Int(text.dropLast(6)) else {
                    throw ValueConversionError("expected a number of seats")
                }
                return seats
            }
        ) { Room(status: $0, temperature: $1, seats: $2) }

        let model = try room.first(in: .string("""
            <room><status>active</status><temperature> 21.5°C </temperature><size>25 seats</size></room>
            """))
        // model.status == .active, model.temperature.degrees == 21.5, model.seats == 25

        #expect(model.status == .active)
        #expect(model.temperature.degrees == 21.5)
        #expect(model.seats == 25)

        // The prose: strict standard conversions.
        #expect(throws: ValueConversionError.self) { try Bool(xmlText: "yes") }
        #expect(throws: ValueConversionError.self) { try Int(xmlText: "12abc") }
        #expect(throws: ValueConversionError.self) { try Decimal(xmlText: "1.5x") }
        #expect(throws: ValueConversionError.self) { try URL(xmlText: "") }
        #expect(try Double(xmlText: "-INF") == -.infinity)
        #expect(try Date(xmlText: "2024-03-01T12:30") == Date(timeIntervalSince1970: 1_709_296_200))
    }

    @Test("a failure policy skips the bad record and reports it")
    func failurePolicy() throws {
        struct Post: Sendable { let title: String; let published: Date }
        let document = """
            <rss><channel>
              <item><title>one</title><pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate></item>
              <item><title>two</title><pubDate>last Tuesday</pubDate></item>
              <item><title>three</title><pubDate>Wed, 11 Jun 2003 04:00:00 GMT</pubDate></item>
            </channel></rss>
            """
        let post = XMLRecord("item", .text("title"), .date("pubDate", format: .rfc822)) {
            Post(title: $0, published: $1)
        }.onFailure(.skip)                                 // or .replace(with: placeholder)

        var titles: [String] = []
        var problems: [String] = []
        let summary = try post.forEach(in: .string(document), diagnostics: { problems.append("\($0)") }) { post in
            titles.append(post.title)
        }
        // titles == ["one", "three"], summary.delivered == 2, summary.failed == 1

        #expect(titles == ["one", "three"])
        #expect(summary.delivered == 2)
        #expect(summary.failed == 1)
        #expect(summary.diagnostics.map(\.description) == problems)
        #expect(problems == (try DocumentationCatalog.textBlocks(of: "TypedRecords.md")))

        // .fail, the default, throws that error after delivering the records before it.
        var delivered: [String] = []
        let error = #expect(throws: XMLRecordError.self) {
            try post.onFailure(.fail).forEach(in: .string(document)) { delivered.append($0.title) }
        }
        #expect(delivered == ["one"])
        #expect(error.map { [$0.description] } == problems)
    }

    @Test("a record's lists are held to maximumRecordBytes")
    func recordSizeLimit() throws {
        let feed = XMLRecord("/feed", .many("entry/title", as: String.self)) { $0 }
            .maximumRecordBytes(64 << 20)
        let xml = "<feed>" + String(repeating: "<entry><title>t</title></entry>", count: 3) + "</feed>"
        #expect(try feed.all(in: .string(xml)) == [["t", "t", "t"]])
        let tooLarge = #expect(throws: XMLParseError.self) { try feed.maximumRecordBytes(64).all(in: .string(xml)) }
        #expect(tooLarge?.code == .recordSizeLimitExceeded)
    }

    @Test("composition: nested records by type; a record next to other handlers; run-time fields")
    func composition() throws {
        struct Author: RecordModel {
            let id: Int
            let name: String
            static let record = XMLRecord("author", .value("@id", as: Int.self), .text("name")) {
                Author(id: $0, name: $1)
            }
        }
        struct Book: RecordModel {
            let title: String
            let authors: [Author]
            let editor: Author?
            static let record = XMLRecord("/catalog/book",
                .text("title"),
                .many("authors/author", Author.record),
                .optional(.record("editor", Author.record))
            ) { Book(title: $0, authors: $1, editor: $2) }
        }

        let document = """
            <catalog>
              <book>
                <title>Streams</title>
                <authors><author id="1"><name>Ann</name></author><author id="2"><name>Bo</name></author></authors>
                <editor id="3"><name>Cy</name></editor>
              </book>
              <book><title>Trees</title><authors><author id="4"><name>Di</name></author></authors></book>
            </catalog>
            """
        let books = try Book.records(in: .string(document))
        // books.map(\.title) == ["Streams", "Trees"], books[0].authors.map(\.name) == ["Ann", "Bo"]
        // books[0].editor?.name == "Cy", books[1].editor == nil

        #expect(books.map(\.title) == ["Streams", "Trees"])
        #expect(books[0].authors.map(\.name) == ["Ann", "Bo"])
        #expect(books[0].authors.map(\.id) == [1, 2])
        #expect(books[0].editor?.name == "Cy")
        #expect(books[1].editor == nil)

        do {
            var titles: [String] = []
            var bookCount = 0
            var dispatcher = Dispatcher()
            dispatcher.onRecord(Book.record) { book in titles.append(book.title) }
            dispatcher.onStart("book") { _ in bookCount += 1 }
            try dispatcher.parse(.string(document))
            // titles == ["Streams", "Trees"], bookCount == 2

            #expect(titles == ["Streams", "Trees"])
            #expect(bookCount == 2)

            // The prose: on a dispatcher, a record's error comes wrapped in a HandlerError.
            let error = #expect(throws: HandlerError.self) {
                try dispatcher.parse(.string("<catalog><book><authors/></book></catalog>"))
            }
            #expect(error?.underlying is XMLRecordError)
        }

        do {
            let paths = ["title", "authors/author/name", "@isbn"]     // from a configuration file
            let columns: [RecordField<String?>] = try paths.map { path in
                .optional(.text(try RecordFieldPath(path).description))
            }
            let row = XMLRecord("book", fields: columns) { $0 }
            let rows = try row.all(in: .string(document))
            // rows == [["Streams", "Ann", nil], ["Trees", "Di", nil]]

            #expect(rows == [["Streams", "Ann", nil], ["Trees", "Di", nil]])
        }

        // The prose: a nested record's skip policy leaves the bad item out of the list.
        let lenient = XMLRecord("/catalog/book",
            .text("title"),
            .many("authors/author", Author.record.onFailure(.skip))
        ) { title, authors in "\(title): \(authors.map(\.name))" }
        #expect(try lenient.first(in: .string("<catalog><book><title>T</title><authors><author id='x'><name>A</name></author><author id='2'><name>B</name></author></authors></book></catalog>")) == #"T: ["B"]"#)

        // The prose: first throws an XMLRecordError of kind notFound when nothing matches.
        let notFound = #expect(throws: XMLRecordError.self) { try Book.record.first(in: .string("<catalog/>")) }
        #expect(notFound?.kind == .notFound(pattern: Book.record.pattern.description, skipped: 0))
    }

    @Test("reading: the zoo's records from a file, first, one by one and all")
    func readingFromAFile() throws {
        let path = TestPaths.fixture("zoo.xml").path
        var printed: [String] = []
        func print(_ line: String) { printed.append(line) }
        struct Animal { let kind: String; let name: String; let url: URL }
        struct Zoo { let animals: [Animal]; let toiletCount: Int; let disabledParking: Bool }
        let animal = XMLRecord("animal",
            .text("kind"),
            .text("nested_nonsense/name"),
            .value("url", as: URL.self)
        ) { Animal(kind: $0, name: $1, url: $2) }
        let zoo = XMLRecord("/zoo",
            .many("animals/animal", animal),
            .value("facilities/toilet", as: Int.self).named("toiletCount"),
            .value("facilities/disabled_parking", as: Bool.self, default: false)
        ) { Zoo(animals: $0, toiletCount: $1, disabledParking: $2) }

        let model = try zoo.first(in: .file(path))                   // the one root record
        try animal.forEach(in: .file(path)) { print($0.name) }       // record by record, constant memory
        let all = try animal.all(in: .file(path))                    // or collected

        #expect(model.animals.map(\.kind) == ["cat", "dog"])
        #expect(model.toiletCount == 42 && model.disabledParking)
        #expect(printed == ["grumpy", "i have no idea what i'm doing"])
        #expect(all.map(\.url.absoluteString) == [
            "http://en.wikipedia.org/wiki/Grumpy_Cat", "http://knowyourmeme.com/memes/i-have-no-idea-what-im-doing",
        ])
    }

    @Test("run-time fields of different types, mapped to one, from bytes named in errors")
    func mappedRuntimeFields() throws {
        let userPath = "title"
        let body = Array("<rss><item id='7'><title>Hello</title></item></rss>".utf8)
        var rows: [String] = []
        func print(_ cells: [Any]) { rows.append(cells.map { "\($0)" }.joined(separator: ", ")) }

        enum Cell: Sendable { case text(String), number(Int) }
        let columns: [RecordField<Cell>] = [
            RecordField.text(try RecordFieldPath(userPath).description).map { .text($0) },
            RecordField.value("@id", as: Int.self).map { .number($0) }.named("id"),
        ]
        let row = XMLRecord("item", fields: columns) { $0 }                  // [Cell] per <item>
        try row.forEach(in: .bytes(body).named("feed.xml"), safety: .strict) { cells in print(cells) }

        #expect(rows == [#"text("Hello"), number(7)"#])
    }
}

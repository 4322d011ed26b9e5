import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// Models of the zoo fixture, read with records.
struct ZooAnimal: Equatable, Sendable {
    let kind: String
    let name: String
    let url: URL
}

struct ZooModel: Equatable, Sendable {
    let animals: [ZooAnimal]
    let toiletCount: Int
    let disabledParking: Bool
}

enum ZooRecords {
    static let animal = XMLRecord(
        "animal",
        .text("kind"),
        .text("nested_nonsense/name"),
        .value("url", as: URL.self)
    ) { ZooAnimal(kind: $0, name: $1, url: $2) }

    static let zoo = XMLRecord(
        "/zoo",
        .many("animals/animal", animal),
        .value("facilities/toilet", as: Int.self).named("toiletCount"),
        .value("facilities/disabled_parking", as: Bool.self)
    ) { ZooModel(animals: $0, toiletCount: $1, disabledParking: $2) }
        .named("Zoo")
}

@Suite("Typed records")
struct RecordTests {
    static let grumpy = ZooAnimal(
        kind: "cat", name: "grumpy", url: URL(string: "http://en.wikipedia.org/wiki/Grumpy_Cat")!)

    @Test("the zoo fixture becomes one Zoo with its animals, composed from the Animal record")
    func zooFixture() throws {
        let zoo = try ZooRecords.zoo.first(in: .file(TestPaths.fixture("zoo.xml")))
        #expect(zoo.toiletCount == 42)
        #expect(zoo.disabledParking == true)
        #expect(zoo.animals.count == 2)
        #expect(zoo.animals.first == Self.grumpy)
        #expect(zoo.animals.last?.name == "i have no idea what i'm doing")
    }

    @Test("a record used alone streams one model per element, in document order")
    func recordAlone() throws {
        var kinds: [String] = []
        let summary = try ZooRecords.animal.forEach(in: .file(TestPaths.fixture("zoo.xml"))) { kinds.append($0.kind) }
        #expect(kinds == ["cat", "dog"])
        #expect(summary.delivered == 2)
        #expect(summary.failed == 0)
    }

    @Test("the same record at two paths, and registered on a dispatcher next to other handlers")
    func sameRecordTwoPaths() throws {
        struct Person: Equatable { let name: String; let id: Int }
        struct Post: Equatable { let author: Person; let editors: [Person]; let title: String }
        let person = XMLRecord("person", .text("name"), .value("@id", as: Int.self)) { Person(name: $0, id: $1) }
        let post = XMLRecord("post", .record("author", person), .many("editors/editor", person), .text("title")) {
            Post(author: $0, editors: $1, title: $2)
        }
        let xml = """
            <blog><post><title>T</title><author id="1"><name>Ann</name></author>
            <editors><editor id="2"><name>Bo</name></editor><editor id="3"><name>Cy</name></editor></editors></post>
            <footer>f</footer></blog>
            """
        var posts: [Post] = []
        var footer = ""
        var dispatcher = Dispatcher()
        dispatcher.onRecord(post) { posts.append($0) }
        dispatcher.onEnd("footer") { _, text in footer = text }
        try dispatcher.parse(.string(xml))
        #expect(
            posts == [
                Post(
                    author: Person(name: "Ann", id: 1), editors: [Person(name: "Bo", id: 2), Person(name: "Cy", id: 3)],
                    title: "T")
            ])
        #expect(footer == "f")
    }

    @Test("composition three levels deep: Library → Shelf → Book → Author")
    func threeLevels() throws {
        struct Author: Equatable { let name: String }
        struct Book: Equatable { let title: String; let authors: [Author] }
        struct Shelf: Equatable { let label: String; let books: [Book] }
        struct Library: Equatable { let shelves: [Shelf]; let city: String }
        let author = XMLRecord("author", .text(".")) { Author(name: $0) }
        let book = XMLRecord("book", .text("@title"), .many("author", author)) { Book(title: $0, authors: $1) }
        let shelf = XMLRecord("shelf", .text("label"), .many("book", book)) { Shelf(label: $0, books: $1) }
        let library = XMLRecord("library", .many("shelves/shelf", shelf), .text("@city")) {
            Library(shelves: $0, city: $1)
        }
        let xml = """
            <library city="Oslo"><shelves>
              <shelf><label>A</label><book title="X"><author>Ann</author><author>Bo</author></book><book title="Y"/></shelf>
              <shelf><label>B</label></shelf>
            </shelves></library>
            """
        let model = try library.first(in: .string(xml))
        #expect(model.city == "Oslo")
        #expect(
            model.shelves == [
                Shelf(
                    label: "A",
                    books: [
                        Book(title: "X", authors: [Author(name: "Ann"), Author(name: "Bo")]), Book(title: "Y", authors: []),
                    ]),
                Shelf(label: "B", books: []),
            ])
    }

    @Test("a field's path reaches attributes of descendants, with attribute tests on the way")
    func descendantAttributes() throws {
        struct Entry: Equatable { let alternate: URL; let enclosure: URL?; let links: [String] }
        let entry = XMLRecord(
            "entry",
            .value("link[@rel='alternate']/@href", as: URL.self),
            .value("link[@rel='enclosure']/@href", as: URL?.self),
            .many("link/@href", as: String.self)
        ) { Entry(alternate: $0, enclosure: $1, links: $2) }
        let xml = """
            <feed><entry><link rel="self" href="s"/><link rel="alternate" href="http://a/1"/></entry>
            <entry><link rel="enclosure" href="http://e/2.mp3"/><link rel="alternate" href="http://a/2"/></entry></feed>
            """
        let entries = try entry.all(in: .string(xml))
        // Anchored, the parser's subtree filter keeps only the links, tests included.
        #expect(try entry.at("/feed/entry").all(in: .string(xml)) == entries)
        #expect(
            entries == [
                Entry(alternate: URL(string: "http://a/1")!, enclosure: nil, links: ["s", "http://a/1"]),
                Entry(
                    alternate: URL(string: "http://a/2")!, enclosure: URL(string: "http://e/2.mp3")!,
                    links: ["http://e/2.mp3", "http://a/2"]),
            ])
    }

    @Test("a record captures only its fields: text elsewhere in the record, decoys included, is not read")
    func onlyNamedFields() throws {
        let xml = """
            <zoo><animal><kind>cat</kind><junk><name>decoy</name><kind>decoy</kind></junk>
            <nested_nonsense><name>grumpy</name><other>x</other></nested_nonsense><url>http://a/</url></animal></zoo>
            """
        let animals = try ZooRecords.animal.all(in: .string(xml))
        #expect(animals == [ZooAnimal(kind: "cat", name: "grumpy", url: URL(string: "http://a/")!)])
        // Anchored: the subtree filter skips the same elements.
        #expect(try ZooRecords.animal.at("/zoo/animal").all(in: .string(xml)) == animals)
    }

    @Test("an anchored record whose fields have more steps than the subtree filter takes still reads them all")
    func manyFieldSteps() throws {
        // Ten fields, each nine steps below the root once mounted: 90 steps, over the filter's 64.
        let names = (0..<10).map { "f\($0)" }
        let fields: [RecordField<String>] = names.map { .text("x/y/z/\($0)") }
        let record = XMLRecord("/a/b/c/d/e", fields: fields) { $0.joined(separator: ",") }
        let inner = names.map { "<\($0)>\($0)</\($0)>" }.joined()
        let xml = "<a><b><c><d><e><junk><f0>no</f0></junk><x><y><z>\(inner)</z></y></x></e></d></c></b></a>"
        #expect(try record.all(in: .string(xml)) == [names.joined(separator: ",")])
    }

    @Test("a record's own text is its direct text, whichever way the elements its fields skip are skipped")
    func ownTextWithSkippedChildren() throws {
        let paragraph = XMLRecord("p", .text(".", whitespace: .preserve), .text("b")) { "\($0)|\($1)" }
        let xml = "<doc><p>one <i>two</i> <b>three</b></p></doc>"
        #expect(try paragraph.all(in: .string(xml)) == ["one  |three"])
        #expect(try paragraph.at("/doc/p").all(in: .string(xml)) == ["one  |three"])
        let nested = XMLRecord("/doc", .record("p", paragraph)) { $0 }
        #expect(try nested.first(in: .string(xml)) == "one  |three")
        let ownOnly = XMLRecord("/doc/p", .text("."), .text("@id")) { "\($0)|\($1)" }
        #expect(try ownOnly.all(in: .string(#"<doc><p id="7">one <i>two</i></p></doc>"#)) == ["one|7"])
    }

    @Test("a field whose element occurs twice takes the first; own text with `.`")
    func firstOccurrenceAndOwnText() throws {
        struct Price: Equatable { let amount: Decimal; let currency: String; let note: String }
        let price = XMLRecord("price", .value(".", as: Decimal.self), .text("@currency"), .text("note")) {
            Price(amount: $0, currency: $1, note: $2)
        }
        let model = try price.first(in: .string(#"<price currency="EUR"> 3.50 <note>a</note><note>b</note></price>"#))
        #expect(model == Price(amount: Decimal(string: "3.50")!, currency: "EUR", note: "a"))
    }

    @Test("a model type conforming to RecordModel reads itself")
    func recordModelProtocol() throws {
        let animals = try Animal.records(in: .file(TestPaths.fixture("zoo.xml")))
        #expect(animals.map(\.kind) == ["cat", "dog"])
        var names: [String] = []
        try Animal.forEachRecord(in: .file(TestPaths.fixture("zoo.xml"))) { names.append($0.name) }
        #expect(names == ["grumpy", "i have no idea what i'm doing"])
    }

    @Test("no element matching the record's pattern is an error naming the pattern")
    func notFound() throws {
        #expect {
            _ = try ZooRecords.zoo.first(in: .string("<farm/>"))
        } throws: { error in
            "\(error)" == "<string>: error: no element matches /zoo (record Zoo)"
        }
    }

    @Test("the build closure's own error is reported as a builder failure")
    func builderError() throws {
        struct Odd: Error, CustomStringConvertible { var description: String { "odd" } }
        let record = XMLRecord("n", .value(".", as: Int.self)) { value -> Int in
            if value % 2 == 1 { throw Odd() }
            return value
        }
        #expect(try record.all(in: .string("<a><n>2</n></a>")) == [2])
        #expect {
            _ = try record.all(in: .string("<a>\n<n>3</n></a>"))
        } throws: { error in
            "\(error)" == "<string>:2:1: error: record Int could not be built: odd"
        }
    }

    @Test("an attribute's value takes its field's whitespace policy, as element text does")
    func attributeWhitespace() throws {
        struct Item: Equatable { let count: Int; let name: String; let raw: String; let optional: Int? }
        let item = XMLRecord(
            "/r/i", .value("@n", as: Int.self), .text("@s"), .text("@s", whitespace: .preserve),
            .value("@o", as: Int?.self, emptyAsNil: true)
        ) { Item(count: $0, name: $1, raw: $2, optional: $3) }
        #expect(
            try item.all(in: .string(#"<r><i n=" 7 " s=" a b " o=" "/><i n="8" s="c" o=" 9"/></r>"#)) == [
                Item(count: 7, name: "a b", raw: " a b ", optional: nil), Item(count: 8, name: "c", raw: "c", optional: 9),
            ])
    }

}

struct Animal: RecordModel, Equatable {
    let kind: String
    let name: String

    static let record = XMLRecord("animal", .text("kind"), .text("nested_nonsense/name")) {
        Animal(kind: $0, name: $1)
    }
}

import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// The code of Codable.md, verbatim.
@Suite("Article: Codable")
struct CodableArticleTests {
    @Test("the conventions: attributes, own text, paths, URL from href, repeated children; onDecoded next to handlers")
    func conventions() throws {
        let document = """
            <feed>
              <entry id="e1">
                <title type="text">Streaming XML</title>
                <link rel="alternate" href="https://example.com/streaming"/>
                <updated>2024-03-01T12:30:00Z</updated>
                <price currency="EUR">3.50</price>
                <tag>swift</tag><tag>xml</tag>
              </entry>
            </feed>
            """
        struct Price: Decodable {
            let currency: String
            let amount: Decimal
            enum CodingKeys: String, CodingKey {
                case currency
                case amount = "#text"                      // the element's own text
            }
        }
        struct Entry: Decodable {
            let id: String                                 // the attribute: there is no <id> child
            let title: String
            let link: URL                                  // href, with the URL strategy below
            let linkRelation: String
            let updated: Date                              // ISO 8601
            let price: Price
            let tag: [String]                              // repeated children
            let summary: String?                           // absent: nil
            enum CodingKeys: String, CodingKey {
                case id, title, link, updated, price, tag, summary
                case linkRelation = "link/@rel"            // an attribute of a child
            }
        }
        var decoder = XMLRecordDecoder()
        decoder.urlDecodingStrategy = .attribute("href")
        let entries = try decoder.all(Entry.self, at: "feed/entry", in: .string(document))
        // entries[0].id == "e1", entries[0].link.absoluteString == "https://example.com/streaming"
        // entries[0].price.amount == 3.5, entries[0].tag == ["swift", "xml"]

        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry.id == "e1")
        #expect(entry.title == "Streaming XML")
        #expect(entry.link.absoluteString == "https://example.com/streaming")
        #expect(entry.linkRelation == "alternate")
        #expect(entry.updated == Date(timeIntervalSince1970: 1_709_296_200))
        #expect(entry.price.currency == "EUR")
        #expect(entry.price.amount == Decimal(string: "3.5"))
        #expect(entry.tag == ["swift", "xml"])
        #expect(entry.summary == nil)

        var prices: [Decimal] = []
        var titles: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(Price.self, at: "entry/price") { price in prices.append(price.amount) }
        dispatcher.onEnd("entry/title") { _, text in titles.append(text) }
        try dispatcher.parse(.string(document))
        // prices == [3.5], titles == ["Streaming XML"]

        #expect(prices == [Decimal(string: "3.5")])
        #expect(titles == ["Streaming XML"])

        // The prose: a bad element next to other handlers is a HandlerError wrapping the DecodingError.
        let error = #expect(throws: HandlerError.self) {
            try dispatcher.parse(.string(#"<feed><entry><price currency="EUR">cheap</price></entry></feed>"#))
        }
        #expect(error?.underlying is XMLDecodingError)
    }

    @Test("snake-case keys, nil, absent, a wrapper array")
    func keysNilAndWrappers() throws {
        struct Address: Decodable { let city: String; let zip: String }
        struct Account: Decodable {
            let accountCode: String
            let companyName: String?                       // marked nil="nil"
            let vatNumber: String?                         // absent
            let createdAt: Date
            let addresses: [Address]                       // <addresses> wraps the <address> elements
        }
        let document = """
            <account>
              <account_code>1</account_code>
              <company_name nil="nil"/>
              <created_at>2011-10-25T12:00:00Z</created_at>
              <addresses>
                <address><city>Berlin</city><zip>10115</zip></address>
                <address><city>Paris</city><zip>75001</zip></address>
              </addresses>
            </account>
            """
        var decoder = XMLRecordDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let account = try decoder.decode(Account.self, from: .string(document))
        // account.companyName == nil, account.vatNumber == nil
        // account.addresses.map(\.city) == ["Berlin", "Paris"]

        #expect(account.accountCode == "1")
        #expect(account.companyName == nil)
        #expect(account.vatNumber == nil)
        #expect(account.createdAt == Date(timeIntervalSince1970: 1_319_544_000))
        #expect(account.addresses.map(\.city) == ["Berlin", "Paris"])
        #expect(account.addresses.map(\.zip) == ["10115", "75001"])
    }

    @Test("the prose's other conventions hold")
    func otherConventions() throws {
        // Kebab case; a path key for an array; a missing array key is empty; an attribute list.
        struct Order: Decodable {
            let orderNumber: Int
            let items: [String]
            let notes: [String]
            let sizes: [Int]
            enum CodingKeys: String, CodingKey {
                case orderNumber, notes
                case items = "items/item"
                case sizes = "@sizes"
            }
        }
        var kebab = XMLRecordDecoder()
        kebab.keyDecodingStrategy = .convertFromKebabCase
        let order = try kebab.decode(
            Order.self, from: .string("<order sizes='1 2\n 3'><order-number>7</order-number><items><item>a</item><item>b</item></items></order>"))
        #expect(order.orderNumber == 7)
        #expect(order.items == ["a", "b"])
        #expect(order.notes == [])
        #expect(order.sizes == [1, 2, 3])

        // attributeLookup; an empty element: nil for a number, "" for a String unless
        // emptyElementsAreNil, an error where a number is required; strict Bool.
        struct Item: Decodable { let id: String; let count: Int?; let note: String? }
        let xml = #"<item id="attribute"><id>element</id><count/><note/></item>"#
        var decoder = XMLRecordDecoder()
        let item = try decoder.decode(Item.self, from: .string(xml))
        #expect(item.count == nil)
        #expect(item.note == "")
        struct Counted: Decodable { let count: Int }
        #expect(throws: XMLDecodingError.self) { try decoder.decode(Counted.self, from: .string(xml)) }
        decoder.emptyElementsAreNil = true
        #expect(try decoder.decode(Item.self, from: .string(xml)).note == nil)
        #expect(try decoder.decode(Item.self, from: .string(xml)).id == "element")
        decoder.attributeLookup = .beforeElements
        #expect(try decoder.decode(Item.self, from: .string(xml)).id == "attribute")
        struct Flag: Decodable { let on: Bool }
        #expect(throws: XMLDecodingError.self) { try XMLRecordDecoder().decode(Flag.self, from: .string("<f><on>yes</on></f>")) }

        // The URL strategy falls back to the text; an enum decodes by raw value.
        enum State: String, Decodable { case active, closed }
        struct Link: Decodable { let link: URL; let state: State }
        var links = XMLRecordDecoder()
        links.urlDecodingStrategy = .attribute("href")
        let link = try links.decode(Link.self, from: .string("<r><link>https://example.com/x</link><state>closed</state></r>"))
        #expect(link.link.absoluteString == "https://example.com/x")
        #expect(link.state == .closed)

        // One text node longer than maximumTextBytes ends the parse before maximumRecordBytes is reached.
        struct Text: Decodable { let text: String }
        let tooLong = #expect(throws: XMLParseError.self) {
            try XMLRecordDecoder().forEach(Text.self, at: "page", in: .string("<w><page><text>\(String(repeating: "x", count: 11 << 20))</text></page></w>")) { _ in }
        }
        #expect(tooLong?.code == .textLimitExceeded)

        // An element larger than maximumRecordBytes ends the parse with .recordSizeLimitExceeded.
        struct Page: Decodable { let text: String }
        var small = XMLRecordDecoder()
        small.maximumRecordBytes = 100
        let tooLarge = #expect(throws: XMLParseError.self) {
            try small.forEach(Page.self, at: "page", in: .string("<w><page><text>\(String(repeating: "x", count: 200))</text></page></w>")) { _ in }
        }
        #expect(tooLarge?.code == .recordSizeLimitExceeded)
    }

    @Test("namespaces: a bound prefix, a Clark name and xml:lang read an Atom entry in any spelling")
    func namespaces() throws {
        let feed = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:m="http://search.yahoo.com/mrss/">
              <entry xml:lang="en">
                <title>Streaming XML</title>
                <link href="https://example.com/streaming"/>
                <m:thumbnail url="https://example.com/thumbnail.png"/>
              </entry>
            </feed>
            """
        struct AtomEntry: Decodable {
            let title: String
            let link: URL
            let thumbnail: URL
            let language: String
            enum CodingKeys: String, CodingKey {
                case title = "atom:title"                  // bound below: any prefix, or none
                case link = "atom:link/@href"              // an unprefixed attribute
                case thumbnail = "{http://search.yahoo.com/mrss/}thumbnail/@url"  // Clark: no binding
                case language = "@xml:lang"
            }
        }
        var decoder = XMLRecordDecoder()
        decoder.namespaces = ["atom": "http://www.w3.org/2005/Atom"]
        let entries = try decoder.all(AtomEntry.self, at: "atom:feed/atom:entry", in: .string(feed))
        // entries[0].title == "Streaming XML", entries[0].language == "en"
        // the same with <a:feed xmlns:a="http://www.w3.org/2005/Atom">…<a:title>…

        #expect(entries.map(\.title) == ["Streaming XML"])
        #expect(entries.map(\.language) == ["en"])
        #expect(entries.map(\.link.absoluteString) == ["https://example.com/streaming"])
        #expect(entries.map(\.thumbnail.absoluteString) == ["https://example.com/thumbnail.png"])
        let prefixed = """
            <a:feed xmlns:a="http://www.w3.org/2005/Atom" xmlns:mrss="http://search.yahoo.com/mrss/">
              <a:entry xml:lang="en"><a:title>Streaming XML</a:title><a:link href="https://example.com/streaming"/>
                <mrss:thumbnail url="https://example.com/thumbnail.png"/></a:entry>
            </a:feed>
            """
        let again = try decoder.all(AtomEntry.self, at: "atom:feed/atom:entry", in: .string(prefixed))
        #expect(again.map(\.title) == ["Streaming XML"])
        #expect(again.map(\.thumbnail.absoluteString) == ["https://example.com/thumbnail.png"])

        // A legacy document: a prefix it never declares.
        var legacy = XMLRecordDecoder()
        legacy.processesNamespaces = false
        struct Item: Decodable {
            let creator: String
            enum CodingKeys: String, CodingKey { case creator = "dc:creator" }
        }
        #expect(try legacy.decode(Item.self, from: .string("<item><dc:creator>Ann</dc:creator></item>")).creator == "Ann")
    }

    @Test("dates in RFC 822, base64 data, decimals")
    func datesDataDecimals() throws {
        struct Upload: Decodable {
            let published: Date
            let checksum: Data
            let size: Decimal
        }
        var decoder = XMLRecordDecoder()
        decoder.dateDecodingStrategy = .format(.rfc822)
        let upload = try decoder.decode(Upload.self, from: .string("""
            <upload>
              <published>Tue, 10 Jun 2003 04:00:00 GMT</published>
              <checksum>3q2+7w==</checksum>
              <size>1024.50</size>
            </upload>
            """))
        // upload.checksum == Data([0xDE, 0xAD, 0xBE, 0xEF]), upload.size == Decimal(string: "1024.5")

        #expect(upload.published == Date(timeIntervalSince1970: 1_055_217_600))
        #expect(upload.checksum == Data([0xDE, 0xAD, 0xBE, 0xEF]))
        #expect(upload.size == Decimal(string: "1024.5"))
    }

    @Test("a conversion error: coding path and the description the article shows")
    func errors() throws {
        struct Facilities: Decodable { let toilet: Int }
        struct Zoo: Decodable { let facilities: Facilities }
        var message = ""
        var codingPath: [String] = []
        do {
            _ = try XMLRecordDecoder().decode(Zoo.self, from: .string("<zoo>\n  <facilities>\n    <toilet>4x2</toilet>\n  </facilities>\n</zoo>"))
        } catch let error as XMLDecodingError {
            message = error.localizedDescription                 // the same text as error.description
            codingPath = error.codingPath.map(\.stringValue)     // ["facilities", "toilet"]
        }

        #expect(codingPath == ["facilities", "toilet"])
        #expect(try DocumentationCatalog.textBlocks(of: "Codable.md") == [message])
    }

    @Test("keyPruning .off captures everything for a hand-written init(from:)")
    func keyPruningOff() throws {
        struct Shape: Decodable {
            let area: Double
            enum CodingKeys: String, CodingKey { case kind, side, radius }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                if try container.decode(String.self, forKey: .kind) == "square" {
                    area = try container.decode(Double.self, forKey: .side) * container.decode(Double.self, forKey: .side)
                } else {
                    let radius = try container.decode(Double.self, forKey: .radius)
                    area = 3 * radius * radius
                }
            }
        }
        var decoder = XMLRecordDecoder()
        decoder.keyPruning = .off
        let areas = try decoder.all(
            Shape.self, at: "shape",
            in: .string("<s><shape><kind>square</kind><side>2</side></shape><shape><kind>circle</kind><radius>1</radius></shape></s>")
        ).map(\.area)
        #expect(areas == [4, 3])
    }

    @Test("the zoo from a file: decode, forEach and onDecoded; a conversion error's position")
    func zooFromAFile() throws {
        let zooPath = TestPaths.fixture("zoo.xml").path
        var names: [String] = []
        var dispatcher = Dispatcher()
        struct Animal: Decodable {
            let kind: String
            let name: String
            let url: URL
            enum CodingKeys: String, CodingKey {
                case kind, url
                case name = "nested_nonsense/name"
            }
        }
        struct Facilities: Decodable { let toilet: Int; let disabledParking: Bool }
        struct Zoo: Decodable { let animals: [Animal]; let facilities: Facilities }

        var decoder = XMLRecordDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let zoo = try decoder.decode(Zoo.self, from: .file(zooPath))
        try decoder.forEach(Animal.self, at: "/zoo/animals/animal", in: .file(zooPath)) { animal in
            names.append(animal.name)
        }
        dispatcher.onDecoded(Animal.self, at: "animal") { animal in names.append(animal.kind) }
        try dispatcher.parse(.file(zooPath))
        #expect(zoo.animals.map(\.kind) == ["cat", "dog"])
        #expect(zoo.facilities.toilet == 42 && zoo.facilities.disabledParking)
        #expect(names == ["grumpy", "i have no idea what i'm doing", "cat", "dog"])
        do {
            _ = try decoder.decode(Zoo.self, from: .string("<zoo><animals/>\n<facilities>\n    <toilet>4x2</toilet><disabled_parking>1</disabled_parking></facilities></zoo>"))
            Issue.record("decoded 4x2")
        } catch let error as XMLDecodingError {
            guard case .dataCorrupted(let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(context.debugDescription == #"<string>:3:5: cannot convert "4x2" to Int at zoo/facilities/toilet (decoding Zoo): expected an integer"#)
        }
    }

    @Test("whole text and inner markup: the article's example")
    func wholeTextAndMarkup() throws {
        struct Entry: Decodable {
            let title: String                  // <title>'s own text
            let summary: XMLStringValue        // <summary>'s whole text, its children's included
            let content: XMLInnerMarkup        // what <content> holds, as XML
            let all: XMLStringValue            // the whole text of <entry> itself
            enum CodingKeys: String, CodingKey { case title, summary, content, all = "." }
        }
        let feed = """
            <feed><entry><title>Plain <em>and</em> simple</title>\
            <summary>Plain <em>and</em> simple</summary>\
            <content><p>A <b>bold</b> &amp; brave move</p></content></entry></feed>
            """
        let entry = try XMLRecordDecoder().all(Entry.self, at: "entry", in: .string(feed))[0]
        // entry.title == "Plain  simple", entry.summary.text == "Plain and simple"
        // entry.content.markup == "<p>A <b>bold</b> &amp; brave move</p>"
        // entry.all.text == "Plain and simplePlain and simpleA bold & brave move"

        #expect(entry.title == "Plain  simple")
        #expect(entry.summary.text == "Plain and simple")
        #expect(entry.content.markup == "<p>A <b>bold</b> &amp; brave move</p>")
        #expect(entry.all.text == "Plain and simplePlain and simpleA bold & brave move")
    }
}

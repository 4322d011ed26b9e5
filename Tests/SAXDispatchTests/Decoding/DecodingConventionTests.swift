import Foundation
import Testing

@testable import SAXDispatch

@Suite("Decodable: the conventions")
struct DecodingConventionTests {
    struct Animal: Decodable, Equatable {
        let kind: String
        let name: String
        let url: URL

        enum CodingKeys: String, CodingKey {
            case kind, url
            case name = "nested_nonsense/name"
        }
    }

    struct Facilities: Decodable, Equatable {
        let toilet: Int
        let disabledParking: Bool
    }

    struct Zoo: Decodable, Equatable {
        let animals: [Animal]
        let facilities: Facilities
    }

    let zoo = """
        <zoo>
          <animals>
            <animal><kind>cat</kind><nested_nonsense><name>grumpy</name></nested_nonsense>
              <url>http://en.wikipedia.org/wiki/Grumpy_Cat</url></animal>
            <animal><kind>dog</kind><nested_nonsense><name>doge</name></nested_nonsense>
              <url>http://knowyourmeme.com/memes/doge</url></animal>
          </animals>
          <facilities><toilet>42</toilet><disabled_parking>true</disabled_parking>
            <seriously><crazy_nested><drainage>Good</drainage></crazy_nested></seriously></facilities>
        </zoo>
        """

    @Test("the root decodes with a wrapper array, a path key and snake-case keys")
    func zooRoot() throws {
        var decoder = XMLRecordDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let model = try decoder.decode(Zoo.self, from: .string(zoo))
        #expect(model.animals.map(\.name) == ["grumpy", "doge"])
        #expect(model.animals.map(\.kind) == ["cat", "dog"])
        #expect(model.animals[1].url == URL(string: "http://knowyourmeme.com/memes/doge"))
        #expect(model.facilities == Facilities(toilet: 42, disabledParking: true))
    }

    @Test("each matching element is decoded as it ends, in document order")
    func forEachElement() throws {
        var names: [String] = []
        let count = try XMLRecordDecoder().forEach(Animal.self, at: "animals/animal", in: .string(zoo)) { names.append($0.name) }
        #expect(count == 2)
        #expect(names == ["grumpy", "doge"])
    }

    @Test("feeding one byte at a time decodes the same values")
    func chunkingDoesNotMatter() throws {
        let bytes = Array(zoo.utf8)
        var names: [String] = []
        try XMLRecordDecoder().forEach(
            Animal.self, at: "animal",
            in: .pieces(bytes, of: 1)
        ) { names.append($0.name) }
        #expect(names == ["grumpy", "doge"])
    }

    struct Link: Decodable, Equatable {
        let href: URL
        let rel: String
        let title: String?
    }

    @Test("keys find attributes; @name finds the attribute only")
    func attributes() throws {
        struct Entry: Decodable {
            let id: String
            let idAttribute: String
            let link: Link
            enum CodingKeys: String, CodingKey {
                case id, link
                case idAttribute = "@id"
            }
        }
        let entry = try XMLRecordDecoder().decode(
            Entry.self, from: .string(#"<entry id="a1"><id>urn:x</id><link href="http://x.org/1" rel="alternate"/></entry>"#))
        #expect(entry.id == "urn:x")
        #expect(entry.idAttribute == "a1")
        #expect(entry.link == Link(href: URL(string: "http://x.org/1")!, rel: "alternate", title: nil))
    }

    @Test("an attribute wins over a child of the same name when attributeLookup says so")
    func attributeLookup() throws {
        struct Item: Decodable { let id: String }
        let xml = #"<item id="attribute"><id>element</id></item>"#
        #expect(try XMLRecordDecoder().decode(Item.self, from: .string(xml)).id == "element")
        var decoder = XMLRecordDecoder()
        decoder.attributeLookup = .beforeElements
        #expect(try decoder.decode(Item.self, from: .string(xml)).id == "attribute")
    }

    @Test("the text key reads the element's own text next to its attributes")
    func ownText() throws {
        struct Price: Decodable, Equatable {
            let currency: String
            let amount: Decimal
            enum CodingKeys: String, CodingKey {
                case currency
                case amount = "#text"
            }
        }
        struct Product: Decodable { let price: Price }
        let product = try XMLRecordDecoder().decode(Product.self, from: .string(#"<product><price currency="EUR"> 3.50 </price></product>"#))
        #expect(product.price == Price(currency: "EUR", amount: Decimal(string: "3.50")!))
    }

    struct Person: Decodable, Equatable {
        let name: String
        let nickname: String?
        let company: String?
        let age: Int?
    }

    @Test(
        "nil conventions: absent, nil=\"nil\", xsi:nil=\"true\", and <x/> as \"\"",
        arguments: [
            ("<p><name>Ann</name></p>", Person(name: "Ann", nickname: nil, company: nil, age: nil)),
            (#"<p><name>Ann</name><company nil="nil"/></p>"#, Person(name: "Ann", nickname: nil, company: nil, age: nil)),
            (
                #"<p xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><name>Ann</name><age xsi:nil="true"/></p>"#,
                Person(name: "Ann", nickname: nil, company: nil, age: nil)
            ),
            ("<p><name>Ann</name><nickname/></p>", Person(name: "Ann", nickname: "", company: nil, age: nil)),
            ("<p><name/><age>7</age></p>", Person(name: "", nickname: nil, company: nil, age: 7)),
        ])
    func nilConventions(xml: String, expected: Person) throws {
        #expect(try XMLRecordDecoder().decode(Person.self, from: .string(xml)) == expected)
    }

    @Test("an empty element is nil for an optional number, \"\" for an optional String unless empty elements are nil")
    func emptyNumber() throws {
        let xml = "<p><name>Ann</name><nickname/><age/></p>"
        let person = try XMLRecordDecoder().decode(Person.self, from: .string(xml))
        #expect(person == Person(name: "Ann", nickname: "", company: nil, age: nil))
        var decoder = XMLRecordDecoder()
        decoder.emptyElementsAreNil = true
        #expect(try decoder.decode(Person.self, from: .string(xml)) == Person(name: "Ann", nickname: nil, company: nil, age: nil))
    }

    @Test("an element marked nil where the value is required is valueNotFound, for text and numbers alike")
    func markedNilButRequired() throws {
        for xml in [
            #"<p>\#n  <name nil="nil"/></p>"#,
            #"<p xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\#n  <name xsi:nil="true">x</name></p>"#,
        ] {
            do {
                _ = try XMLRecordDecoder().decode(Person.self, from: .string(xml))
                Issue.record("decoded a nil-marked required String")
            } catch let error as XMLDecodingError {
            guard case .valueNotFound(let type, let context) = error.underlying else { Issue.record("\(error)"); return }
                #expect(ObjectIdentifier(type) == ObjectIdentifier(String.self))
                #expect(context.codingPath.map(\.stringValue) == ["name"])
                #expect(context.debugDescription == "<string>:2:3: marked nil, but String is required at p/name (decoding Person)")
            }
        }
        struct Count: Decodable { let n: Int }
        #expect {
            _ = try XMLRecordDecoder().decode(Count.self, from: .string(#"<c><n nil="true"/></c>"#))
        } throws: { error in
            guard case .valueNotFound(let type, _) = (error as? XMLDecodingError)?.underlying else { return false }
            return ObjectIdentifier(type) == ObjectIdentifier(Int.self)
        }
        // An empty element is not a nil marker: "" for a String, as before.
        #expect(try XMLRecordDecoder().decode(Person.self, from: .string("<p><name/></p>")).name == "")
    }

    @Test("a missing required key is keyNotFound, naming the key, the element and the position")
    func missingKey() throws {
        do {
            _ = try XMLRecordDecoder().decode(Person.self, from: .string("<p>\n  <age>3</age></p>"))
            Issue.record("decoded without a name")
        } catch let error as XMLDecodingError {
            guard case .keyNotFound(let key, let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(key.stringValue == "name")
            #expect(context.debugDescription == #"<string>:1:1: no element or attribute "name" in <p> at p (decoding Person)"#)
        }
    }

    @Test("arrays: repeated children, a wrapper, an explicit path, none, and the tokens of an attribute")
    func arrays() throws {
        struct Tag: Decodable, Equatable {
            let k: String
            let v: String
        }
        struct Way: Decodable {
            let tag: [Tag]
            let nd: [Node]
            let firstRef: Int
            let names: [String]
            let refs: [Int]
            let coordinates: [Double]
            let members: [String]
            enum CodingKeys: String, CodingKey {
                case tag, names
                case coordinates = "line/@points"
                case nd
                case firstRef = "nd/@ref"
                case refs = "refs/ref"
                case members
            }
        }
        struct Node: Decodable, Equatable { let ref: Int }
        let xml = """
            <way>
              <tag k="highway" v="residential"/><tag k="name" v="Elm Street"/>
              <nd ref="7"/><nd ref="8"/>
              <names><name>a</name><name>b</name></names>
              <refs><ref>1</ref><ref>2</ref><ref>3</ref></refs>
              <line points="1.5 2.5
                3.5"/>
            </way>
            """
        let way = try XMLRecordDecoder().decode(Way.self, from: .string(xml))
        #expect(way.tag == [Tag(k: "highway", v: "residential"), Tag(k: "name", v: "Elm Street")])
        #expect(way.nd == [Node(ref: 7), Node(ref: 8)])
        #expect(way.firstRef == 7)
        #expect(way.names == ["a", "b"])
        #expect(way.refs == [1, 2, 3])
        #expect(way.coordinates == [1.5, 2.5, 3.5])
        #expect(way.members == [])
    }

    @Test("an empty wrapper is an empty array; one bare item with attributes is a list of one")
    func wrapperOrItem() throws {
        struct Tag: Decodable, Equatable { let k: String }
        struct Node: Decodable {
            let tag: [Tag]
            let animals: [String]
        }
        let node = try XMLRecordDecoder().decode(Node.self, from: .string(#"<node><tag k="a"/><animals/></node>"#))
        #expect(node.tag == [Tag(k: "a")])
        #expect(node.animals == [])
    }

    @Test("key strategies: snake case, kebab case, your own")
    func keyStrategies() throws {
        struct Settings: Decodable, Equatable {
            let maxItems: Int
            let imageURL: String
        }
        var decoder = XMLRecordDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(
            try decoder.decode(Settings.self, from: .string("<s><max_items>3</max_items><image_url>u</image_url></s>"))
                == Settings(maxItems: 3, imageURL: "u"))
        decoder.keyDecodingStrategy = .convertFromKebabCase
        #expect(
            try decoder.decode(Settings.self, from: .string("<s><max-items>3</max-items><image-url>u</image-url></s>"))
                == Settings(maxItems: 3, imageURL: "u"))
        decoder.keyDecodingStrategy = .custom { $0.uppercased() }
        #expect(
            try decoder.decode(Settings.self, from: .string("<s><MAXITEMS>3</MAXITEMS><IMAGEURL>u</IMAGEURL></s>"))
                == Settings(maxItems: 3, imageURL: "u"))
        #expect(LookupNames.snake("URLString") == "url_string")
        #expect(LookupNames.snake("toiletCount") == "toilet_count")
        #expect(LookupNames.snake("version2Name") == "version2_name")
    }

    enum LookupNames {
        static func snake(_ name: String) -> String { KeyTarget.separatingWords(name, with: "_") }
    }

    @Test("dates: ISO 8601 with and without fraction and zone, a format, a function")
    func dates() throws {
        struct Event: Decodable { let at: Date }
        let decoder = XMLRecordDecoder()
        #expect(try decoder.decode(Event.self, from: .string("<e><at>2024-03-01T12:30:05Z</at></e>")).at.timeIntervalSince1970 == 1_709_296_205)
        #expect(try decoder.decode(Event.self, from: .string("<e><at>2024-03-01T12:30:05.250+01:00</at></e>")).at.timeIntervalSince1970 == 1_709_292_605.25)
        #expect(try decoder.decode(Event.self, from: .string("<e><at>2024-03-01</at></e>")).at.timeIntervalSince1970 == 1_709_251_200)
        var rss = XMLRecordDecoder()
        rss.dateDecodingStrategy = .format(.rfc822)
        #expect(try rss.decode(Event.self, from: .string("<e><at>Fri, 01 Mar 2024 12:30:05 GMT</at></e>")).at.timeIntervalSince1970 == 1_709_296_205)
        var custom = XMLRecordDecoder()
        custom.dateDecodingStrategy = .custom { decoder in
            let days = try decoder.singleValueContainer().decode(Int.self)
            return Date(timeIntervalSince1970: Double(days) * 86_400)
        }
        #expect(try custom.decode(Event.self, from: .string("<e><at>2</at></e>")).at.timeIntervalSince1970 == 172_800)
    }

    @Test("URLs from text or from an href attribute; Decimal; Data as base64; enums")
    func otherValues() throws {
        enum State: String, Decodable { case active, closed }
        struct Account: Decodable {
            let link: URL
            let balance: Decimal
            let avatar: Data
            let state: State
        }
        let xml = """
            <account><link href="https://example.com/a/1"/><balance>1234.50</balance>
            <avatar>SGVs
            bG8=</avatar><state>closed</state></account>
            """
        var decoder = XMLRecordDecoder()
        decoder.urlDecodingStrategy = .attribute("href")
        let account = try decoder.decode(Account.self, from: .string(xml))
        #expect(account.link == URL(string: "https://example.com/a/1"))
        #expect(account.balance == Decimal(string: "1234.5"))
        #expect(account.avatar == Data("Hello".utf8))
        #expect(account.state == .closed)
    }

    @Test("strict values: Bool is true/false/1/0 only, numbers reject trailing garbage")
    func strictValues() throws {
        struct Flags: Decodable { let on: Bool }
        struct Count: Decodable { let n: Int }
        #expect(try XMLRecordDecoder().decode(Flags.self, from: .string("<f><on>1</on></f>")).on)
        #expect(throws: XMLDecodingError.self) { try XMLRecordDecoder().decode(Flags.self, from: .string("<f><on>yes</on></f>")) }
        #expect(throws: XMLDecodingError.self) { try XMLRecordDecoder().decode(Count.self, from: .string("<c><n>4x2</n></c>")) }
    }

    /// A folder that keeps its container while its subfolders decode with containers of
    /// the same key type: each container must stay on its own element.
    struct Folder: Decodable, Equatable {
        let name: String
        let folders: [Folder]
        let size: Int?

        enum CodingKeys: String, CodingKey { case name = "@name", folder, size }

        init(name: String, folders: [Folder], size: Int?) {
            self.name = name
            self.folders = folders
            self.size = size
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            folders = try container.decodeIfPresent([Folder].self, forKey: .folder) ?? []
            // Read after the subfolders' containers were made and dropped.
            name = try container.decode(String.self, forKey: .name)
            size = try container.decodeIfPresent(Int.self, forKey: .size)
        }
    }

    @Test("containers of one key type stay on their own elements through nested and repeated decodes")
    func containersOfOneKeyType() throws {
        struct Listing: Decodable {
            let folder: [Folder]
            let note: Note
        }
        struct Note: Decodable { let text: String }
        let xml = """
            <listing>
              <folder name="a"><size>1</size>
                <folder name="a1"><folder name="a1x"><size>3</size></folder></folder>
                <folder name="a2"><size>2</size></folder>
              </folder>
              <note><text>two key types share the session</text></note>
              <folder name="b"/>
            </listing>
            """
        let listing = try XMLRecordDecoder().decode(Listing.self, from: .string(xml))
        let a1 = Folder(name: "a1", folders: [Folder(name: "a1x", folders: [], size: 3)], size: nil)
        #expect(
            listing.folder == [
                Folder(name: "a", folders: [a1, Folder(name: "a2", folders: [], size: 2)], size: 1),
                Folder(name: "b", folders: [], size: nil),
            ])
        #expect(listing.note.text == "two key types share the session")

        var names: [String] = []
        try XMLRecordDecoder().forEach(Folder.self, at: "/listing/folder", in: .string(xml)) { names.append($0.name) }
        #expect(names == ["a", "b"])
    }
}

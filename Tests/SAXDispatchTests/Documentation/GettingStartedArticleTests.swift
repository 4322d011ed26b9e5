import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// The code of GettingStarted.md, verbatim; `document` is the zoo fixture the article shows.
@Suite("Article: Getting started")
struct GettingStartedArticleTests {
    let document: String

    init() throws {
        document = try String(contentsOf: TestPaths.fixture("zoo.xml"), encoding: .utf8)
    }

    @Test("the document the article shows is the zoo fixture")
    func documentIsTheFixture() throws {
        let article = try DocumentationCatalog.text(of: "GettingStarted.md")
        let xml = DocumentationCatalog.blocks(in: article, language: "xml")
        #expect(xml.first.map { $0.joined(separator: "\n") + "\n" } == document)
    }

    @Test("a handler object collects the animals and the toilet count")
    func handlerObject() throws {
        struct Animal: Equatable { let kind: String; let name: String }

        struct ZooReader: ElementHandlers {
            var animals: [Animal] = []
            var toiletCount = 0
            private var kind = "", name = ""

            static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
                handlers.onEnd("animal/kind") { zoo, _, text in zoo.kind = text }
                handlers.onEnd("nested_nonsense/name") { zoo, _, text in zoo.name = text }
                handlers.onEnd("animal") { zoo, _ in zoo.animals.append(Animal(kind: zoo.kind, name: zoo.name)) }
                handlers.onEnd("facilities/toilet") { zoo, _, text in zoo.toiletCount = Int(text) ?? 0 }
            }
        }

        var zoo = ZooReader()
        try zoo.parse(.string(document))
        // zoo.animals: cat "grumpy" and dog "i have no idea what i'm doing"; zoo.toiletCount: 42

        #expect(zoo.animals == [Animal(kind: "cat", name: "grumpy"), Animal(kind: "dog", name: "i have no idea what i'm doing")])
        #expect(zoo.toiletCount == 42)
    }

    @Test("handlers collect the animals and the toilet count")
    func handlers() throws {
        struct Animal: Equatable { let kind: String; let name: String }

        var animals: [Animal] = []
        var kind = "", name = ""
        var toiletCount = 0

        var dispatcher = Dispatcher()
        dispatcher.onEnd("animal/kind") { _, text in kind = text }
        dispatcher.onEnd("nested_nonsense/name") { _, text in name = text }
        dispatcher.onEnd("animal") { _ in animals.append(Animal(kind: kind, name: name)) }
        dispatcher.onEnd("facilities/toilet") { _, text in toiletCount = Int(text) ?? 0 }
        try dispatcher.parse(.string(document))
        // animals: cat "grumpy" and dog "i have no idea what i'm doing"; toiletCount: 42

        #expect(animals == [Animal(kind: "cat", name: "grumpy"), Animal(kind: "dog", name: "i have no idea what i'm doing")])
        #expect(toiletCount == 42)
    }

    @Test("a typed record builds the zoo and the animals")
    func typedRecord() throws {
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

        let model = try zoo.first(in: .string(document))        // the one zoo, with both animals
        let animals = try animal.all(in: .string(document))     // or just the animals

        #expect(model.animals.map(\.kind) == ["cat", "dog"])
        #expect(model.animals.map(\.name) == ["grumpy", "i have no idea what i'm doing"])
        #expect(model.toiletCount == 42)
        #expect(model.disabledParking)
        #expect(animals.map(\.url) == [
            URL(string: "http://en.wikipedia.org/wiki/Grumpy_Cat"),
            URL(string: "http://knowyourmeme.com/memes/i-have-no-idea-what-im-doing"),
        ])
        // The article's claim about a bad count.
        let bad = document.replacingOccurrences(of: "<toilet>42</toilet>", with: "<toilet>4x2</toilet>")
        let error = #expect(throws: XMLRecordError.self) { try zoo.first(in: .string(bad)) }
        #expect(error?.description == #"<string>:15:9: error: cannot convert "4x2" to Int at zoo/facilities/toilet (in record Zoo, field toiletCount): expected an integer"#)
    }

    @Test("the decoder reads the zoo and each animal")
    func decodable() throws {
        struct Animal: Decodable {
            let kind: String
            let name: String
            let url: URL
            enum CodingKeys: String, CodingKey {
                case kind, url
                case name = "nested_nonsense/name"            // a path of child elements
            }
        }
        struct Facilities: Decodable { let toilet: Int; let disabledParking: Bool }
        struct Zoo: Decodable { let animals: [Animal]; let facilities: Facilities }

        var decoder = XMLRecordDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase    // disabledParking reads <disabled_parking>
        let zoo = try decoder.decode(Zoo.self, from: .string(document))  // the root element

        var names: [String] = []
        try decoder.forEach(Animal.self, at: "animals/animal", in: .string(document)) { animal in
            names.append(animal.name)                          // one animal at a time
        }

        #expect(zoo.animals.map(\.kind) == ["cat", "dog"])
        #expect(zoo.facilities.toilet == 42)
        #expect(zoo.facilities.disabledParking)
        #expect(names == ["grumpy", "i have no idea what i'm doing"])
    }
}

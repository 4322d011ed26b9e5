import Foundation
import SAXDispatch
import Testing

/// The code of EncodingRecords.md, verbatim.
@Suite("Article: Encodable records")
struct EncodingRecordsArticleTests {
    struct Animal: Codable, Equatable {
        var id: Int
        var name: String
        var tags: [String]
        var born: Date?
        enum CodingKeys: String, CodingKey {
            case id = "@id", name, tags = "tag", born
        }
    }

    @Test("records into an open writer, read back equal")
    func zoo() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("article-encoding-\(getpid()).xml").path
        defer { unlink(path) }
        let animals = [
            Animal(id: 1, name: "Lion", tags: ["big", "cat"], born: nil),
            Animal(id: 2, name: "Tom & Jerry", tags: [], born: Date(timeIntervalSince1970: 1_700_000_000.5)),
        ]
        let writer = try XMLWriter(to: .file(path), options: .indented)
        try writer.startElement("zoo")
        let encoder = XMLRecordEncoder()
        for animal in animals {
            try encoder.encode(animal, as: "animal", to: writer)
        }
        try writer.endElement()
        try writer.finish()

        let decoded = try XMLRecordDecoder().all(Animal.self, at: "zoo/animal", in: .file(path))
        #expect(decoded == animals)
        let compact = try XMLRecordEncoder().encode(animals[0], as: "animal", options: XMLWriter.Options(writesDeclaration: false))
        #expect(
            String(decoding: compact, as: UTF8.self)
                == #"<animal id="1"><name>Lion</name><tag>big</tag><tag>cat</tag></animal>"#)
    }

    @Test("a document of its own, with its namespaces")
    func entry() throws {
        struct Entry: Codable {
            var title: String
            var language: String
            enum CodingKeys: String, CodingKey {
                case title = "atom:title", language = "@xml:lang"
            }
        }

        var encoder = XMLRecordEncoder()
        encoder.namespaces = ["atom": "http://www.w3.org/2005/Atom"]
        let body = try encoder.encode(Entry(title: "Hello", language: "en"), as: "atom:entry")
        #expect(
            String(decoding: body, as: UTF8.self) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <atom:entry xmlns:atom="http://www.w3.org/2005/Atom" xml:lang="en"><atom:title>Hello</atom:title></atom:entry>
                """)
    }
}

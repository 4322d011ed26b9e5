import Testing

@testable import SAXDispatch

@Suite("Decodable: a key type's table of what its keys read")
struct KeyTargetTableTests {
    @Test("names with other bits but the same contents read the same; the table stays bounded")
    func sameAnswersAsTheSession() {
        struct Model: Decodable {}
        let session = DecodingSession(Model.self, options: XMLRecordDecoder())
        let fresh = DecodingSession(Model.self, options: XMLRecordDecoder())
        let table = KeyTargetTable()
        for round in 0..<2 {
            for index in 0..<600 {
                // A name made anew each time: equal contents, another string's bits.
                let name = index % 3 == 0 ? "@attribute-with-a-long-name-\(index)" : "child/path-\(index)"
                let key = AnyKey(stringValue: String(name.utf8.map { Character(UnicodeScalar($0)) }))
                #expect(table.target(key, in: session) == fresh.lookup(key), "round \(round), key \(name)")
            }
        }
        #expect(table.target(AnyKey(stringValue: "@id"), in: session) == .attribute("id"))
        #expect(table.target(AnyKey(stringValue: "name"), in: session) == .name("name"))
    }
}

@Suite("Decodable: names a schema is known to capture")
struct SchemaKnownCapturesTests {
    @Test("only noted names are known, compared by their bits; the list stays bounded")
    func knownCaptures() {
        let schema = KeySchema(processesNamespaces: false)
        let literal = "tag"
        #expect(!schema.isKnownToCapture(childAndAttribute: literal))
        schema.noteCaptures(childAndAttribute: literal)
        #expect(schema.isKnownToCapture(childAndAttribute: "tag"))
        // The same contents with other bits is looked up again (and then found captured).
        let long = String(repeating: "long-name-", count: 4)
        schema.noteCaptures(childAndAttribute: long)
        #expect(!schema.isKnownToCapture(childAndAttribute: String(repeating: "long-name-", count: 4)))
        #expect(!schema.isKnownToCapture(childAndAttribute: "other"))
        for index in 0..<100 { schema.noteCaptures(childAndAttribute: "n\(index)") }
        #expect(schema.isKnownToCapture(childAndAttribute: "n0"))
        #expect(!schema.isKnownToCapture(childAndAttribute: "n99"))
    }

    struct Node: Decodable {
        let lat: Double
        let tag: [String]
    }

    @Test("a key absent element after element is still reported when the capture left it out")
    func absentKeyLeftOut() throws {
        // `tag` is captured; a name no key read is not: the decode that asks for it fails.
        struct Late: Decodable {
            let lat: Double
            let extra: String?
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                lat = try container.decode(Double.self, forKey: AnyKey(stringValue: "lat"))
                extra = lat > 1 ? try container.decodeIfPresent(String.self, forKey: AnyKey(stringValue: "extra")) : nil
            }
        }
        let xml = "<r><n lat=\"0\"/><n lat=\"0\"/><n lat=\"2\" extra=\"x\"/></r>"
        #expect(throws: XMLDecodingError.self) {
            _ = try XMLRecordDecoder().all(Late.self, at: "/r/n", in: .string(xml))
        }
        let nodes = try XMLRecordDecoder().all(Node.self, at: "/r/n", in: .string("<r><n lat=\"1\"/><n lat=\"2\"><tag>a</tag></n></r>"))
        #expect(nodes.map(\.tag) == [[], ["a"]])
    }
}

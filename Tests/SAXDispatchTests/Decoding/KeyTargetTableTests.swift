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

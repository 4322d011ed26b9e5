import Testing

@testable import SAXDispatch

/// Lists, emptiness and wrappers read the same whatever the capture left out, and
/// whatever the first of several elements says.
@Suite("Decodable: lists and empty elements, pruned or not")
struct DecodingShapeTests {
    /// `type` decoded from `xml` with key pruning on and off; both must agree.
    static func decoded<T: Decodable & Equatable>(
        _ type: T.Type, _ xml: String, emptyElementsAreNil: Bool = false
    ) throws -> T {
        var pruning = XMLRecordDecoder()
        pruning.emptyElementsAreNil = emptyElementsAreNil
        var capturingAll = pruning
        capturingAll.keyPruning = .off
        let pruned = try pruning.decode(T.self, from: xml)
        #expect(pruned == (try capturingAll.decode(T.self, from: xml)), "\(xml)")
        return pruned
    }

    @Test("an optional list is present whatever its first item is: empty, or marked nil")
    func optionalListWithNilFirstItem() throws {
        struct Tags: Decodable, Equatable { let tag: [String]? }
        struct Values: Decodable, Equatable { let v: [Int?]? }
        #expect(try Self.decoded(Tags.self, "<r><tag/><tag>x</tag><tag>y</tag></r>").tag == ["", "x", "y"])
        #expect(try Self.decoded(Values.self, #"<r><v xsi:nil="true"/><v>3</v></r>"#).v == [nil, 3])
        #expect(try Self.decoded(Values.self, #"<r><v xsi:nil="true"/></r>"#).v == nil)
        #expect(try Self.decoded(Values.self, "<r/>").v == nil)
    }

    @Test("an element whose attributes or children the type never reads is not empty, nor a wrapper")
    func uncapturedPartsCount() throws {
        struct Note: Decodable, Equatable { let note: String? }
        #expect(try Self.decoded(Note.self, #"<r><note lang="en"/></r>"#, emptyElementsAreNil: true).note == "")
        #expect(try Self.decoded(Note.self, "<r><note><b>bold</b></note></r>", emptyElementsAreNil: true).note == "")
        #expect(try Self.decoded(Note.self, "<r><note/></r>", emptyElementsAreNil: true).note == nil)

        struct Entry: Decodable, Equatable { let title: String? }
        struct Feed: Decodable, Equatable { let entry: [Entry] }
        let feed = try Self.decoded(Feed.self, #"<feed><entry lang="en"><link/><link/></entry></feed>"#)
        #expect(feed.entry == [Entry(title: nil)])
    }

    @Test("a path key ending in an attribute reads every element's value as a list, the first as a scalar")
    func attributeOfSeveralElements() throws {
        struct Ids: Decodable, Equatable {
            let ids: [String]
            let first: String
            enum CodingKeys: String, CodingKey { case ids = "item/@id" }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                ids = try container.decode([String].self, forKey: .ids)
                first = try container.decode(String.self, forKey: .ids)
            }
        }
        let ids = try Self.decoded(Ids.self, #"<r><item id="1"/><item id="two words"/><other/><item/></r>"#)
        #expect(ids.ids == ["1", "two words"])
        #expect(ids.first == "1")
    }
}

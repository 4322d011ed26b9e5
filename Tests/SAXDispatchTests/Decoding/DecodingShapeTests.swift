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
        let pruned = try pruning.decode(T.self, from: .string(xml))
        #expect(pruned == (try capturingAll.decode(T.self, from: .string(xml))), "\(xml)")
        return pruned
    }

    @Test("an optional list is present whatever its first item is: empty, or marked nil")
    func optionalListWithNilFirstItem() throws {
        struct Tags: Decodable, Equatable { let tag: [String]? }
        struct Values: Decodable, Equatable { let v: [Int?]? }
        #expect(try Self.decoded(Tags.self, "<r><tag/><tag>x</tag><tag>y</tag></r>").tag == ["", "x", "y"])
        #expect(try Self.decoded(Values.self, #"<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><v xsi:nil="true"/><v>3</v></r>"#).v == [nil, 3])
        #expect(try Self.decoded(Values.self, #"<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><v xsi:nil="true"/></r>"#).v == nil)
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

    @Test("a path key finds every element its steps lead to, whichever step first finds several")
    func pathStepsFindingOneOrSeveral() throws {
        struct Leaves: Decodable, Equatable {
            let leaves: [String]
            let first: String?
            enum CodingKeys: String, CodingKey {
                case leaves = "a/c/b"
                case first = "a/c/b/@n"
            }
        }
        // One element at every step.
        #expect(try Self.decoded(Leaves.self, #"<r><a><c><b n="1">x</b></c></a></r>"#) == Leaves(leaves: ["x"], first: "1"))
        // Several at the last step, then at the middle one, then at the first one.
        #expect(try Self.decoded(Leaves.self, "<r><a><c><b>x</b><d/><b>y</b></c></a></r>").leaves == ["x", "y"])
        #expect(
            try Self.decoded(Leaves.self, #"<r><a><c><b>x</b></c><c/><c><b n="2">y</b><b>z</b></c></a></r>"#)
                == Leaves(leaves: ["x", "y", "z"], first: "2"))
        #expect(
            try Self.decoded(Leaves.self, "<r><a><c><b>x</b></c></a><e/><a><c><b>y</b></c><c><b>z</b></c></a></r>").leaves
                == ["x", "y", "z"])
        // None at some step.
        #expect(try Self.decoded(Leaves.self, "<r><a><d><b>x</b></d></a></r>") == Leaves(leaves: [], first: nil))
        #expect(try Self.decoded(Leaves.self, "<r><a><c/></a></r>") == Leaves(leaves: [], first: nil))
        // Through an element with enough children to be read through an index.
        let many = (0..<40).map { "<k\($0)/>" }.joined()
        #expect(try Self.decoded(Leaves.self, "<r><a>\(many)<c><b>x</b></c></a></r>").leaves == ["x"])
        #expect(try Self.decoded(Leaves.self, "<r><a>\(many)<c><b>x</b></c><c><b>y</b></c></a></r>").leaves == ["x", "y"])
    }
}

/// An element with many children, read key by key (a dictionary's entries), finds each
/// through an index of its children by name rather than a scan of all of them per key.
@Suite("Decodable: large elements read by key")
struct LargeElementTests {
    struct Settings: Decodable, Equatable {
        let entries: [String: String]
        let nested: String
        let repeated: [String]

        enum CodingKeys: String, CodingKey {
            case entries
            case nested = "entries/group/leaf"
            case repeated = "entries/twin"
        }
    }

    @Test("a dictionary of thousands of entries, a path through it, a repeated name in it: each read through the index")
    func dictionary() throws {
        let count = 3_000
        let entries = (0..<count).map { "<k\($0)>v\($0)</k\($0)>" }.joined()
        let xml = "<settings><entries>\(entries)<group><leaf>deep</leaf></group><twin>a</twin><twin>b</twin></entries></settings>"
        for pruning in [XMLRecordDecoder.KeyPruning.probe, .off] {
            var decoder = XMLRecordDecoder()
            decoder.keyPruning = pruning
            let settings = try decoder.decode(Settings.self, from: .string(xml))
            #expect(settings.entries.count == count + 2)
            #expect((0..<count).allSatisfy { settings.entries["k\($0)"] == "v\($0)" })
            #expect(settings.nested == "deep")
            #expect(settings.repeated == ["a", "b"])
            let plain = try decoder.decode([String: String].self, from: .string("<r>\(entries)</r>"))
            #expect(plain.count == count && plain["k\(count - 1)"] == "v\(count - 1)")
        }
    }
}

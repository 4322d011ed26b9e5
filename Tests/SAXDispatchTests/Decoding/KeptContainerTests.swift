import Testing

@testable import SAXDispatch

/// A key type's factory hands its kept container out again only while nothing else holds it
/// (``KeyedContainerFactory``): containers a type keeps read their own element, and the
/// factory reuses its container otherwise.
@Suite("Decodable: keyed containers handed out again")
struct KeptContainerTests {
    static let recordCount = 100

    static func document(_ count: Int) -> String {
        "<items>" + (0..<count).map { "<item id=\"\($0)\"><name>n\($0)</name></item>" }.joined() + "</items>"
    }

    /// Keeps its container and reads it only when asked, after values of its own type were decoded.
    struct LazyItem: Decodable {
        let container: KeyedDecodingContainer<CodingKeys>
        enum CodingKeys: String, CodingKey { case id = "@id", name }

        init(from decoder: any Decoder) throws {
            container = try decoder.container(keyedBy: CodingKeys.self)
        }

        func id() throws -> Int { try container.decode(Int.self, forKey: .id) }
        func name() throws -> String { try container.decode(String.self, forKey: .name) }
    }

    /// Decodes two ``LazyItem``s and reads them afterwards, within its own decode.
    struct Pair: Decodable {
        let ids: [Int]
        let names: [String]
        enum CodingKeys: String, CodingKey { case first, second }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let first = try container.decode(LazyItem.self, forKey: .first)
            let second = try container.decode(LazyItem.self, forKey: .second)
            let items = [first, second]
            ids = try items.map { try $0.id() }
            names = try items.map { try $0.name() }
        }
    }

    @Test("a container a value keeps reads its own element after others of its key type were made")
    func keptByTheValue() throws {
        let count = Self.recordCount
        let xml =
            "<r>"
            + (0..<count).map {
                "<pair><first id=\"\($0)\"><name>f\($0)</name></first><second id=\"\($0 + 1)\"><name>s\($0)</name></second></pair>"
            }.joined() + "</r>"
        var index = 0
        try XMLRecordDecoder().forEach(Pair.self, at: "/r/pair", in: .string(xml)) { pair in
            #expect(pair.ids == [index, index + 1])
            #expect(pair.names == ["f\(index)", "s\(index)"])
            index += 1
        }
        #expect(index == count)
    }

    struct Node: Decodable {
        let name: String
        let children: [Node]
        let after: String?
        enum CodingKeys: String, CodingKey { case name = "@name", children = "node", after }
    }

    @Test("a type nested in itself: the outer container is in use while the inner ones are made")
    func nestedOfTheSameKeyType() throws {
        let count = Self.recordCount
        let xml =
            "<r>"
            + (0..<count).map {
                "<node name=\"a\($0)\"><node name=\"b\($0)\"><node name=\"c\($0)\"/></node><node name=\"d\($0)\"/><after>x\($0)</after></node>"
            }.joined() + "</r>"
        var index = 0
        try XMLRecordDecoder().forEach(Node.self, at: "/r/node", in: .string(xml)) { node in
            #expect(node.name == "a\(index)")
            #expect(node.children.map(\.name) == ["b\(index)", "d\(index)"])
            #expect(node.children.first?.children.map(\.name) == ["c\(index)"])
            #expect(node.after == "x\(index)")
            index += 1
        }
        #expect(index == count)
    }

    struct Item: Decodable {
        let id: Int
        let name: String
        enum CodingKeys: String, CodingKey { case id = "@id", name }
    }

    @Test("the factory hands its container out again, with the same values")
    func reused() throws {
        let count = Self.recordCount
        let session = DecodingSession(Item.self, options: XMLRecordDecoder())
        let slot = ElementDecoder.Slot()
        var values: [Item] = []
        let capture = SubtreeCapture(
            subtree: session.subtree, rootSchema: { session.schemaForNextElement() }, limit: .max, whitespace: .trim
        ) { _, root in
            values.append(try session.decode(Item.self, root: root, reusing: slot))
        }
        var dispatcher = Dispatcher()
        dispatcher.mount(capture.handlers(), at: "/items/item")
        try dispatcher.parse(.string(Self.document(count)))
        #expect(values.map(\.id) == Array(0..<count))
        #expect(values.map(\.name) == (0..<count).map { "n\($0)" })
        #expect(BoxLayout.isOneReference)
        #expect(session.reusedContainerCount(Item.CodingKeys.self) == count)
    }

    @Test("a decode that fails gives its container back: the next record reuses it")
    func failedDecodeGivesBack() throws {
        let count = Self.recordCount
        let xml =
            "<items>" + (0..<count).map { "<item id=\"\($0 == count - 2 ? "x" : String($0))\"><name>n</name></item>" }.joined()
            + "</items>"
        let session = DecodingSession(Item.self, options: XMLRecordDecoder())
        let slot = ElementDecoder.Slot()
        var decoded = 0
        var failures = 0
        let capture = SubtreeCapture(
            subtree: session.subtree, rootSchema: { session.schemaForNextElement() }, limit: .max, whitespace: .trim
        ) { _, root in
            do {
                let item = try session.decode(Item.self, root: root, reusing: slot)
                #expect(item.id == decoded + failures)
                decoded += 1
            } catch {
                failures += 1
            }
        }
        var dispatcher = Dispatcher()
        dispatcher.mount(capture.handlers(), at: "/items/item")
        try dispatcher.parse(.string(xml))
        #expect(decoded == count - 1 && failures == 1)
        #expect(session.reusedContainerCount(Item.CodingKeys.self) == count)
    }
}

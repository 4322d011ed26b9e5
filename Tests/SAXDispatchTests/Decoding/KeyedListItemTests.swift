import Testing

@testable import SAXDispatch

/// A list read by a key is decoded without a decoder of its own: its items' decoders carry
/// the key and their index. These pin what that must keep: every coding path, error and
/// list shape as a list's own decoder gave them.
@Suite("Decodable: items of a list read by a key")
struct KeyedListItemTests {
    /// Records the coding path its decoder reports.
    struct PathItem: Decodable {
        let path: [String]
        let name: String

        enum Keys: String, CodingKey { case name }

        init(from decoder: any Decoder) throws {
            path = decoder.codingPath.map(\.stringValue)
            name = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .name)
        }
    }

    @Test("an item's coding path is its container's, the list's key and its index, at every depth")
    func itemPaths() throws {
        struct Group: Decodable { let item: [PathItem] }
        struct Root: Decodable { let group: [Group] }
        let xml = "<r><group><item name='a'/><item name='b'/></group><group><item name='c'/></group></r>"
        let root = try XMLRecordDecoder().decode(Root.self, from: .string(xml))
        #expect(root.group.map { $0.item.map(\.name) } == [["a", "b"], ["c"]])
        #expect(
            root.group.map { $0.item.map { $0.path.joined(separator: "/") } } == [
                ["group/Index 0/item/Index 0", "group/Index 0/item/Index 1"], ["group/Index 1/item/Index 0"],
            ])
    }

    @Test("a failing item, read as text or through init(from:), names the key and its index")
    func itemErrors() throws {
        struct Tag: Decodable { let count: Int }
        struct Node: Decodable { let tag: [Tag] }
        struct Counts: Decodable { let count: [Int] }
        do {
            _ = try XMLRecordDecoder().decode(Node.self, from: .string("<n><tag count='1'/><tag count='x'/></n>"))
            Issue.record("decoded x as an Int")
        } catch let error as XMLDecodingError {
            guard case .dataCorrupted(let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(context.codingPath.map(\.stringValue) == ["tag", "Index 1", "count"])
            #expect(context.debugDescription.hasPrefix(#"<string>:1:20: cannot convert "x" to Int at n/tag[2]/count (decoding Node)"#), "\(context.debugDescription)")
        }
        do {
            _ = try XMLRecordDecoder().decode(Counts.self, from: .string("<n><count>1</count><count>y</count></n>"))
            Issue.record("decoded y as an Int")
        } catch let error as XMLDecodingError {
            guard case .dataCorrupted(let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(context.codingPath.map(\.stringValue) == ["count", "Index 1"])
            #expect(context.debugDescription.contains("at n/count[2]"), "\(context.debugDescription)")
        }
    }

    @Test("a list of one child, a wrapper of one child, of several, and an empty wrapper")
    func listShapes() throws {
        struct Item: Decodable { let id: Int }
        struct Box: Decodable { let item: [Item] }
        struct Shelf: Decodable { let items: [Item] }
        let decoder = XMLRecordDecoder()
        #expect(try decoder.decode(Box.self, from: .string("<b><item id='1'/></b>")).item.map(\.id) == [1])
        #expect(try decoder.decode(Shelf.self, from: .string("<s><items><item id='2'/></items></s>")).items.map(\.id) == [2])
        #expect(
            try decoder.decode(Shelf.self, from: .string("<s><items><item id='3'/><item id='4'/></items></s>")).items.map(\.id)
                == [3, 4])
        #expect(try decoder.decode(Shelf.self, from: .string("<s><items/></s>")).items.isEmpty)
        #expect(try decoder.decode(Box.self, from: .string("<b/>")).item.isEmpty)
    }

    @Test("an item decoder's last step is its index, and its path the parent's, the key and the index")
    func itemDecoderSteps() throws {
        let session = DecodingSession(Int.self, options: XMLRecordDecoder())
        let parent = ElementDecoder(session: session, value: .absent(owner: 0), parent: nil, step: nil)
        let item = ElementDecoder(
            session: session, value: .absent(owner: 0), parent: parent, key: ElementIndexKey(7), index: 2)
        guard case .index(2) = item.step else {
            Issue.record("\(String(describing: item.step))")
            return
        }
        #expect(item.codingPath.map(\.stringValue) == ["Index 7", "Index 2"])
        let keyed = ElementDecoder(session: session, value: .absent(owner: 0), parent: parent, step: .key(ElementIndexKey(3)))
        guard case .key = keyed.step else {
            Issue.record("\(String(describing: keyed.step))")
            return
        }
    }
}

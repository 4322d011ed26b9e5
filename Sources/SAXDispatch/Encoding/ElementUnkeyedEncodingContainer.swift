/// The items of an array: repeated elements named by the array's key (or `item` inside
/// an element of its own), or, in an attribute or the text, their texts separated by
/// spaces (`xs:list`).
struct ElementUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: ElementEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    private(set) var count = 0
    /// The texts so far of a list in an attribute or the text.
    private let listed = ListedTexts()

    private final class ListedTexts {
        var texts: [String] = []
    }

    init(encoder: ElementEncoder) {
        self.encoder = encoder
    }

    /// The encoder of the next item.
    private mutating func nextItem() -> ElementEncoder {
        defer { count += 1 }
        let key = ItemKey(index: count)
        switch encoder.slot {
        case .child(let parent, let name):
            return ElementEncoder(session: encoder.session, slot: .child(parent: parent, name: name), codingPath: codingPath + [key])
        case .element(let element):
            return ElementEncoder(
                session: encoder.session, slot: .child(parent: element, name: .init(name: "item")), codingPath: codingPath + [key])
        case .attribute, .text:
            return ElementEncoder(session: encoder.session, slot: encoder.slot, codingPath: codingPath + [key])
        }
    }

    mutating func encodeNil() throws {
        nextItem().writeNil()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let item = nextItem()
        switch item.slot {
        case .attribute(let parent, let name):
            guard let text = try item.text(of: value) else { return item.fail("an attribute holds a list of texts only") }
            listed.texts.append(text)
            parent.setAttribute(name, listed.texts.joined(separator: " "))
        case .text(let parent):
            guard let text = try item.text(of: value) else { return item.fail("the text holds a list of texts only") }
            parent.appendText(listed.texts.isEmpty ? text : " " + text)
            listed.texts.append(text)
        case .element, .child:
            try item.encodeValue(value)
        }
        if let failure = encoder.session.failure { throw failure }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        nextItem().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nextItem().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        nextItem()
    }

    /// The coding key of an item: its index.
    struct ItemKey: CodingKey {
        let index: Int
        var stringValue: String { "Index \(index)" }
        var intValue: Int? { index }
        init(index: Int) { self.index = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { index = intValue }
    }
}

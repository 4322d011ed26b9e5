/// Reads a list: repeated elements, a wrapper's children, or the tokens of a text.
struct ElementUnkeyedContainer: UnkeyedDecodingContainer {
    enum Items {
        case elements([Int])
        case tokens([String], owner: Int)

        var count: Int {
            switch self {
            case .elements(let elements): elements.count
            case .tokens(let tokens, _): tokens.count
            }
        }

        /// Item `index` (below ``count``) as a value to decode.
        func value(at index: Int) -> DecodedValue {
            switch self {
            case .elements(let elements): .element(elements[index], mayBeWrapper: false)
            case .tokens(let tokens, let owner): .string(tokens[index], owner: owner)
            }
        }
    }

    /// The decoder the list was read from: the parent of the items' decoders.
    let decoder: ElementDecoder
    let items: Items
    private(set) var currentIndex = 0

    init(decoder: ElementDecoder, items: Items) {
        self.decoder = decoder
        self.items = items
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var count: Int? { items.count }

    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    /// The decoder of the current item.
    private func current<T>(_ type: T.Type) throws -> ElementDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                T.self,
                DecodingError.Context(
                    codingPath: codingPath + [ElementIndexKey(currentIndex)],
                    debugDescription:
                        "\(decoder.session.location(of: decoder.owner)): the list at"
                        + " \(decoder.session.elementPath(codingPath)) has only \(count ?? 0) items"
                        + " (decoding \(decoder.session.typeName))"))
        }
        return ElementDecoder(
            session: decoder.session, value: items.value(at: currentIndex), parent: decoder, step: .index(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard try current(Never?.self).isNil else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try current(T.self).decodeValue(T.self)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let container = try current(NestedKey.self).container(keyedBy: NestedKey.self)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try current([Any].self).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try current(Any.self)
        currentIndex += 1
        return decoder
    }
}

/// An array of `Decodable` items, which the decoder reads item by item without an
/// unkeyed container (``ElementDecoder/decodeItems(_:)``).
protocol DecodableElementList {
    static func decodeItems(of decoder: ElementDecoder) throws -> Self
    /// The list with no items: what an absent key reads as.
    static var empty: Self { get }
}

extension Array: DecodableElementList where Element: Decodable {
    static func decodeItems(of decoder: ElementDecoder) throws -> [Element] {
        try decoder.decodeItems(Element.self)
    }

    static var empty: [Element] { [] }
}

/// Reads a list: repeated elements, a wrapper's children, or the tokens of a text.
struct ElementUnkeyedContainer: UnkeyedDecodingContainer {
    enum Items {
        case elements([Int])
        case tokens([String], owner: Int)
    }

    let decoder: ElementDecoder
    let items: Items
    private(set) var currentIndex = 0

    init(decoder: ElementDecoder, items: Items) {
        self.decoder = decoder
        self.items = items
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var count: Int? {
        switch items {
        case .elements(let elements): elements.count
        case .tokens(let tokens, _): tokens.count
        }
    }

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
        let value: DecodedValue =
            switch items {
            case .elements(let elements): .element(elements[currentIndex], mayBeWrapper: false)
            case .tokens(let tokens, let owner): .string(tokens[currentIndex], owner: owner)
            }
        return ElementDecoder(session: decoder.session, value: value, codingPath: codingPath + [ElementIndexKey(currentIndex)])
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

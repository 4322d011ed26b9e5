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
/// unkeyed container.
///
/// A collection protocol rather than `Array` itself: code generic over an array's element
/// asks the runtime for `[Element]`'s metadata at every list it grows, while a generic
/// list type brings its metadata and its `RangeReplaceableCollection` conformance along.
protocol DecodableElementList: RangeReplaceableCollection where Element: Decodable {}

extension DecodableElementList {
    /// Decodes every item of the value `decoder` reads as a list: what `Array`'s
    /// `init(from:)` does through an unkeyed container, without the container, and
    /// finding how the items are read once for the list.
    static func decodeItems(of decoder: ElementDecoder) throws -> Self {
        let items = decoder.listItems()
        var result = Self()
        if items.count == 0 { return result }
        let kind = decoder.session.kind(of: Element.self)
        result.reserveCapacity(items.count)
        var spare: ElementDecoder?
        let session = decoder.session
        let mark = session.handedOutCount
        defer { session.returnContainers(downTo: mark) }
        for index in 0..<items.count {
            result.append(try decoder.decodeItem(Element.self, index, of: items, as: kind, spare: &spare))
            // The item's containers are free again, and its decoder reusable for the next.
            session.returnContainers(downTo: mark)
        }
        return result
    }
}

extension Array: DecodableElementList where Element: Decodable {}

/// Reads a list: repeated elements, a wrapper's children, or the tokens of a text.
struct ElementUnkeyedContainer: UnkeyedDecodingContainer {
    enum Items {
        /// One element: a list of one needs no array.
        case element(Int)
        case elements([Int])
        case tokens([String], owner: Int)

        var count: Int {
            switch self {
            case .element: 1
            case .elements(let elements): elements.count
            case .tokens(let tokens, _): tokens.count
            }
        }

        /// Item `index` (below ``count``) as a value to decode.
        func value(at index: Int) -> DecodedValue {
            switch self {
            case .element(let element):
                // The only index below the count.
                .element(element, mayBeWrapper: false)
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
        try decodeItems(decoder.listItems(), under: decoder, key: nil)
    }

    /// Decodes every item of `value`, the list that `key` reads in the container of
    /// `parent`, as ``decodeItems(of:)`` does, without a decoder for the list: each item's
    /// decoder carries the key and its index.
    static func decodeItems(_ value: DecodedValue, under parent: ElementDecoder, key: any CodingKey) throws -> Self {
        let items = ElementDecoder.listItems(value, in: parent.session) { parent.codingPath + [key] }
        return try decodeItems(items, under: parent, key: key)
    }

    private static func decodeItems(
        _ items: ElementUnkeyedContainer.Items, under parent: ElementDecoder, key: (any CodingKey)?
    ) throws -> Self {
        var result = Self()
        if items.count == 0 { return result }
        let session = parent.session
        let kind = session.kind(of: Element.self)
        result.reserveCapacity(items.count)
        var spare: ElementDecoder?
        let mark = session.handedOutCount
        defer { session.returnContainers(downTo: mark) }
        for index in 0..<items.count {
            result.append(try parent.decodeItem(Element.self, index, of: items, key: key, as: kind, spare: &spare))
            // The item's containers are free again, and its decoder reusable for the next.
            session.returnContainers(downTo: mark)
        }
        return result
    }
}

extension Array: DecodableElementList where Element: Decodable {}

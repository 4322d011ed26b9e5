/// Lists: the items a value holds, and each item decoded, with a decoder reused from item
/// to item. A list read by a key has no decoder of its own: its items' decoders carry the
/// key and their index (``ElementDecoder/init(session:value:parent:key:index:)``).
extension ElementDecoder {
    /// The list this decoder's value holds, as `T` (which is `L`): this decoder is its
    /// items' parent.
    func decodeListOpened<L: DecodableElementList, T>(_ type: L.Type, as: T.Type) throws -> T {
        unsafeBitCast(try L.decodeItems(of: self), to: T.self)
    }

    /// The list `key` reads in the container of `parent`, `value` (present), decoded
    /// without a decoder for the list itself.
    static func decodeList<L: DecodableElementList, T>(
        _ type: L.Type, as: T.Type, _ value: DecodedValue, under parent: ElementDecoder, key: any CodingKey
    ) throws -> T {
        unsafeBitCast(try L.decodeItems(value, under: parent, key: key), to: T.self)
    }

    /// The empty list: what an absent key reads as a list, without a decoder.
    static func emptyList<L: DecodableElementList, T>(_ type: L.Type, as: T.Type) -> T {
        unsafeBitCast(L(), to: T.self)
    }

    /// Decodes item `index` of `items`, a list that `key` reads in this decoder's container
    /// (`nil`: the list is this decoder's value), as an `Item` read as `kind`; the decoder
    /// in `spare` is reused when nothing else holds it any more.
    /// ``DecodableElementList/decodeItems(_:under:key:)`` runs the loop.
    @inline(__always)
    func decodeItem<Item: Decodable>(
        _ type: Item.Type, _ index: Int, of items: ElementUnkeyedContainer.Items, key: (any CodingKey)?,
        as kind: ValueKind, spare: inout ElementDecoder?
    ) throws -> Item {
        let value = items.value(at: index)
        if case .text(let text) = kind {
            func item() -> ElementDecoder {
                ElementDecoder(session: session, value: value, parent: self, key: key, index: index)
            }
            return try Self.decodeText(Item.self, text, value, in: session, describedBy: item)
        }
        let item = Self.reuse(&spare, session: session, value: value, parent: self, key: key, index: index)
        return try item.decodeValue(Item.self, kind)
    }

    /// The items of the value read as a list.
    func listItems() -> ElementUnkeyedContainer.Items {
        Self.listItems(value, in: session) { codingPath }
    }

    /// The items of `value` read as a list; `codingPath` is the list's, asked only for a
    /// note that the capture left part of the list out.
    static func listItems(
        _ value: DecodedValue, in session: DecodingSession, codingPath: () -> [any CodingKey]
    ) -> ElementUnkeyedContainer.Items {
        switch value {
        case .elements(let elements):
            return .elements(elements)
        case .element(let element, let mayBeWrapper):
            if mayBeWrapper, isWrapper(element, in: session) {
                if session.subtree.elements[element].hasUncapturedChildren {
                    session.noteIncompleteListing("part of the list", of: element, codingPath: codingPath())
                }
                return .elements(Array(session.subtree.children(of: element)))
            }
            return .element(element)
        case .absent:
            return .elements([])
        case .strings(let strings, let owner):
            return .tokens(strings, owner: owner)
        case .string(let string, let owner):
            return .tokens(string.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init), owner: owner)
        }
    }

    /// An element with no text whose children (if any) share one name, unless the type
    /// read there asks for children of that name as a key (then the element is one item
    /// whose field that is: `<item><name>b</name></item>`). Attributes do not stop a
    /// wrapper with children (`<adjustments href="…" type="array"><adjustment>…`, as
    /// Rails-style APIs write lists); an empty element with attributes is one item.
    private static func isWrapper(_ element: Int, in session: DecodingSession) -> Bool {
        let subtree = session.subtree
        let captured = subtree.elements[element]
        guard captured.text.allSatisfy(\.isWhitespace) else { return false }
        let hasAttributes = !captured.attributes.isEmpty || captured.hasUncapturedAttributes
        var first: Int?
        for child in subtree.children(of: element) {
            guard let firstChild = first else {
                first = child
                continue
            }
            if subtree.elements[firstChild].name != subtree.elements[child].name { return false }
        }
        if hasAttributes {
            // With attributes, a wrapper only when the item type is known to read what the
            // children hold: `<adjustments href="…"><adjustment><amount>` for items that read
            // `amount`, not `<entry lang="en"><link/><link/></entry>` for an entry.
            guard let first, let schema = captured.schema,
                subtree.children(of: first).contains(where: {
                    schema.readsChild(subtree.elements[$0].name, namespaceURI: subtree.namespaceURI(of: $0))
                })
            else { return false }
        }
        if let first, let schema = captured.schema,
            schema.readsChild(subtree.elements[first].name, namespaceURI: subtree.namespaceURI(of: first))
        {
            return false
        }
        return true
    }
}

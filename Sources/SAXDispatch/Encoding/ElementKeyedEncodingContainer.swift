/// The keys of a value encoded as an element: each key's value goes where the key says
/// (a child element, an attribute, the element's text, a path of wrappers).
struct ElementKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ElementEncoder
    let element: EncodedElement
    var codingPath: [any CodingKey] { encoder.codingPath }

    /// The encoder for `key`'s value.
    private func encoder(for key: Key) throws -> ElementEncoder {
        let path = codingPath + [key]
        let slot: ElementEncoder.Slot
        switch try encoder.session.place(of: key, codingPath: codingPath) {
        case .text: slot = .text(parent: element)
        case .itself: slot = .element(element)
        case .path(let wrappers, let last, let isAttribute):
            var parent = element
            for wrapper in wrappers { parent = parent.child(wrapper) }
            slot = isAttribute ? .attribute(parent: parent, name: last) : .child(parent: parent, name: last)
        }
        return ElementEncoder(session: encoder.session, slot: slot, codingPath: path)
    }

    mutating func encodeNil(forKey key: Key) throws {
        try encoder(for: key).writeNil()
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder(for: key).encodeValue(value)
    }

    // A `nil` is left out by the default implementations; under `xsiNil` it is written.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value {
            try encode(value, forKey: key)
        } else if case .xsiNil = encoder.session.encoder.nilEncodingStrategy {
            try encodeNil(forKey: key)
        }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }

    private mutating func encodeOptional<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try encodeIfPresent(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        nestedEncoder(forKey: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        nestedEncoder(forKey: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        ElementEncoder(session: encoder.session, slot: .element(element), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        nestedEncoder(forKey: key)
    }

    /// The encoder for `key`, or, for a key that names nothing, this element's with the
    /// failure kept (these functions cannot throw).
    private func nestedEncoder(forKey key: Key) -> ElementEncoder {
        do {
            return try encoder(for: key)
        } catch {
            if encoder.session.failure == nil { encoder.session.failure = error as? EncodingError }
            return ElementEncoder(session: encoder.session, slot: .element(EncodedElement(.init(name: "_"))), codingPath: codingPath)
        }
    }
}

/// Conversion to the model: makes the keyed containers of one `CodingKey` type; one per
/// key type, made on first use and kept in ``DecodingSession``'s ``PerTypeCache``.
///
/// `container(keyedBy:)` is generic over a key type only known at run time, so making
/// `KeyedDecodingContainer(ElementKeyedContainer<Key>(…))` there asks the runtime for the
/// metadata of `ElementKeyedContainer<Key>` and for its conformance, two hashed lookups in
/// the runtime's shared caches per container, about as costly as the rest of a small
/// record's decode. A factory's type names the container type as a generic parameter, so
/// its method finds that type's metadata and conformance in the factory's own class
/// metadata: the runtime is asked once, when the factory is made.
/// (`KeyedDecodingContainer` still looks up the metadata of its own box.)
///
/// ``DecodingSession/keyedContainer(_:decoder:element:)`` keeps one factory per key type.
// `Container.Key == Key` spares the runtime's associated type lookup in every call.
final class KeyedContainerFactory<Key: CodingKey, Container: DecoderElementContainer> where Container.Key == Key {
    func make(_ decoder: ElementDecoder, _ element: Int) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container(decoder: decoder, element: element))
    }
}

/// A keyed container over one element of a captured subtree; see ``KeyedContainerFactory``.
protocol DecoderElementContainer: KeyedDecodingContainerProtocol {
    init(decoder: ElementDecoder, element: Int)
}

extension ElementKeyedContainer: DecoderElementContainer {}

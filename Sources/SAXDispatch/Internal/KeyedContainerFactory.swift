/// Makes the keyed containers of one `CodingKey` type.
///
/// `container(keyedBy:)` is generic over a key type only known at run time, so making
/// `KeyedDecodingContainer(ElementKeyedContainer<Key>(…))` there asks the runtime for the
/// metadata of `ElementKeyedContainer<Key>` and for its conformance, two hashed lookups in
/// the runtime's shared caches per container, about as costly as the rest of a small
/// record's decode. A factory asks once: its closure is made where the container type is a
/// generic parameter, so it carries that type's metadata and conformance with it.
/// (`KeyedDecodingContainer` still looks up the metadata of its own box.)
///
/// ``DecodingSession/keyedContainer(_:decoder:element:)`` keeps one factory per key type.
final class KeyedContainerFactory<Key: CodingKey> {
    let make: (ElementDecoder, Int) -> KeyedDecodingContainer<Key>

    init() {
        make = Self.maker(ElementKeyedContainer<Key>.self)
    }

    // `Container.Key == Key` spares the runtime's associated type lookup in every call.
    private static func maker<Container: DecoderElementContainer>(
        _: Container.Type
    ) -> (ElementDecoder, Int) -> KeyedDecodingContainer<Key> where Container.Key == Key {
        { KeyedDecodingContainer(Container(decoder: $0, element: $1)) }
    }
}

/// A keyed container over one element of a captured subtree; see ``KeyedContainerFactory``.
protocol DecoderElementContainer: KeyedDecodingContainerProtocol {
    init(decoder: ElementDecoder, element: Int)
}

extension ElementKeyedContainer: DecoderElementContainer {}

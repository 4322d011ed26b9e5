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
///
/// `KeyedDecodingContainer` itself puts its container in a heap box whose metadata it looks
/// up and which it allocates every time it is made. So the factory keeps the container it
/// made last (``kept``) and hands it out again, pointed at another element
/// (``KeyedContainerState``), whenever nothing but the factory holds its box: once a
/// type's `init(from:)` has returned and dropped its container. ``Boxed`` is that
/// container's type, `KeyedDecodingContainer<Key>`, as a generic parameter: copying a
/// value of it then finds its metadata in the factory's class metadata too, where naming
/// the type in code generic over `Key` would look it up in the runtime's cache each time.
///
/// What must stay true: a kept container is handed out only while its box is held by
/// nothing else, and its state lets go of its decoder when the decode that took it is done
/// (``returnKept()``, which ``DecodingSession`` calls): a state holding a decoder would hold
/// the session (a cycle) and keep the reusable decoders from being reused.
///
/// ``DecodingSession/keyedContainer(_:decoder:element:)`` keeps one factory per key type.
// `Container.Key == Key` spares the runtime's associated type lookup in every call.
final class KeyedContainerFactory<Key: CodingKey, Container: DecoderElementContainer, Boxed>: KeptContainerHolder
where Container.Key == Key {
    /// The container handed out last (a `Boxed`), in memory of the factory's own, so that
    /// whether its box is held elsewhere can be asked in place; and its state.
    private let kept: UnsafeMutableRawPointer
    // Read and written by the decode of one parse, never re-entrantly: no runtime exclusivity checks.
    @exclusivity(unchecked) private var keptState: KeyedContainerState
    /// What this key type's keys read, shared by the states of its containers.
    private let keys: KeyTargetTable
    /// Whether ``kept`` is handed out again: once the factory has made
    /// ``containersBeforeReuse`` containers, and only if a container is one reference to its
    /// box (``BoxLayout``), so that whether anything else holds the box can be asked. A
    /// decode of a few elements never pays for asking that.
    @exclusivity(unchecked) private var reusesContainers = false
    @exclusivity(unchecked) private var madeCount = 0
    static var containersBeforeReuse: Int { 64 }
    /// How many containers were handed out again rather than made, for tests.
    @exclusivity(unchecked) private(set) var reuseCount = 0

    private init(kept container: Boxed, state: KeyedContainerState) {
        keys = state.keys
        kept = .allocate(byteCount: MemoryLayout<Boxed>.size, alignment: MemoryLayout<Boxed>.alignment)
        kept.initializeMemory(as: Boxed.self, to: container)
        keptState = state
    }

    deinit {
        kept.assumingMemoryBound(to: Boxed.self).deinitialize(count: 1)
        kept.deallocate()
    }

    /// Whether ``kept`` can be handed out: nothing but this factory holds its box.
    @inline(__always)
    var keptIsFree: Bool {
        // `BoxLayout` checked that a `Boxed` is one strong reference to its box, a native
        // Swift object: asked as a reference of a native class type, whose uniqueness the
        // runtime reads from the object's own reference count whatever its class.
        reusesContainers && isKnownUniquelyReferenced(&kept.assumingMemoryBound(to: NativeObject.self).pointee)
    }

    /// ``kept``, pointed at `element` read by `decoder`. Only while ``keptIsFree``.
    // Not inlined: in the caller, `Boxed` would be `KeyedDecodingContainer<Key>`, whose
    // metadata copying it would look up; here it is the class's generic argument.
    @inline(never)
    func reuse(_ decoder: ElementDecoder, _ element: Int) -> Boxed {
        keptState.decoder = decoder
        keptState.element = element
        reuseCount &+= 1
        return kept.assumingMemoryBound(to: Boxed.self).pointee
    }

    /// A new container over `element`, read by `decoder`.
    @inline(never)
    func make(_ decoder: ElementDecoder, _ element: Int) -> KeyedDecodingContainer<Key> {
        madeCount &+= 1
        if madeCount == Self.containersBeforeReuse { reusesContainers = BoxLayout.isOneReference }
        return KeyedDecodingContainer(Container(state: KeyedContainerState(decoder: decoder, element: element, keys: keys)))
    }

    override func returnKept() {
        isListed = false
        if keptIsFree {
            keptState.decoder = nil
            return
        }
        keepNewContainer()
    }

    /// The decode kept its container (stored it, or is still reading it): that one stays
    /// as it is, and the factory keeps a new one.
    // Apart, so that the metadata this looks up is looked up only here.
    @inline(never)
    private func keepNewContainer() {
        let state = KeyedContainerState(decoder: nil, element: 0, keys: keys)
        let container = KeyedDecodingContainer(Container(state: state))
        // The same type: `Boxed` is `KeyedDecodingContainer<Key>` (``made()``).
        kept.assumingMemoryBound(to: Boxed.self).pointee = unsafeBitCast(container, to: Boxed.self)
        keptState = state
    }
}

extension KeyedContainerFactory where Boxed == KeyedDecodingContainer<Key> {
    /// A factory for `Key`, with a container kept for reuse when its layout allows it.
    static func made() -> KeyedContainerFactory {
        let state = KeyedContainerState(decoder: nil, element: 0, keys: KeyTargetTable())
        let container = KeyedDecodingContainer(Container(state: state))
        return KeyedContainerFactory(kept: container, state: state)
    }
}

/// A factory whose kept container a decode took: ``DecodingSession`` gives it back when
/// that decode is done. A class rather than a protocol: a generic factory converts to it
/// without the runtime's witness table lookup.
class KeptContainerHolder {
    /// Whether the kept container is listed as handed out.
    @exclusivity(unchecked) final var isListed = false

    /// The decode that took the kept container is done: its state lets go of its decoder,
    /// or, when something still holds the container, the factory keeps a new one.
    func returnKept() {}
}

/// Whether a `KeyedDecodingContainer` is laid out as one strong reference to its box, the
/// only way whether something else holds the box can be asked: checked once per process
/// against what reflection says a container holds, since the standard library does not
/// promise its layout. The layout does not depend on the key type.
enum BoxLayout {
    /// Whether containers of every key type are one reference to their box.
    static let isOneReference: Bool = {
        struct AnyKey: CodingKey {
            var stringValue: String { "" }
            var intValue: Int? { nil }
            init?(stringValue: String) { nil }
            init?(intValue: Int) { nil }
        }
        let state = KeyedContainerState(decoder: nil, element: 0, keys: KeyTargetTable())
        return isOneReference(KeyedDecodingContainer(ElementKeyedContainer<AnyKey>(state: state)))
    }()

    private static func isOneReference<Key>(_ container: KeyedDecodingContainer<Key>) -> Bool {
        guard MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<UInt>.size else { return false }
        let mirror = Mirror(reflecting: container)
        guard mirror.children.count == 1, let value = mirror.children.first?.value,
            type(of: value) is AnyObject.Type
        else { return false }
        let box = value as AnyObject
        let bits = withUnsafeBytes(of: container) { $0.load(as: UInt.self) }
        return bits == UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque())
    }
}

/// The static type a kept container's box is asked about (``KeyedContainerFactory/keptIsFree``):
/// any native class would do; never made.
private final class NativeObject {}

/// A keyed container over one element of a captured subtree; see ``KeyedContainerFactory``.
protocol DecoderElementContainer: KeyedDecodingContainerProtocol {
    init(state: KeyedContainerState)
}

extension ElementKeyedContainer: DecoderElementContainer {}

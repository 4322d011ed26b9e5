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
    /// Whether ``kept`` is handed out again: only if a container is one reference to its box
    /// (``BoxLayout``), so that whether anything else holds the box can be asked.
    private let reusesContainers = BoxLayout.isOneReference
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
        reusesContainers
            && kept.withMemoryRebound(to: NativeObject.self, capacity: 1) { isKnownUniquelyReferenced(&$0.pointee) }
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
        KeyedDecodingContainer(Container(state: KeyedContainerState(decoder: decoder, element: element, keys: keys)))
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
/// only way whether something else holds the box can be asked: checked once per process,
/// since the standard library does not promise its layout (which does not depend on the key
/// type), on a container made for the check. Its eight bytes must carry a reference count,
/// point at an object holding the container put in the box (after the object's two header
/// words, as the box's one stored property), and count as one more holder when copied.
enum BoxLayout {
    /// Whether containers of every key type are one strong reference to their box.
    static let isOneReference: Bool = {
        struct AnyKey: CodingKey {
            var stringValue: String { "" }
            var intValue: Int? { nil }
            init?(stringValue: String) { nil }
            init?(intValue: Int) { nil }
        }
        let state = KeyedContainerState(decoder: nil, element: 0, keys: KeyTargetTable())
        return isOneStrongReference(AnyKey.self, holding: state)
    }()

    private static func isOneStrongReference<Key: CodingKey>(_ type: Key.Type, holding state: KeyedContainerState) -> Bool {
        // Eight bytes with a reference count: a pointer, to an object or a weak reference's side table.
        guard MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<UInt>.size,
            !_isPOD(KeyedDecodingContainer<Key>.self)
        else { return false }
        // Made here, so that nothing else holds its box.
        var container = KeyedDecodingContainer(ElementKeyedContainer<Key>(state: state))
        let bits = withUnsafeBytes(of: &container) { $0.load(as: UInt.self) }
        guard bits % UInt(MemoryLayout<UInt>.alignment) == 0, let object = UnsafeRawPointer(bitPattern: bits) else {
            return false
        }
        // The box's stored container, whose one field is the state, follows the object's header.
        let stateBits = UInt(bitPattern: Unmanaged.passUnretained(state).toOpaque())
        guard object.load(fromByteOffset: 2 * MemoryLayout<UInt>.size, as: UInt.self) == stateBits else { return false }
        // A strong reference: a copy is one more holder.
        return isOnlyHolder(&container) && isSharedWhileCopied(&container) && isOnlyHolder(&container)
    }

    /// Whether `container` stops being the only holder of its box while a copy of it lives.
    private static func isSharedWhileCopied<Key>(_ container: inout KeyedDecodingContainer<Key>) -> Bool {
        let copy = container
        defer { withExtendedLifetime(copy) {} }
        return !isOnlyHolder(&container)
    }

    /// Whether nothing but `container` holds its box (the layout checked so far).
    private static func isOnlyHolder<Key>(_ container: inout KeyedDecodingContainer<Key>) -> Bool {
        withUnsafeMutableBytes(of: &container) { bytes in
            guard let base = bytes.baseAddress else { return false }
            return base.withMemoryRebound(to: NativeObject.self, capacity: 1) { isKnownUniquelyReferenced(&$0.pointee) }
        }
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

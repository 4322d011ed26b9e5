/// What a keyed container reads: its element and the decoder it was made from. A class, so
/// that a container kept by its factory can be pointed at another element (see
/// ``KeyedContainerFactory``); `nil` only while the factory keeps it unused.
final class KeyedContainerState {
    // Changed only by the factory, while nothing else holds the container: no runtime
    // exclusivity checks.
    @exclusivity(unchecked) var decoder: ElementDecoder?
    @exclusivity(unchecked) var element: Int
    /// What the key type's keys read, kept by the factory for every container it makes.
    let keys: KeyTargetTable

    init(decoder: ElementDecoder?, element: Int, keys: KeyTargetTable) {
        self.decoder = decoder
        self.element = element
        self.keys = keys
    }
}

/// The last few prefixes and namespace URIs the writer's scope was found to bind, each at
/// one scope generation: the prefixed attributes of one copied element, and of its siblings
/// and cousins (whose generations differ where some declare a namespace), are checked
/// against them before the scope is searched.
struct VerifiedBinding: ~Copyable {
    private struct Entry {
        var generation: UInt64 = 0
        /// Where the prefix begins in ``bytes``; the URI follows it.
        var start = 0
        var prefixCount = 0
        var uriCount = 0
    }

    private static let entryCount = 4
    /// Each entry's prefix and URI, one after another.
    private var bytes = TextBuffer(capacity: 512)
    private var entries = (Entry(), Entry(), Entry(), Entry())
    /// The entry the next one replaces.
    private var next = 0

    /// Whether `prefix` was found bound to `uri` at scope generation `generation`.
    @inline(__always)
    func matches(prefix: UnsafeRawBufferPointer, uri: UnsafeRawBufferPointer, generation: UInt64) -> Bool {
        matches(entries.0, prefix, uri, generation) || matches(entries.1, prefix, uri, generation)
            || matches(entries.2, prefix, uri, generation) || matches(entries.3, prefix, uri, generation)
    }

    @inline(__always)
    private func matches(_ entry: Entry, _ prefix: UnsafeRawBufferPointer, _ uri: UnsafeRawBufferPointer, _ generation: UInt64) -> Bool {
        guard entry.generation == generation, entry.prefixCount == prefix.count, entry.uriCount == uri.count else { return false }
        let stored = bytes.bytes(from: entry.start)
        return bytesEqual(UnsafeRawBufferPointer(rebasing: stored[..<prefix.count]), prefix)
            && bytesEqual(UnsafeRawBufferPointer(rebasing: stored[prefix.count..<(prefix.count + uri.count)]), uri)
    }

    mutating func remember(prefix: UnsafeRawBufferPointer, uri: UnsafeRawBufferPointer, generation: UInt64) {
        if bytes.count > 4096 {
            // The bytes stay bounded: what was remembered is forgotten.
            bytes.truncate(to: 0)
            entries = (Entry(), Entry(), Entry(), Entry())
        }
        let entry = Entry(generation: generation, start: bytes.count, prefixCount: prefix.count, uriCount: uri.count)
        bytes.appendBytes(prefix)
        bytes.appendBytes(uri)
        switch next {
        case 0: entries.0 = entry
        case 1: entries.1 = entry
        case 2: entries.2 = entry
        default: entries.3 = entry
        }
        next = (next + 1) % Self.entryCount
    }
}

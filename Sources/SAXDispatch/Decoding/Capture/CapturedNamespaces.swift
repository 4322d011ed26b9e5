/// The namespace URIs of the elements and attributes of the records a ``CapturedSubtree``
/// holds, each kept once: elements and attributes refer to theirs by index, so that one in
/// no namespace costs nothing to keep or to drop, and one in a namespace a lookup.
struct CapturedNamespaces {
    /// The index of no namespace.
    static let none: Int32 = -1

    private var uris: [String] = []
    private var indices: [String: Int32] = [:]
    /// The index found last: the elements of a record are mostly in the namespace of the one before.
    private var last = none

    /// The index of `uri` (``none`` for `nil`), kept if new.
    @inline(__always)
    mutating func index(of uri: String?) -> Int32 {
        guard let uri else { return Self.none }
        return index(ofURI: uri)
    }

    private mutating func index(ofURI uri: String) -> Int32 {
        if last >= 0 && uris[Int(last)] == uri { return last }
        if let known = indices[uri] {
            last = known
            return known
        }
        let index = Int32(truncatingIfNeeded: uris.count)
        uris.append(uri)
        indices[uri] = index
        last = index
        return index
    }

    /// The URI of `index`, `nil` for ``none``.
    @inline(__always)
    func uri(_ index: Int32) -> String? {
        index < 0 ? nil : uris[Int(index)]
    }

    mutating func removeAll() {
        guard !uris.isEmpty else { return }
        uris.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
        last = Self.none
    }
}

/// The namespace declarations written on the start tag expat reports now, as written
/// (prefix, URI), for a copy of the document that keeps them (``XMLWriter/startElement(copying:)``).
///
/// With namespace processing, expat hands each declaration to a callback of its own just
/// before the start tag, and leaves it out of the tag's attributes. Declarations are
/// recorded with the byte index of their tag; a declaration of another tag clears what an
/// earlier one left, so skipped subtrees (whose start tags no engine callback sees) leave
/// nothing behind that a later tag could be given.
struct StartTagNamespaceDeclarations {
    private(set) var byteIndex = -1
    private(set) var pairs: [(prefix: String?, uri: String)] = []
    /// The strings made for declarations, kept by their bytes: records that declare the same
    /// namespaces as the records around them get the same strings again, not new ones.
    private var strings = InternedCStrings()

    /// Whether no declaration is recorded.
    var isEmpty: Bool { pairs.isEmpty }

    /// Records a declaration of the tag at `byteIndex`.
    mutating func record(prefix: UnsafePointer<CChar>?, uri: UnsafePointer<CChar>?, at byteIndex: Int) {
        let pair = (prefix.map { strings.string($0) }, uri.map { strings.string($0) } ?? "")
        if byteIndex != self.byteIndex {
            self.byteIndex = byteIndex
            // Most tags declare one namespace: the last tag's is replaced where it is.
            if pairs.count == 1 {
                pairs[0] = pair
                return
            }
            pairs.removeAll(keepingCapacity: true)
        }
        pairs.append(pair)
    }

    /// The declarations of the tag at `byteIndex`: none if it declared none.
    func declarations(at byteIndex: Int) -> [(prefix: String?, uri: String)] {
        byteIndex == self.byteIndex ? pairs : []
    }

    /// Forgets every declaration, for the next document (byte indexes count again).
    mutating func reset() {
        pairs.removeAll()
        byteIndex = -1
    }
}

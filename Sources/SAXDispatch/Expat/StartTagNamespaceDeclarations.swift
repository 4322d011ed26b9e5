#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The namespace declarations written on the start tag expat reports now, as written
/// (prefix, URI), for a copy of the document that keeps them (``XMLWriter/startElement(copying:)``).
///
/// With namespace processing, expat hands each declaration to a callback of its own just
/// before the start tag, and leaves it out of the tag's attributes. Declarations are
/// recorded with the byte index of their tag, as the bytes expat reported (a copy binds
/// them from those, with no string made); a declaration of another tag clears what an
/// earlier one left, so skipped subtrees (whose start tags no engine callback sees) leave
/// nothing behind that a later tag could be given.
///
/// What must stay true: what is kept is one tag's declarations (and room for as many as the
/// tag with the most had), so it is bounded by the parse's limit on a token's size.
struct StartTagNamespaceDeclarations: ~Copyable {
    /// A declaration: where its prefix begins in ``text`` (its URI follows), and their
    /// lengths; no prefix (the default namespace) is -1.
    private struct Declaration {
        var start: Int
        var prefixCount: Int
        var uriCount: Int
    }

    private(set) var byteIndex = -1
    /// The tag's declarations are the first ``count``: the slots past them are kept for the
    /// next tag's, which most often has as many.
    private var declarations: [Declaration] = []
    private var count = 0
    private var text = TextBuffer(capacity: 128)

    /// Whether no declaration is recorded.
    var isEmpty: Bool { count == 0 }

    /// Records a declaration of the tag at `byteIndex`.
    mutating func record(prefix: UnsafePointer<CChar>?, uri: UnsafePointer<CChar>?, at byteIndex: Int) {
        if byteIndex != self.byteIndex {
            self.byteIndex = byteIndex
            count = 0
            text.truncate(to: 0)
        }
        let start = text.count
        var prefixCount = -1
        if let prefix {
            prefixCount = strlen(prefix)
            text.append(prefix, count: prefixCount)
        }
        let uriCount = uri.map { strlen($0) } ?? 0
        if let uri { text.append(uri, count: uriCount) }
        let declaration = Declaration(start: start, prefixCount: prefixCount, uriCount: uriCount)
        if count < declarations.count {
            declarations[count] = declaration
        } else {
            declarations.append(declaration)
        }
        count += 1
    }

    /// The declarations of the tag at `byteIndex`: none if it declared none.
    func declarations(at byteIndex: Int) -> [(prefix: String?, uri: String)] {
        var pairs: [(prefix: String?, uri: String)] = []
        forEach(at: byteIndex) { prefix, uri in pairs.append((prefix.map(UTF8Text.string), UTF8Text.string(uri))) }
        return pairs
    }

    /// Calls `body` with each declaration of the tag at `byteIndex` in the order written:
    /// its prefix (`nil` for the default namespace) and URI as UTF-8, valid during the call.
    func forEach(at byteIndex: Int, _ body: (UnsafeRawBufferPointer?, UnsafeRawBufferPointer) throws -> Void) rethrows {
        guard byteIndex == self.byteIndex else { return }
        let bytes = text.bytes(from: 0)
        for index in 0..<count {
            let declaration = declarations[index]
            let uriStart = declaration.start + max(declaration.prefixCount, 0)
            try body(
                declaration.prefixCount < 0 ? nil : UnsafeRawBufferPointer(rebasing: bytes[declaration.start..<uriStart]),
                UnsafeRawBufferPointer(rebasing: bytes[uriStart..<(uriStart + declaration.uriCount)]))
        }
    }

    /// Forgets every declaration, for the next document (byte indexes count again).
    mutating func reset() {
        count = 0
        text.truncate(to: 0)
        byteIndex = -1
    }
}

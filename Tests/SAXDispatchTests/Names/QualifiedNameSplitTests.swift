import Testing

@testable import SAXDispatch

/// A qualified name is split at its first colon as XML reads it, scalar by scalar, where a
/// search by `Character` would miss a colon that shares a grapheme cluster with its
/// neighbour: after a prepending character (`x\u{600}:a`, a QName), or before a combining
/// mark.
@Suite("Qualified names: split at the first colon, whatever the graphemes around it")
struct QualifiedNameSplitTests {
    @Test("prefix and local part", arguments: [
        ("p:local", "p", "local"),
        ("local", nil, "local"),
        ("a:b:c", "a", "b:c"),
        (":local", nil, ":local"),
        ("p:", nil, "p:"),
        ("x\u{600}:a", "x\u{600}", "a"),
        ("é:ü", "é", "ü"),
        ("a:\u{301}b", "a", "\u{301}b"),
    ] as [(String, String?, String)])
    func split(name: String, prefix: String?, local: String) {
        #expect(QualifiedName.prefix(of: name) == prefix)
        #expect(QualifiedName.localPart(of: name) == local)
    }

    @Test("a prefix after a prepending character reaches the written name's prefix")
    func writtenPrefix() throws {
        // U+0600 is a name character that joins what follows it into one grapheme cluster.
        let name = "x\u{600}:a"
        #expect(name.firstIndex(of: ":") == nil)
        let colon = try #require(QualifiedName.firstColon(in: name))
        #expect(name[..<colon] == "x\u{600}")
        #expect(name[name.utf8.index(after: colon)...] == "a")
    }
}

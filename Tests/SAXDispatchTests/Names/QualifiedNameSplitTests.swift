import Testing

@testable import SAXDispatch
@testable import SAXDispatchTools

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

    @Test("cut at every colon", arguments: [
        ("a", ["a"]), ("a:b", ["a", "b"]), ("a::b", ["a", "", "b"]), ("x\u{600}:a", ["x\u{600}", "a"]),
        ("x\u{600}:a:b", ["x\u{600}", "a", "b"]),
    ] as [(String, [String])])
    func parts(name: String, parts: [String]) {
        #expect(QualifiedName.colonSeparatedParts(of: name).map(String.init) == parts)
    }

    @Test("what reads a user's names splits them the same way: a rename, a pattern's record name, a name check")
    func usersNames() {
        let target = RenameTarget("x\u{600}:item", processesNamespaces: true, namespaces: ["x\u{600}": "urn:x"])
        guard case .prefixed(let name, let namespace)? = target else {
            Issue.record("not read as a prefixed name: \(String(describing: target))")
            return
        }
        #expect(name == "x\u{600}:item" && namespace == "urn:x")
        // The framer looks for the record's local name.
        #expect(ElementPattern("/root/x\u{600}:rec").lastStepLocalName == "rec")
        // Two colons are one too many, whichever grapheme the first one is in.
        #expect(PatternNames.problem(inName: "x\u{600}:a:b", attribute: false) != nil)
        #expect(PatternNames.problem(inName: "x\u{600}:a", attribute: false) == nil)
    }
}


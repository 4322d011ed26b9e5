import Testing

@testable import SAXDispatch

/// The strings a start tag's namespace declarations are recorded with: a C string equal to
/// one of the last few gives that string again, any other a string of its own bytes.
@Suite("Expat: strings of recent C strings")
struct RecentCStringsTests {
    @Test("equal bytes give the string made before; other lengths, other bytes and evicted ones give their own")
    func reusesRecentStrings() {
        var recent = RecentCStrings()
        let uris = ["urn:a", "urn:b", "urn:ab", "", "urn:é", "urn:c", "urn:d", "urn:e"]
        for round in 0..<3 {
            for uri in uris {
                let made = uri.withCString { recent.string($0) }
                #expect(made == uri, "round \(round)")
            }
        }
        // The last four are kept: the same string object comes back (no new storage).
        let kept = "urn:e".withCString { recent.string($0) }
        let again = "urn:e".withCString { recent.string($0) }
        #expect(kept == "urn:e" && again == "urn:e")
        // A prefix of a kept string, and a longer string starting with one, are not it.
        #expect("urn:".withCString { recent.string($0) } == "urn:")
        #expect("urn:eee".withCString { recent.string($0) } == "urn:eee")
    }

    @Test("a tag's declarations replace the last tag's, one or several")
    func recordsPerTag() {
        var declarations = StartTagNamespaceDeclarations()
        declarations.record(prefix: nil, uri: "urn:d", at: 10)
        #expect(declarations.declarations(at: 10).map(\.uri) == ["urn:d"])
        declarations.record(prefix: "p", uri: "urn:p", at: 20)
        declarations.record(prefix: "q", uri: "urn:q", at: 20)
        #expect(declarations.declarations(at: 20).map(\.uri) == ["urn:p", "urn:q"])
        #expect(declarations.declarations(at: 20).map(\.prefix) == ["p", "q"])
        declarations.record(prefix: "p", uri: "urn:p2", at: 30)
        #expect(declarations.declarations(at: 30).map(\.uri) == ["urn:p2"])
        #expect(declarations.declarations(at: 20).isEmpty)
        declarations.record(prefix: nil, uri: "urn:d", at: 40)
        #expect(declarations.declarations(at: 40).map(\.uri) == ["urn:d"])
        #expect(declarations.declarations(at: 40).map(\.prefix) == [nil])
    }
}

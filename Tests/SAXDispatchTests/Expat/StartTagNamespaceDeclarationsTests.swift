import Testing

@testable import SAXDispatch

/// A start tag's namespace declarations, recorded as expat reports them before the tag and
/// given back as written: as bytes to a copy, as strings to an edit.
@Suite("Expat: a start tag's namespace declarations")
struct StartTagNamespaceDeclarationsTests {
    /// What `forEach` gives for the tag at `byteIndex`, as strings.
    private func walked(_ declarations: borrowing StartTagNamespaceDeclarations, at byteIndex: Int) -> [String] {
        var seen: [String] = []
        declarations.forEach(at: byteIndex) { prefix, uri in
            seen.append((prefix.map { String(decoding: $0, as: UTF8.self) } ?? "(none)") + "=" + String(decoding: uri, as: UTF8.self))
        }
        return seen
    }

    @Test("bytes as expat reported them: no prefix, a prefix, an empty URI, a long and a non-ASCII one")
    func givesTheBytes() {
        var declarations = StartTagNamespaceDeclarations()
        let long = "urn:" + String(repeating: "u", count: 5_000)
        declarations.record(prefix: nil, uri: "urn:d", at: 7)
        declarations.record(prefix: "p", uri: long, at: 7)
        declarations.record(prefix: nil, uri: "", at: 7)
        declarations.record(prefix: "é", uri: "urn:東京", at: 7)
        #expect(walked(declarations, at: 7) == ["(none)=urn:d", "p=" + long, "(none)=", "é=urn:東京"])
        #expect(declarations.declarations(at: 7).map(\.prefix) == [nil, "p", nil, "é"])
        #expect(declarations.declarations(at: 7).map(\.uri) == ["urn:d", long, "", "urn:東京"])
        #expect(walked(declarations, at: 8).isEmpty)
        declarations.record(prefix: "q", uri: "urn:q", at: 9)
        #expect(walked(declarations, at: 9) == ["q=urn:q"])
        #expect(walked(declarations, at: 7).isEmpty)
        declarations.reset()
        #expect(declarations.isEmpty && walked(declarations, at: 9).isEmpty)
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

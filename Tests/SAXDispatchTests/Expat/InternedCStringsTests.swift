import Testing

@testable import SAXDispatch

/// The strings a start tag's namespace declarations are recorded with: a C string equal to
/// one kept gives that string again, any other a string of its own bytes; what is kept stays
/// bounded.
@Suite("Expat: strings of C strings, kept by their bytes")
struct InternedCStringsTests {
    /// The address of a string's UTF-8 storage: the same for a string given again.
    private func storage(_ string: String) -> UnsafeRawPointer? {
        var copy = string
        return copy.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    @Test("every string has the C string's bytes, whatever was kept before it")
    func givesTheBytes() {
        var strings = InternedCStrings()
        var uris = ["urn:a", "urn:b", "urn:ab", "", "urn:é", "urn:", "urn:eee", "x", "0123456", "01234567", "012345678"]
        uris += (0..<600).map { "http://example.org/schema/\($0)/observations" }
        uris.append(String(repeating: "u", count: InternedCStrings.longestKept + 1))
        for round in 0..<3 {
            for uri in uris {
                let made = uri.withCString { strings.string($0) }
                #expect(made == uri, "round \(round)")
            }
        }
    }

    @Test("a string kept is given again, not made again; one longer than the longest kept is made each time")
    func keepsStrings() {
        var strings = InternedCStrings()
        let uri = "http://example.org/schema/1/observations"
        let first = uri.withCString { strings.string($0) }
        let again = uri.withCString { strings.string($0) }
        #expect(storage(first) == storage(again))
        let long = String(repeating: "u", count: InternedCStrings.longestKept + 1)
        let longFirst = long.withCString { strings.string($0) }
        let longAgain = long.withCString { strings.string($0) }
        #expect(longFirst == long && longAgain == long)
        #expect(storage(longFirst) != storage(longAgain))
    }

    @Test("the strings of records that declare a few URIs in turn are kept; what is kept is bounded")
    func boundedAndFound() {
        var strings = InternedCStrings()
        let uris = (0..<40).map { "urn:example:record:\($0)" }
        // The strings first made stay alive here, so no later string can take their storage.
        let kept = uris.map { uri in uri.withCString { strings.string($0) } }
        var made = [String: UnsafeRawPointer?]()
        for string in kept { made[string] = storage(string) }
        // Forty URIs in 256 slots: most keep their slot, and come back without a new string.
        let found = uris.filter { uri in storage(uri.withCString { strings.string($0) }) == made[uri] }
        #expect(found.count >= 30)
        // Thousands of distinct strings later, no more than the slots are kept: the first
        // ones are gone from most slots.
        for index in 0..<5_000 { _ = "urn:other:\(index)".withCString { strings.string($0) } }
        let still = uris.filter { uri in storage(uri.withCString { strings.string($0) }) == made[uri] }
        #expect(still.count < 10)
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

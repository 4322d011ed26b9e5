import Testing

@testable import SAXDispatch
@testable import SAXDispatchTools  // SplitMix64

/// A scope's generations name its bindings: the writer keeps what it verified of a name by
/// generation, so one generation must always be the same bindings (and one default
/// namespace generation the same default namespace), on every path, holds taken back
/// included; and the same declarations on the same bindings give the same generation.
@Suite("Names: namespace scope generations")
struct NamespaceScopeGenerationTests {
    /// What a scope binds, as a writer asks it: each prefix's URI (`nil`: unbound).
    static func resolved(_ scope: NamespaceScope) -> [String: String] {
        var bound: [String: String] = [:]
        for (prefix, uri) in scope.bindings { bound[prefix] = uri }
        return bound
    }

    /// The default namespace as a name in it is bound: undeclared and unbound alike.
    static func defaultNamespace(_ scope: NamespaceScope) -> String {
        resolved(scope)[""] ?? ""
    }

    @Test("one generation is one set of bindings, on random declarations, ends and holds taken back")
    func generationsNameBindings() {
        var random = SplitMix64(seed: 47)
        let prefixes = ["", "p", "q", "r"]
        // Two of the same length, and one longer than a remembered declaration may be.
        let uris = ["", "urn:1", "urn:2", "urn:" + String(repeating: "3", count: 300)]
        var seen: [UInt64: [String: String]] = [:]
        var seenDefault: [UInt64: String] = [:]
        var scope = NamespaceScope()
        var held: NamespaceScope?
        var repeats = 0
        for _ in 0..<20_000 {
            switch Int(random.next() % 10) {
            case 0..<5:
                scope.declare(prefixes[Int(random.next() % 4)], uris[Int(random.next() % 4)])
            case 5..<9:
                scope.end(at: Int(random.next() % UInt64(scope.count + 1)))
            default:
                if let copy = held, random.next() % 2 == 0 {
                    let abandoned = scope
                    scope = copy
                    scope.continueGenerations(after: abandoned)
                    held = nil
                } else {
                    held = scope
                }
            }
            let bindings = Self.resolved(scope)
            if let before = seen[scope.generation] {
                #expect(before == bindings, "generation \(scope.generation) named two sets of bindings")
                repeats += 1
            }
            seen[scope.generation] = bindings
            let defaultURI = Self.defaultNamespace(scope)
            if let before = seenDefault[scope.defaultNamespaceGeneration] {
                #expect(before == defaultURI, "default namespace generation \(scope.defaultNamespaceGeneration) named two URIs")
            }
            seenDefault[scope.defaultNamespaceGeneration] = defaultURI
        }
        // The walk comes back to bindings it had: generations are met again, not only made.
        #expect(repeats > 10_000)
    }

    @Test("the same declaration on the same bindings gives the generation it gave before")
    func declarationsRepeat() {
        var scope = NamespaceScope()
        let outside = scope.generation
        scope.declare("o", "urn:1")
        let firstRecord = scope.generation
        scope.declare("", "urn:extra")
        let firstExtra = (scope.generation, scope.defaultNamespaceGeneration)
        scope.end(at: 1)
        #expect(scope.generation == firstRecord)
        scope.end(at: 0)
        #expect(scope.generation == outside)
        scope.declare("o", "urn:1")
        #expect(scope.generation == firstRecord)
        scope.declare("", "urn:extra")
        #expect(scope.generation == firstExtra.0 && scope.defaultNamespaceGeneration == firstExtra.1)
        scope.end(at: 0)
        // Another record's binding of `o`: other bindings, the same default namespace.
        scope.declare("o", "urn:2")
        #expect(scope.generation != firstRecord)
        #expect(scope.defaultNamespaceGeneration == 1)
        scope.declare("", "urn:extra")
        #expect(scope.generation != firstExtra.0)
        #expect(scope.defaultNamespaceGeneration == firstExtra.1)
        scope.declare("", "")
        #expect(scope.defaultNamespaceGeneration == 1)
    }

    @Test("bindings read back as declared, from strings or bytes, after inner ones were dropped and written over")
    func bindingsReadBack() {
        var scope = NamespaceScope()
        let long = "urn:" + String(repeating: "l", count: 400)
        scope.declare("o", "urn:outer")
        "p".utf8CString.withUnsafeBytes { prefix in
            long.utf8CString.withUnsafeBytes { uri in
                scope.declare(
                    prefix: UnsafeRawBufferPointer(rebasing: prefix.dropLast()), uri: UnsafeRawBufferPointer(rebasing: uri.dropLast()))
            }
        }
        #expect(scope.uri(boundTo: "p") == long)
        #expect(scope.declared(from: 1).map(\.uri) == [long])
        scope.end(at: 1)
        #expect(scope.uri(boundTo: "p") == nil)
        scope.declare("", "urn:東京")
        scope.declare("q", "urn:q")
        #expect(scope.bindings.map(\.prefix) == ["o", "", "q"])
        #expect(scope.bindings.map(\.uri) == ["urn:outer", "urn:東京", "urn:q"])
        #expect(scope.uri(boundTo: "o") == "urn:outer" && scope.uri(boundTo: "") == "urn:東京")
        #expect(scope.declares("q", from: 1) && !scope.declares("o", from: 1))
        "o".utf8CString.withUnsafeBytes { prefix in
            "urn:outer".utf8CString.withUnsafeBytes { uri in
                #expect(scope.binds(
                    prefix: UnsafeRawBufferPointer(rebasing: prefix.dropLast()), to: UnsafeRawBufferPointer(rebasing: uri.dropLast())))
            }
        }
        // A prefix bound to a URI in scope is reused for it; one rebound since is not.
        #expect(scope.attributePrefix(for: "urn:q", written: nil, from: scope.count) == "q")
        scope.declare("q", "urn:other")
        #expect(scope.attributePrefix(for: "urn:q", written: nil, from: scope.count) == "ns1")
        scope.removeAll()
        #expect(scope.bindings.isEmpty && scope.uri(boundTo: "o") == nil)
    }
}

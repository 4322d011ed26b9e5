import Testing

@testable import SAXDispatch

@Suite("Decodable: how a key's names resolve, and what the capture keeps of namespaced children")
struct KeyNameTests {
    static let atom = "http://www.w3.org/2005/Atom"

    func lookup(_ key: String, _ configure: (inout XMLRecordDecoder) -> Void = { _ in }) -> KeyTarget {
        var decoder = XMLRecordDecoder()
        configure(&decoder)
        return KeyTarget(key, options: decoder)
    }

    @Test("keys split into steps at slashes outside a Clark name's braces")
    func steps() {
        #expect(
            KeyTarget.steps(of: "{http://a.example/b}x/@{http://c.example/d}y")
                == ["{http://a.example/b}x", "@{http://c.example/d}y"])
        #expect(KeyTarget.steps(of: "nested_nonsense/name") == ["nested_nonsense", "name"])
        #expect(KeyTarget.steps(of: "/a//b/") == ["a", "b"])
        let clark = lookup("{http://www.w3.org/2005/Atom}link/@{http://www.w3.org/1999/xlink}href")
        #expect(
            clark
                == .path(
                    [KeyName(namespace: Self.atom, local: "link")],
                    attribute: KeyName(namespace: "http://www.w3.org/1999/xlink", local: "href")))
        #expect(clark.xmlPath == "{http://www.w3.org/2005/Atom}link/@{http://www.w3.org/1999/xlink}href")
    }

    @Test("a bound prefix and a Clark name read by namespace; an unbound prefix and an unprefixed name as written")
    func resolution() {
        let bound = lookup("atom:title") { $0.namespaces = ["atom": Self.atom] }
        let clark = lookup("{http://www.w3.org/2005/Atom}title")
        #expect(bound == clark)
        // Messages write a name in a namespace in Clark notation: its prefix is the document's.
        #expect(bound.xmlPath == "{http://www.w3.org/2005/Atom}title")
        #expect(lookup("atom:title") == .name("atom:title"))
        #expect(lookup("title") == .name("title"))
        let language = KeyName(namespace: NamespaceBindings.xmlNamespace, local: "lang")
        #expect(lookup("@xml:lang") == .attribute(language))
        // Without namespace processing every name is compared as written, and a Clark name matches nothing.
        let off = { (decoder: inout XMLRecordDecoder) in
            decoder.processesNamespaces = false
            decoder.namespaces = ["atom": Self.atom]
        }
        #expect(lookup("atom:title", off) == .name("atom:title"))
        #expect(lookup("{urn:x}title", off) == .name("{urn:x}title"))
    }

    @Test("a name in a namespace matches any prefix with that URI and local name, and nothing else")
    func matching() {
        let title = KeyName(namespace: Self.atom, local: "title")
        #expect(title.matches("title", namespaceURI: Self.atom))
        #expect(title.matches("a9:title", namespaceURI: Self.atom))
        #expect(!title.matches("a9:title", namespaceURI: "urn:decoy"))
        #expect(!title.matches("title", namespaceURI: nil))
        #expect(!title.matches("a9:subtitle", namespaceURI: Self.atom))
        #expect(!title.matches("a9title", namespaceURI: Self.atom))
        #expect(!title.matches("a9:titles", namespaceURI: Self.atom))
        let plain: KeyName = "title"
        #expect(plain.matches("title", namespaceURI: Self.atom) && plain.matches("title", namespaceURI: nil))
        #expect(!plain.matches("a9:title", namespaceURI: Self.atom))
    }

    @Test("the probe's schema captures a namespaced child by URI and local name, and skips a decoy")
    func pruning() throws {
        struct Entry: Decodable {
            let title: String
            let summary: String
            enum CodingKeys: String, CodingKey {
                case title = "atom:title"
                case summary
            }
        }
        var decoder = XMLRecordDecoder()
        decoder.namespaces = ["atom": Self.atom]
        let schema = try #require(DecodingSession(Entry.self, options: decoder).schemaForNextElement())
        #expect(schema.childNames == [KeyName(namespace: Self.atom, local: "title").key, "summary"])
        #expect(schema.namespacedChildNames.map(\.local) == ["title"])
        func captured(_ name: String, _ namespaceURI: String?) -> Bool {
            if case .skipped = schema.capture(ofChild: name, namespaceURI: namespaceURI) { return false }
            return true
        }
        #expect(captured("a9:title", Self.atom))
        #expect(captured("title", Self.atom))
        #expect(!captured("x:title", "urn:decoy"))
        #expect(!captured("title", nil))
        #expect(captured("summary", Self.atom) && captured("summary", nil))
        #expect(!captured("a9:summary", Self.atom))
        #expect(schema.captures(attribute: KeyName(namespace: Self.atom, local: "title")))
    }
}

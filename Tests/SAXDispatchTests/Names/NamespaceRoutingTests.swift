import SAXDispatch
import Testing

/// One Atom feed in three spellings: a default namespace, the usual `atom:` prefix, and
/// an unusual prefix. Each holds a decoy: an element with the same local name in another
/// namespace, once with the same prefix the feed uses elsewhere.
enum AtomSpellings {
    static let atom = "http://www.w3.org/2005/Atom"

    static let defaultNamespace = """
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:d="urn:decoy">
          <title>Feed</title>
          <entry><title>One</title><link rel="alternate" href="/1"/><d:title>decoy</d:title></entry>
          <entry><title>Two</title><link rel="self" href="/2"/></entry>
        </feed>
        """
    static let usualPrefix = """
        <atom:feed xmlns:atom="http://www.w3.org/2005/Atom">
          <atom:title>Feed</atom:title>
          <atom:entry><atom:title>One</atom:title><atom:link rel="alternate" href="/1"/>\
        <atom:title xmlns:atom="urn:decoy">decoy</atom:title></atom:entry>
          <atom:entry><atom:title>Two</atom:title><atom:link rel="self" href="/2"/></atom:entry>
        </atom:feed>
        """
    static let unusualPrefix = """
        <a9:feed xmlns:a9="http://www.w3.org/2005/Atom" xmlns:atom="urn:decoy">
          <a9:title>Feed</a9:title>
          <a9:entry><a9:title>One</a9:title><a9:link rel="alternate" href="/1"/><atom:title>decoy</atom:title></a9:entry>
          <a9:entry><a9:title>Two</a9:title><a9:link rel="self" href="/2"/></a9:entry>
        </a9:feed>
        """
    static let all = [defaultNamespace, usualPrefix, unusualPrefix]
}

@Suite("Namespaces: patterns match by URI")
struct NamespaceRoutingTests {
    @Test("a bound prefix matches the namespace in any spelling, never a decoy", arguments: AtomSpellings.all)
    func boundPrefix(_ document: String) throws {
        let log = try dispatchLog(document) { dispatcher, log in
            dispatcher.namespaces = ["atom": AtomSpellings.atom]
            dispatcher.onEnd("atom:entry/atom:title") { element, text in
                log("\(element.localName) \(element.namespaceURI ?? "-") \(text)")
            }
            dispatcher.onStart("atom:link[@rel='alternate']") { element in log("link \(element.attributes["href"] ?? "")") }
        }
        #expect(log == ["title \(AtomSpellings.atom) One", "link /1", "title \(AtomSpellings.atom) Two"])
    }

    @Test("Clark names need no binding", arguments: AtomSpellings.all)
    func clark(_ document: String) throws {
        let log = try dispatchLog(document) { dispatcher, log in
            dispatcher.onEnd("{http://www.w3.org/2005/Atom}entry/{http://www.w3.org/2005/Atom}title") { _, text in
                log(text)
            }
            dispatcher.onEnd("/{http://www.w3.org/2005/Atom}feed/{http://www.w3.org/2005/Atom}title") { _, text in
                log("feed: " + text)
            }
        }
        #expect(log == ["feed: Feed", "One", "Two"])
    }

    @Test("an unprefixed name matches unprefixed elements whatever the default namespace, and no prefixed one")
    func unprefixed() throws {
        let document = """
            <r><title>plain</title><title xmlns="urn:a">defaulted</title>\
            <p:title xmlns:p="urn:a">prefixed</p:title></r>
            """
        let log = try dispatchLog(document) { dispatcher, log in
            dispatcher.onEnd("title") { _, text in log(text) }
        }
        #expect(log == ["plain", "defaulted"])
    }

    @Test("a prefix nobody bound matches the prefix as the document wrote it, in any namespace")
    func unboundFallsBackToWritten() throws {
        let document = """
            <r xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:date>1</dc:date>\
            <dc:date xmlns:dc="urn:other">2</dc:date><x:date xmlns:x="http://purl.org/dc/elements/1.1/">3</x:date></r>
            """
        let log = try dispatchLog(document) { dispatcher, log in
            dispatcher.onEnd("dc:date") { element, text in log("\(element.name) \(text)") }
        }
        #expect(log == ["dc:date 1", "dc:date 2"])
        let bound = try dispatchLog(document) { dispatcher, log in
            dispatcher.namespaces = ["dc": "http://purl.org/dc/elements/1.1/"]
            dispatcher.onEnd("dc:date") { element, text in log("\(element.name) \(text)") }
        }
        #expect(bound == ["dc:date 1", "x:date 3"])
    }

    @Test("an element two patterns name (unprefixed and namespaced) runs the handlers of both")
    func pairedNames() throws {
        let document = """
            <r><title>none</title><title xmlns="urn:a">default</title><a:title xmlns:a="urn:a">prefixed</a:title>\
            <a:title xmlns:a="urn:b">other</a:title></r>
            """
        let log = try dispatchLog(document) { dispatcher, log in
            dispatcher.onEnd("title") { _, text in log("plain \(text)") }
            dispatcher.onEnd("{urn:a}title") { _, text in log("clark \(text)") }
            dispatcher.onEnd("a:title") { _, text in log("written \(text)") }
            dispatcher.onEnd("r/{urn:a}title") { _, text in log("path \(text)") }
        }
        #expect(
            log == [
                "plain none", "path default", "plain default", "clark default", "path prefixed", "clark prefixed",
                "written prefixed", "written other",
            ])
    }

    @Test("attribute tests: unprefixed attributes are in no namespace; bound, Clark and xml: ones by URI")
    func attributeTests() throws {
        let document = """
            <r xmlns:xl="http://www.w3.org/1999/xlink" xmlns:q="urn:q">\
            <a xl:href="1"/><a href="2"/><a q:href="3"/><a xml:lang="en" xl:href="4"/></r>
            """
        let log = try dispatchLog(document) { dispatcher, log in
            dispatcher.namespaces = ["xlink": "http://www.w3.org/1999/xlink"]
            dispatcher.onStart("a[@xlink:href]") { element in
                log("bound \(element.attributes["{http://www.w3.org/1999/xlink}href"] ?? "")")
            }
            dispatcher.onStart("a[@href]") { element in log("plain \(element.attributes["href"] ?? "")") }
            dispatcher.onStart("a[@{urn:q}href]") { element in log("clark \(element.attributes["q:href"] ?? "")") }
            dispatcher.onStart("a[@xml:lang='en']") { element in log("lang \(element.attributes["xml:lang"] ?? "")") }
        }
        #expect(log == ["bound 1", "plain 2", "clark 3", "bound 4", "lang en"])
    }

    @Test("a handler sees URI, local name, prefix and the name as written, of elements and attributes")
    func contextParts() throws {
        let document = #"<x:r xmlns:x="urn:x" xmlns="urn:d"><e x:a="1" b="2"/></x:r>"#
        let log = try dispatchLog(document) { dispatcher, log in
            dispatcher.onAnyStart { element in
                log(
                    [element.name, element.localName, element.prefix ?? "-", element.namespaceURI ?? "-", element.expandedName]
                        .joined(separator: " "))
                for attribute in element.attributes {
                    log(
                        "@" + [attribute.name, attribute.localName, attribute.prefix ?? "-", attribute.namespaceURI ?? "-"]
                            .joined(separator: " "))
                }
                log("path \(element.path) inside \(element.isInside("x:r")) \(element.isInside("{urn:x}r"))")
            }
        }
        #expect(
            log == [
                "x:r r x urn:x {urn:x}r", "path x:r inside false false",
                "e e - urn:d {urn:d}e", "@x:a a x urn:x", "@b b - -", "path x:r/e inside true true",
            ])
    }

    @Test("namespaces off: names as written, xmlns attributes are attributes, unbound prefixes are fine")
    func namesAsWritten() throws {
        let document = #"<r xmlns:a="urn:a"><x:y k="v"/><a:z/></r>"#
        let log = try dispatchLog(document) { dispatcher, log in
            dispatcher.processesNamespaces = false
            dispatcher.namespaces = ["a": "urn:a"]
            dispatcher.onAnyStart { element in
                log("\(element.name) \(element.namespaceURI ?? "-") \(element.attributes.map(\.name))")
            }
            dispatcher.onStart("x:y") { element in log("x:y as written \(element.prefix ?? "-") \(element.attributes["k"] ?? "")") }
            dispatcher.onStart("a:z") { element in log("a:z as written \(element.localName)") }
            dispatcher.onStart("{urn:a}z") { _ in log("never") }
        }
        #expect(log == [#"r - ["xmlns:a"]"#, "x:y as written - v", "a:z as written a:z"])
    }

    @Test("skipAll(except:) keeps namespaced subtrees by URI")
    func keptSubtrees() throws {
        for document in AtomSpellings.all {
            let log = try dispatchLog(document) { dispatcher, log in
                dispatcher.namespaces = ["atom": AtomSpellings.atom]
                try? dispatcher.skipAll(except: "/atom:feed/atom:entry/atom:link")
                dispatcher.onAnyStart { element in log(element.localName) }
            }
            #expect(log == ["feed", "entry", "link", "entry", "link"])
        }
    }

    @Test("a mounted set resolves its names through its own bindings, then the dispatcher's")
    func mountedBindings() throws {
        for document in AtomSpellings.all {
            let log = try dispatchLog(document) { dispatcher, log in
                var set = Dispatcher()
                set.namespaces = ["a": AtomSpellings.atom]
                set.onEnd("/a:title") { _, text in log("set \(text)") }
                set.onStart("/atom:link") { element in log("link \(element.attributes["href"] ?? "")") }
                dispatcher.namespaces = ["atom": AtomSpellings.atom]
                dispatcher.mount(set, at: "atom:entry")
            }
            #expect(log == ["set One", "link /1", "set Two", "link /2"])
        }
    }
}

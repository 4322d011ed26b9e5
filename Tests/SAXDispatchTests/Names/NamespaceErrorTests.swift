import SAXDispatch
import Testing

@Suite("Namespaces: well-formedness errors and bindings")
struct NamespaceErrorTests {
    static let cases: [(document: String, code: XMLParseError.Code, line: Int, column: Int, path: String)] = [
        ("<r><x:y/></r>", .unboundPrefix, 1, 4, "r"),
        ("<r>\n  <a><b x:k='1'/></a></r>", .unboundPrefix, 2, 6, "r/a"),
        (#"<r xmlns:xml="urn:not-xml"/>"#, .reservedPrefixXML, 1, 1, "(document)"),
        (#"<r xmlns:xmlns="urn:x"/>"#, .reservedPrefixXMLNS, 1, 1, "(document)"),
        (#"<r xmlns:p="http://www.w3.org/2000/xmlns/"/>"#, .reservedNamespaceURI, 1, 1, "(document)"),
        (#"<r xmlns:p=""/>"#, .undeclaringPrefix, 1, 1, "(document)"),
    ]

    @Test("each namespace error is a parse error with its line, column and element path, fed whole and by byte")
    func errors() throws {
        for test in Self.cases {
            for piece in [test.document.utf8.count, 1] {
                let parser = PushParser(Dispatcher())
                do {
                    try parser.feed(Array(test.document.utf8), inPiecesOf: piece)
                    _ = try parser.finish()
                    Issue.record("\(test.document) was accepted")
                } catch let error as XMLParseError {
                    #expect(error.code == test.code, "\(test.document)")
                    #expect(error.line == test.line && error.column == test.column, "\(test.document): \(error) at \(error.line):\(error.column)")
                    #expect(error.elementPath.description == test.path, "\(test.document): \(error)")
                }
            }
        }
    }

    @Test("each of them reads fine with namespace processing off")
    func legacy() throws {
        for test in Self.cases {
            var dispatcher = Dispatcher()
            dispatcher.processesNamespaces = false
            #expect(try dispatcher.parse(.string(test.document)) == .completed, "\(test.document)")
        }
    }

    @Test("bindings: a prefix bound twice to different URIs, xmlns, xml elsewhere, an empty URI are errors")
    func bindingErrors() throws {
        let twice = #expect(throws: XMLPatternError.self) { try NamespaceBindings([("a", "urn:1"), ("a", "urn:2")]) }
        #expect(twice?.kind == .namespaceBinding(prefix: "a", uri: "urn:2"))
        #expect(twice?.description == "invalid namespace binding a=urn:2: the prefix 'a' is already bound to 'urn:1'")
        #expect(throws: XMLPatternError.self) { try NamespaceBindings([("xmlns", "urn:1")]) }
        #expect(throws: XMLPatternError.self) { try NamespaceBindings([("xml", "urn:1")]) }
        #expect(throws: XMLPatternError.self) { try NamespaceBindings([("a", "")]) }
        #expect(throws: XMLPatternError.self) { try NamespaceBindings([("a:b", "urn:1")]) }
        var bindings = try NamespaceBindings([("a", "urn:1"), ("a", "urn:1")] as [(String, String)])
        #expect(bindings.pairs.count == 1)
        do {
            try bindings.bind("a", to: "urn:2")
            Issue.record("rebinding was accepted")
        } catch {
            #expect(error.description == "invalid namespace binding a=urn:2: the prefix 'a' is already bound to 'urn:1'")
        }
        #expect(bindings.uri(for: "xml") == NamespaceBindings.xmlNamespace)
    }

    @Test("Clark names in patterns: the URI may hold slashes and colons; malformed ones say what is wrong")
    func clarkSyntax() throws {
        let text = "{http://a.example/x:y}b//{urn:c}d[@{urn:e}f='1']"
        #expect(try ElementPattern(text).description == text)
        for malformed in ["{urn:a", "{urn:a}", "{urn:a}p:b"] {
            #expect(throws: XMLPatternError.self) { try ElementPattern(malformed) }
        }
    }

    @Test("a pattern prefix bound nowhere and written by no element is a warning, never a silent empty result")
    func unseenPrefixWarning() throws {
        let document = #"<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>t</title></entry></feed>"#
        var warnings: [ParseWarning] = []
        var titles: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("atom:title") { _, text in titles.append(text) }
        dispatcher.onStart("x:y[@q:r]") { _ in }
        dispatcher.onWarning { warnings.append($0) }
        #expect(try dispatcher.parse(.string(document)) == .completed)
        #expect(warnings.filter { $0.code == .unboundPatternPrefix }.map(\.prefix) == ["atom", "x", "q"])
        #expect(titles.isEmpty)
        #expect(warnings.first?.description.hasPrefix("<string>: warning: the pattern prefix 'atom' is bound nowhere") == true)

        // Bound, or written in the document: no warning.
        dispatcher.namespaces = ["atom": "http://www.w3.org/2005/Atom", "x": "urn:x", "q": "urn:q"]
        warnings = []
        _ = try dispatcher.parse(.string(document))
        #expect(warnings.filter { $0.code == .unboundPatternPrefix }.isEmpty)
        #expect(titles == ["t"])
        let written = XMLRecord("dc:date", .text(".")) { $0 }
        let summary = try written.forEach(in: .string(#"<r xmlns:dc="urn:dc"><dc:date>1</dc:date></r>"#)) { _ in }
        #expect(summary.warnings.isEmpty)
        let unseen = try XMLRecord("dc:date", .text(".")) { $0 }.forEach(in: .string("<r><date>1</date></r>")) { _ in }
        #expect(unseen.warnings.filter { $0.code == .unboundPatternPrefix }.map(\.prefix) == ["dc"])
    }

    @Test("without namespace processing, an element written exactly as a prefixed pattern name is seen: no warning")
    func noWarningForNamesAsWritten() throws {
        var warnings: [ParseWarning] = []
        var dispatcher = Dispatcher()
        dispatcher.processesNamespaces = false
        dispatcher.onEnd("sku:code") { _, _ in }
        dispatcher.onWarning { warnings.append($0) }
        _ = try dispatcher.parse(.string("<r><sku:code>1</sku:code></r>"))
        #expect(warnings.isEmpty)
        _ = try dispatcher.parse(.string("<r><code>1</code></r>"))
        #expect(warnings.filter { $0.code == .unboundPatternPrefix }.map(\.prefix) == ["sku"])
    }
}

@Suite("Namespaces: limits")
struct NamespaceLimitTests {
    @Test("a long namespace URI is not a long name: the name limit counts the name as written")
    func longURI() throws {
        let uri = "urn:" + String(repeating: "u", count: 60_000)
        let document = #"<p:r xmlns:p="\#(uri)" p:a="1"><p:c/></p:r>"#
        var names: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { element in names.append(element.name) }
        #expect(try dispatcher.parse(.string(document)) == .completed)
        #expect(names == ["p:r", "p:c"])
        // A name as written over the limit still breaks it.
        let long = String(repeating: "n", count: 50_001)
        #expect(throws: XMLParseError.self) { try Dispatcher().parse(.string(#"<p:\#(long) xmlns:p="urn:x"/>"#)) }
    }
}

import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// The examples of the Namespaces article, run as written: each one's `print` is a local
/// function that keeps what it prints, so the tests can check it.
@Suite("Article: Namespaces")
struct NamespacesArticleTests {
    static let atomSpellings = [
        #"<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>T</title><link rel="alternate" href="/e"/></entry></feed>"#,
        #"<atom:feed xmlns:atom="http://www.w3.org/2005/Atom"><atom:entry><atom:title>T</atom:title><atom:link rel="alternate" href="/e"/></atom:entry></atom:feed>"#,
        #"<a9:feed xmlns:a9="http://www.w3.org/2005/Atom"><a9:entry><a9:title>T</a9:title><a9:link rel="alternate" href="/e"/></a9:entry></a9:feed>"#,
    ]

    @Test("rule 1: a bound prefix means its URI, in every spelling")
    func boundPrefix() throws {
        for document in Self.atomSpellings {
            var printed: [String] = []
            func print(_ text: String) { printed.append(text) }
            var dispatcher = Dispatcher()
            dispatcher.namespaces = ["atom": "http://www.w3.org/2005/Atom"]
            dispatcher.onEnd("atom:entry/atom:title") { _, title in print(title) }
            // matches <entry><title> under xmlns="http://www.w3.org/2005/Atom",
            // <atom:entry><atom:title>, and <a9:entry><a9:title> with xmlns:a9 bound to Atom
            try dispatcher.parse(.string(document))
            #expect(printed == ["T"])
        }
    }

    @Test("what a handler sees: the prefix as written and the namespace URI")
    func prefixAndURI() throws {
        var printed: [String] = []
        func print(_ items: String...) { printed.append(items.joined(separator: " ")) }
        var dispatcher = Dispatcher()
        dispatcher.namespaces = ["atom": "http://www.w3.org/2005/Atom"]
        dispatcher.onEnd("atom:entry/atom:title") { element, title in
            print(element.prefix ?? "(default)", element.namespaceURI ?? "-", title)
        }
        // <feed xmlns="http://www.w3.org/2005/Atom">…<title>A</title>: (default) http://www.w3.org/2005/Atom A
        // <a:feed xmlns:a="http://www.w3.org/2005/Atom">…<a:title>B</a:title>: a http://www.w3.org/2005/Atom B
        try dispatcher.parse(.string(#"<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>A</title></entry></feed>"#))
        try dispatcher.parse(.string(#"<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:entry><a:title>B</a:title></a:entry></a:feed>"#))
        #expect(printed == ["(default) http://www.w3.org/2005/Atom A", "a http://www.w3.org/2005/Atom B"])
    }

    @Test("rules 2 and 3: Clark names need no binding; an unbound prefix is the prefix as written")
    func clarkAndUnbound() throws {
        var printed: [String] = []
        func print(_ text: String) { printed.append(text) }
        var dispatcher = Dispatcher()
        dispatcher.onStart("{http://www.w3.org/2005/Atom}link[@rel='alternate']") { element in
            print(element.attributes["href"] ?? "")
        }
        dispatcher.onEnd("dc:creator") { _, creator in print(creator) }   // <dc:creator>, whatever dc means
        for document in Self.atomSpellings { try dispatcher.parse(.string(document)) }
        try dispatcher.parse(.string(#"<r xmlns:dc="urn:any"><dc:creator>Ann</dc:creator></r>"#))
        #expect(printed == ["/e", "/e", "/e", "Ann"])
    }

    @Test("rule 5: attributes by URI, xml always bound")
    func attributes() throws {
        var printed: [String] = []
        var languages = 0
        func print(_ text: String) { printed.append(text) }
        var dispatcher = Dispatcher()
        dispatcher.namespaces = ["xlink": "http://www.w3.org/1999/xlink"]
        dispatcher.onStart("a[@xlink:href]") { element in
            print(element.attributes["{http://www.w3.org/1999/xlink}href"] ?? "")
        }
        dispatcher.onStart("title[@xml:lang='en']") { _ in }
        dispatcher.onStart("title[@xml:lang='en']") { _ in languages += 1 }
        try dispatcher.parse(
            .string(#"<r xmlns:L="http://www.w3.org/1999/xlink"><a L:href="/x"/><a href="/y"/><title xml:lang="en"/></r>"#))
        #expect(printed == ["/x"])
        #expect(languages == 1)
    }

    struct Entry: Equatable {
        var title: String
        var link: String?
    }

    struct Feed: Equatable {
        var title: String
        var entries: [Entry]
    }

    @Test("records declare bindings once; nested records inherit them")
    func records() throws {
        let entry = XMLRecord("atom:entry", .text("atom:title"), .optional(.text("atom:link[@rel='alternate']/@href"))) {
            Entry(title: $0, link: $1)
        }
        let feed = XMLRecord("/atom:feed", .text("atom:title"), .many("atom:entry", entry)) {
            Feed(title: $0, entries: $1)
        }
        .namespaces(["atom": "http://www.w3.org/2005/Atom"])
        let documents = [
            #"<feed xmlns="http://www.w3.org/2005/Atom"><title>F</title><entry><title>T</title><link rel="alternate" href="/e"/></entry></feed>"#,
            #"<a9:feed xmlns:a9="http://www.w3.org/2005/Atom"><a9:title>F</a9:title><a9:entry><a9:title>T</a9:title><a9:link rel="alternate" href="/e"/></a9:entry></a9:feed>"#,
        ]
        for document in documents {
            #expect(try feed.first(in: .string(document)) == Feed(title: "F", entries: [Entry(title: "T", link: "/e")]))
        }
    }

    @Test("the SOAP example: bound prefixes in any toolkit's spelling, and SOAP 1.1's unqualified faultstring")
    func soap() throws {
        let documents = [
            """
            <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>\
            <b:GetInvoiceResponse xmlns:b="urn:example:billing"><b:total>12.50</b:total></b:GetInvoiceResponse>\
            </soapenv:Body></soapenv:Envelope>
            """,
            """
            <SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>\
            <GetInvoiceResponse xmlns="urn:example:billing"><total>12.50</total></GetInvoiceResponse>\
            </SOAP-ENV:Body></SOAP-ENV:Envelope>
            """,
            """
            <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault>\
            <faultcode>s:Client</faultcode><faultstring>no such invoice</faultstring></s:Fault></s:Body></s:Envelope>
            """,
        ]
        var printed: [String] = []
        func print(_ items: String...) { printed.append(items.joined(separator: " ")) }
        var dispatcher = Dispatcher()
        dispatcher.namespaces = [
            "soap": "http://schemas.xmlsoap.org/soap/envelope/",
            "m": "urn:example:billing",
        ]
        dispatcher.onEnd("soap:Envelope/soap:Body/m:GetInvoiceResponse/m:total") { _, total in print(total) }
        dispatcher.onEnd("soap:Fault/faultstring") { _, message in print("fault:", message) }   // unprefixed, as SOAP 1.1 writes it
        for document in documents { try dispatcher.parse(.string(document)) }
        #expect(printed == ["12.50", "12.50", "fault: no such invoice"])
    }

    @Test("the SOAP example with *: matching: a record, the record option and the decoder option")
    func soapAnyNamespace() throws {
        struct Customer: Equatable {
            var id: String
            var name: String
        }
        struct Balance: Decodable, Equatable {
            var name: String
            var balance: Double
        }
        let response = try String(contentsOf: TestPaths.fixture("soap-billing.xml"), encoding: .utf8)
        let customer = XMLRecord("*:customer", .text("@id"), .text("*:name")) { Customer(id: $0, name: $1) }
        // the same record: XMLRecord("customer", .text("@id"), .text("name")) { … }.matchingAnyNamespace()
        var decoder = XMLRecordDecoder()
        decoder.matchesUnprefixedNamesInAnyNamespace = true   // keys `name`, `balance` read <b:name>, <name xmlns="…">
        let balances = try decoder.all(Balance.self, at: "Body/*/customer", in: .string(response))

        let expected = [Customer(id: "c1", name: "Ada"), Customer(id: "c2", name: "Grace"), Customer(id: "c3", name: "Edsger")]
        #expect(try customer.all(in: .string(response)) == expected)
        let same = XMLRecord("customer", .text("@id"), .text("name")) { Customer(id: $0, name: $1) }.matchingAnyNamespace()
        #expect(try same.all(in: .string(response)) == expected)
        #expect(balances.map(\.balance) == [12.5, 0, 7])
    }

    @Test("the table of what a handler sees")
    func parts() throws {
        let document = """
            <r><a9:link xmlns:a9="http://www.w3.org/2005/Atom"/><link xmlns="http://www.w3.org/2005/Atom"/><link/></r>
            """
        var rows: [[String]] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("r/*") { element in
            rows.append([element.name, element.namespaceURI ?? "nil", element.localName, element.prefix ?? "nil", element.expandedName])
        }
        try dispatcher.parse(.string(document))
        let atom = "http://www.w3.org/2005/Atom"
        #expect(
            rows == [
                ["a9:link", atom, "link", "a9", "{\(atom)}link"],
                ["link", atom, "link", "nil", "{\(atom)}link"],
                ["link", "nil", "link", "nil", "link"],
            ])
    }

    @Test("the error table: each document is the error the article names")
    func errorTable() throws {
        let cases: [(String, XMLParseError.Code)] = [
            ("<r><x:y/></r>", .unboundPrefix),
            (#"<r xmlns:xml="urn:other"/>"#, .reservedPrefixXML),
            (#"<r xmlns:xmlns="urn:x"/>"#, .reservedPrefixXMLNS),
            (#"<r xmlns:p="http://www.w3.org/2000/xmlns/"/>"#, .reservedNamespaceURI),
            (#"<r xmlns:p=""/>"#, .undeclaringPrefix),
        ]
        let article = try DocumentationCatalog.text(of: "XMLNamespaces.md")
        for (document, code) in cases {
            #expect(article.contains("`\(document)`"), "the article lists \(document)")
            #expect(throws: XMLParseError.self) { try Dispatcher().parse(.string(document)) }
            do { try Dispatcher().parse(.string(document)) } catch let error as XMLParseError { #expect(error.code == code) }
        }
    }
}

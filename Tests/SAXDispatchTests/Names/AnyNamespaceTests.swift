import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// `*:local`: a local name in any namespace or none, in patterns, record field paths,
/// `Decodable` keys, and the record and decoder options that read unprefixed names so.
@Suite("Namespaces: *:local matches a local name in any namespace")
struct AnyNamespaceTests {
    static let soap = try! String(contentsOf: TestPaths.fixture("soap-billing.xml"), encoding: .utf8)

    @Test("*:customer matches prefixed, default-namespace and unnamespaced elements, in every split")
    func patterns() throws {
        let document = Self.soap
        let bytes = Array(document.utf8)
        var runs: [[String]] = []
        for size in [bytes.count, 1, 7, 4096] {
            let names = Box()
            var dispatcher = Dispatcher()
            dispatcher.onEnd("*:customer/*:name") { element, text in names.values.append("\(element.name)=\(text)") }
            dispatcher.onStart("soapenv:Body//*:customer") { element in names.values.append(element.attributes["id"] ?? "") }
            dispatcher.namespaces = ["soapenv": "http://schemas.xmlsoap.org/soap/envelope/"]
            let parser = PushParser(dispatcher)
            try parser.feed(bytes, inPiecesOf: size)
            #expect(try parser.finish() == .completed)
            #expect(parser.warnings.isEmpty)
            runs.append(names.values)
        }
        #expect(runs[0] == ["c1", "b:name=Ada", "c2", "b:name=Grace", "c3", "name=Edsger"])
        #expect(runs.allSatisfy { $0 == runs[0] })
        // Unprefixed names still match unprefixed elements only, whatever default namespace.
        let plain = Box()
        var dispatcher = Dispatcher()
        dispatcher.onStart("customer") { element in plain.values.append(element.attributes["id"] ?? "") }
        _ = try dispatcher.parse(.string(document))
        #expect(plain.values == ["c3"])
        let spelled = "a/*:b[@x]"
        #expect(try ElementPattern(spelled).description == spelled)
    }

    @Test("*:name next to the same name as written and by namespace: each element matches what it is")
    func combinations() throws {
        let document = #"<r xmlns:b="urn:b"><customer/><b:customer/><customer xmlns="urn:b"/><b:customer xmlns:b="urn:c"/></r>"#
        let seen = Box()
        var dispatcher = Dispatcher()
        dispatcher.namespaces = ["b": "urn:b"]
        dispatcher.onStart("customer") { _ in seen.values.append("customer") }
        dispatcher.onStart("b:customer") { _ in seen.values.append("b:customer") }
        dispatcher.onStart("*:customer") { _ in seen.values.append("*") }
        _ = try dispatcher.parse(.string(document))
        #expect(
            seen.values == [
                "customer", "*",  // no namespace
                "b:customer", "*",  // urn:b, prefixed
                "customer", "b:customer", "*",  // urn:b, default namespace
                "*",  // urn:c
            ])
        // Without namespace processing, the local part of a name as written.
        var legacy = Dispatcher()
        legacy.processesNamespaces = false
        let written = Box()
        legacy.onStart("*:customer") { element in written.values.append(element.name) }
        legacy.onStart("x:customer") { element in written.values.append("x") }
        _ = try legacy.parse(.string("<r><customer/><x:customer/><y:customer/><customers/></r>"))
        #expect(written.values == ["customer", "x:customer", "x", "y:customer"])
    }

    @Test("'*:' needs a local name without a prefix, and is for elements only")
    func syntax() throws {
        for (text, column) in [("*:", 3), ("a/*:", 5), ("*:b:c", 4), ("a[@*:x]", 4), ("*:(x)", 3)] {
            let error = #expect(throws: XMLPatternError.self, "\(text)") { try ElementPattern(text) }
            #expect(error?.column == column, "\(text): \(String(describing: error))")
        }
        let path = "*:"
        #expect(throws: XMLPatternError.self) { try RecordFieldPath(path) }
    }

    @Test("records: *: in the pattern and field paths, and matchingAnyNamespace() for unprefixed ones")
    func records() throws {
        struct Customer: Equatable {
            var id: String
            var name: String
            var balance: Double
        }
        let explicit = XMLRecord("*:customer", .text("@id"), .text("*:name"), .value("*:balance", as: Double.self)) {
            Customer(id: $0, name: $1, balance: $2)
        }
        let expected = [
            Customer(id: "c1", name: "Ada", balance: 12.5), Customer(id: "c2", name: "Grace", balance: 0),
            Customer(id: "c3", name: "Edsger", balance: 7),
        ]
        #expect(try explicit.all(in: .string(Self.soap)) == expected)
        let option = XMLRecord("customer", .text("@id"), .text("name"), .value("balance", as: Double.self)) {
            Customer(id: $0, name: $1, balance: $2)
        }
        #expect(try option.all(in: .string(Self.soap)).count == 1)  // the unprefixed one only
        #expect(try option.matchingAnyNamespace().all(in: .string(Self.soap)) == expected)
        #expect(try option.matchingAnyNamespace().at("Body/*/customer").all(in: .string(Self.soap)) == expected)
        // Nested, and registered on a dispatcher next to other handlers.
        let response = XMLRecord("GetCustomersResponse", .many("customer", option)) { $0 }.matchingAnyNamespace()
        var dispatcher = Dispatcher()
        var all: [[Customer]] = []
        dispatcher.onRecord(response) { all.append($0) }
        _ = try dispatcher.parse(.string(Self.soap))
        #expect(all == [expected])
    }

    @Test("Decodable: *: keys, and the decoder option for unprefixed keys and the pattern")
    func decodable() throws {
        struct Explicit: Decodable, Equatable {
            var id: String
            var name: String
            enum CodingKeys: String, CodingKey {
                case id = "@id"
                case name = "*:name"
            }
        }
        struct Plain: Decodable, Equatable {
            var name: String
            var balance: Double
        }
        let decoder = XMLRecordDecoder()
        let explicit = try decoder.all(Explicit.self, at: "*:customer", in: .string(Self.soap))
        #expect(explicit == [.init(id: "c1", name: "Ada"), .init(id: "c2", name: "Grace"), .init(id: "c3", name: "Edsger")])
        var anyNamespace = XMLRecordDecoder()
        anyNamespace.matchesUnprefixedNamesInAnyNamespace = true
        let plain = try anyNamespace.all(Plain.self, at: "customer", in: .string(Self.soap))
        #expect(plain == [.init(name: "Ada", balance: 12.5), .init(name: "Grace", balance: 0), .init(name: "Edsger", balance: 7)])
        // Without the option, the unprefixed pattern finds the unprefixed customer only.
        #expect(try decoder.all(Plain.self, at: "customer", in: .string(Self.soap)).count == 1)
        var dispatcher = Dispatcher()
        var decoded: [Plain] = []
        dispatcher.onDecoded(Plain.self, at: "*:customer", using: anyNamespace) { decoded.append($0) }
        _ = try dispatcher.parse(.string(Self.soap))
        #expect(decoded == plain)
    }

    /// A record whose keys fall back to attributes: `type` and `lang` are not on the
    /// elements as unprefixed attributes, only as `xsi:type` and `xml:lang`.
    struct Attributed: Decodable, Equatable {
        var name: String
        var id: String
        var type: String?
        var lang: String?
    }

    /// The same keys written `*:`.
    struct ExplicitlyAttributed: Decodable, Equatable {
        var name: String
        var id: String
        var type: String?
        var lang: String?
        enum CodingKeys: String, CodingKey {
            case name = "*:name"
            case id = "*:id"
            case type = "*:type"
            case lang = "*:lang"
        }
    }

    @Test(
        "any-namespace keys read elements in any namespace, and fall back to the unprefixed attribute only",
        arguments: [XMLRecordDecoder.KeyPruning.probe, .off], [XMLRecordDecoder.AttributeLookup.afterElements, .beforeElements])
    func attributeFallback(pruning: XMLRecordDecoder.KeyPruning, attributes: XMLRecordDecoder.AttributeLookup) throws {
        let document = """
            <r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:b="urn:b">\
            <c id="1"><name>a</name></c>\
            <b:c id="2"><b:name>b</b:name></b:c>\
            <c id="3" xsi:type="T" xml:lang="en"><name>c</name></c>\
            <c xmlns="urn:d" id="4" type="U" xsi:type="T" xml:lang="en"><name>d</name></c>\
            </r>
            """
        // `xsi:type` and `xml:lang` are in a namespace: a key `type` or `*:type` does not read them.
        let expected = [
            Attributed(name: "a", id: "1"), Attributed(name: "b", id: "2"), Attributed(name: "c", id: "3"),
            Attributed(name: "d", id: "4", type: "U"),
        ]
        var anyNamespace = XMLRecordDecoder()
        anyNamespace.matchesUnprefixedNamesInAnyNamespace = true
        anyNamespace.keyPruning = pruning
        anyNamespace.attributeLookup = attributes
        var explicit = XMLRecordDecoder()
        explicit.keyPruning = pruning
        explicit.attributeLookup = attributes
        let explicitlyExpected = expected.map {
            ExplicitlyAttributed(name: $0.name, id: $0.id, type: $0.type, lang: $0.lang)
        }
        #expect(try anyNamespace.all(Attributed.self, at: "c", in: .string(document)) == expected)
        #expect(try explicit.all(ExplicitlyAttributed.self, at: "*:c", in: .string(document)) == explicitlyExpected)
        let bytes = Array(document.utf8)
        for size in [bytes.count, 1, 7, 4096] {
            var plain: [Attributed] = []
            var written: [ExplicitlyAttributed] = []
            var dispatcher = Dispatcher()
            dispatcher.onDecoded(Attributed.self, at: "c", using: anyNamespace) { plain.append($0) }
            dispatcher.onDecoded(ExplicitlyAttributed.self, at: "*:c", using: explicit) { written.append($0) }
            let parser = PushParser(dispatcher)
            try parser.feed(bytes, inPiecesOf: size)
            #expect(try parser.finish() == .completed)
            #expect(plain == expected, "pieces of \(size)")
            #expect(written == explicitlyExpected, "pieces of \(size)")
        }
        // `@*:id` is an attribute key: the unprefixed `id` too.
        struct Identified: Decodable, Equatable {
            var id: String
            enum CodingKeys: String, CodingKey { case id = "@*:id" }
        }
        #expect(try explicit.all(Identified.self, at: "*:c", in: .string(document)).map(\.id) == ["1", "2", "3", "4"])
        // Without the option, the unprefixed keys read the unprefixed elements only.
        var decoder = XMLRecordDecoder()
        decoder.keyPruning = pruning
        #expect(try decoder.all(Attributed.self, at: "c", in: .string(document)) == [expected[0], expected[2], expected[3]])
    }

    @Test("a *: pattern that matched nothing is warned about with its closest names")
    func warning() throws {
        var dispatcher = Dispatcher()
        dispatcher.onStart("*:custmer") { _ in }
        let parser = PushParser(dispatcher)
        try parser.feed(Self.soap)
        _ = try parser.finish()
        #expect(
            parser.warnings.map(\.message) == [
                "pattern `*:custmer` matched no element; this document has `b:customer` in urn:billing (2 times),"
                    + " `customer` in urn:billing:v2 (once)"
            ])
    }
}

/// Collects what handlers see.
private final class Box {
    var values: [String] = []
}

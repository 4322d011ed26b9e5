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
            let error = #expect(throws: ElementPatternError.self, "\(text)") { try ElementPattern(text) }
            #expect(error?.column == column, "\(text): \(String(describing: error))")
        }
        let path = "*:"
        #expect(throws: RecordFieldPathError.self) { try RecordFieldPath(path) }
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

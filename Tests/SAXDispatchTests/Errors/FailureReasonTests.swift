import Foundation
import SAXDispatch
import Testing

/// Beside the diagnostic line, each error says what kind of failure it is and, where there
/// is one, what to change: for a limit, the setting that bounds it and its value.
@Suite("Errors: failure reasons and recovery suggestions")
struct FailureReasonTests {
    static func caught(_ body: () throws -> Void) -> (any LocalizedError)? {
        do {
            try body()
        } catch {
            return error as? any LocalizedError
        }
        return nil
    }

    @Test("XMLParseError: a limit names its setting and value; a malformed document says so")
    func parseError() {
        let deep = Self.caught {
            var dispatcher = Dispatcher()
            dispatcher.safety.maximumDepth = 2
            try dispatcher.parse(.string("<a><b><c/></b></a>"))
        }
        #expect(deep?.failureReason == "The document breaks a limit that bounds the memory a parse may use.")
        #expect(deep?.recoverySuggestion == "If the input is trusted, raise maximumDepth (now 2).")

        struct Page: Decodable { let text: String }
        var decoder = XMLRecordDecoder()
        decoder.maximumRecordBytes = 10
        let large = Self.caught {
            try decoder.forEach(Page.self, at: "page", in: .string("<w><page><text>0123456789ab</text></page></w>")) { _ in }
        }
        #expect(large?.recoverySuggestion == "If the input is trusted, raise maximumRecordBytes (now 10).")

        let malformed = Self.caught { try Dispatcher().parse(.string("<zoo><animal></zoo>")) }
        #expect(malformed?.failureReason == "The document is not well-formed XML.")
        #expect(malformed?.recoverySuggestion == nil)

        let cut = Self.caught { try Dispatcher().parse(.string("<zoo><animal>")) }
        #expect(cut?.failureReason == "The input ended before the document was complete.")
    }

    @Test("XMLInputError: a missing file says to check the path")
    func inputError() {
        let missing = Self.caught { try Dispatcher().parse(.file("/nonexistent/zoo.xml")) }
        #expect(missing?.failureReason == "The input could not be read.")
        #expect(missing?.recoverySuggestion == "Check the path: no file exists there.")
    }

    @Test("HandlerError: the underlying error's reason, or that a handler threw")
    func handlerError() {
        struct Closed: Error {}
        let thrown = Self.caught {
            var dispatcher = Dispatcher()
            dispatcher.onStart("gate") { _ in throw Closed() }
            try dispatcher.parse(.string("<zoo><gate/></zoo>"))
        }
        #expect(thrown?.failureReason == "A start handler threw an error.")
        #expect(thrown?.recoverySuggestion == nil)
    }

    @Test("XMLRecordError: how many fields failed, or that nothing matched, and what to change")
    func recordError() {
        struct Zoo { var toilet: Int }
        let record = XMLRecord("zoo", .value("toilet", as: Int.self)) { Zoo(toilet: $0) }.named("Zoo")
        let failed = Self.caught { _ = try record.first(in: .string("<zoo><toilet>4x2</toilet></zoo>")) }
        #expect(failed?.failureReason == "A field of record Zoo could not be filled.")
        #expect(failed?.recoverySuggestion?.hasPrefix("Make the fields that may be absent optional") == true)
        let none = Self.caught { _ = try record.first(in: .string("<park/>")) }
        #expect(none?.failureReason == "The document has no element matching zoo.")
        #expect(none?.recoverySuggestion == "Check the record's pattern against the document's element names (saxdispatch paths lists them).")
    }

    @Test("XMLDecodingError: a missing key suggests an optional property")
    func decodingError() {
        struct Person: Decodable { let name: String }
        let missing = Self.caught { _ = try XMLRecordDecoder().decode(Person.self, from: .string("<p/>")) }
        #expect(missing?.failureReason == "A property of the type has no element or attribute in the document.")
        #expect(missing?.recoverySuggestion == "Declare the property optional if the document may leave it out.")
    }

    @Test("XMLPatternError: what the text was meant to be, and its shape")
    func patternError() {
        let pattern = Self.caught {
            let text = "a//"
            _ = try ElementPattern(text)
        }
        #expect(pattern?.failureReason == "The text is not a valid element pattern.")
        let binding = Self.caught { _ = try NamespaceBindings([("a", "")]) }
        #expect(binding?.failureReason == "The namespace binding breaks a rule of XML namespaces.")
        #expect(binding?.recoverySuggestion == "Bind each prefix once, to a non-empty URI; 'xml' and 'xmlns' are reserved.")
    }
}

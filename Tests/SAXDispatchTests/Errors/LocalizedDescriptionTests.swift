import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// Every public error reads in an app (`localizedDescription`) exactly as in a log
/// (`description`): the compiler-style line, never "The operation could not be completed".
@Suite("Errors: localizedDescription is the diagnostic")
struct LocalizedDescriptionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var type: String
        var make: @Sendable () -> any Error
        var expected: String
        var testDescription: String { type }
    }

    /// Runs `body` and returns the error it throws (the table's inputs all fail).
    static func caught(_ body: () throws -> Void) -> any Error {
        do {
            try body()
        } catch {
            return error
        }
        Issue.record("expected an error")
        return CancellationError()
    }

    struct Zoo: Sendable { var toilet: Int }
    struct Closed: Error, CustomStringConvertible { var description: String { "closed" } }

    static let table: [Case] = [
        Case(type: "XMLParseError", make: {
            caught { try Dispatcher().parse(.string("<zoo>\n  <animal></zoo>").named("zoo.xml")) }
        }, expected: "zoo.xml:2:13: error: mismatched tag (in zoo/animal)"),
        Case(type: "XMLInputError", make: {
            caught { try Dispatcher().parse(.file("/nonexistent/zoo.xml")) }
        }, expected: "/nonexistent/zoo.xml: error: cannot open file: No such file or directory"),
        Case(type: "HandlerError", make: {
            caught {
                var dispatcher = Dispatcher()
                dispatcher.onStart("gate") { _ in throw Closed() }
                try dispatcher.parse(.string("<zoo>\n<gate/></zoo>").named("zoo.xml"))
            }
        }, expected: "zoo.xml:2:1: error: in the start handler of zoo/gate: closed"),
        Case(type: "XMLRecordError", make: {
            caught {
                _ = try XMLRecord("zoo", .value("toilet", as: Int.self)) { Zoo(toilet: $0) }
                    .first(in: .string("<zoo>\n  <toilet>4x2</toilet></zoo>").named("zoo.xml"))
            }
        }, expected: #"zoo.xml:2:3: error: cannot convert "4x2" to Int at zoo/toilet (in record Zoo, field toilet): expected an integer"#),
        Case(type: "RecordNotFoundError", make: {
            caught { _ = try XMLRecord("zoo", .text("name")) { $0 }.named("Zoo").first(in: .string("<park/>")) }
        }, expected: "<string>: error: no element matches zoo (record Zoo)"),
        Case(type: "RecordSizeLimitError", make: {
            caught {
                struct Page: Decodable { let text: String }
                var decoder = XMLRecordDecoder()
                decoder.maximumRecordBytes = 10
                try decoder.forEach(Page.self, at: "page", in: .string("<w><page><text>0123456789ab</text></page></w>")) { _ in }
            }
        }, expected: "<string>:1:4: <page> holds more than maximumRecordBytes (10 bytes) of names, attributes and text"),
        Case(type: "ValueConversionError", make: {
            caught { _ = try Int(xmlText: "4x2") }
        }, expected: "expected an integer"),
        Case(type: "ElementPatternError", make: {
            caught {
                let text = "a//"  // run-time text: the throwing initializer
                _ = try ElementPattern(text)
            }
        }, expected: "invalid pattern \"a//\" at column 4: a step name or '*' was expected, not the end"),
        Case(type: "RecordFieldPathError", make: {
            caught {
                let text = "/zoo/name"
                _ = try RecordFieldPath(text)
            }
        }, expected: #"invalid field path "/zoo/name": paths are relative to the record; drop the leading '/'"#),
        Case(type: "NamespaceBindingError", make: {
            caught { _ = try NamespaceBindings([("a", "")]) }
        }, expected: "invalid namespace binding a=: the prefix 'a' cannot be bound to the empty URI"),
    ]

    @Test("localizedDescription, errorDescription and description agree", arguments: table)
    func agree(_ test: Case) throws {
        let error = test.make()
        let described = "\(error)"  // the type's own description
        let localized = try #require(error as? any LocalizedError)
        #expect(localized.errorDescription == described)
        #expect(error.localizedDescription == described)
        #expect(error.localizedDescription == test.expected)
        #expect(!error.localizedDescription.contains("could not be completed"))
    }
}

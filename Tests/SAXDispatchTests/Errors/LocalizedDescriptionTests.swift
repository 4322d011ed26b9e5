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
        Case(type: "XMLDecodingError", make: {
            caught {
                struct Gate: Decodable { let open: Bool }
                _ = try XMLRecordDecoder().decode(Gate.self, from: .string("<gate>\n  <open>maybe</open></gate>").named("zoo.xml"))
            }
        }, expected: #"zoo.xml:2:3: error: cannot convert "maybe" to Bool at gate/open (decoding Gate): expected true, false, 1 or 0"#),
        Case(type: "XMLRecordError (not found)", make: {
            caught { _ = try XMLRecord("zoo", .text("name")) { $0 }.named("Zoo").first(in: .string("<park/>")) }
        }, expected: "<string>: error: no element matches zoo (record Zoo)"),
        Case(type: "XMLParseError (record size limit)", make: {
            caught {
                struct Page: Decodable { let text: String }
                var decoder = XMLRecordDecoder()
                decoder.maximumRecordBytes = 10
                try decoder.forEach(Page.self, at: "page", in: .string("<w><page><text>0123456789ab</text></page></w>")) { _ in }
            }
        }, expected: "<string>:1:4: error: <page> holds more than maximumRecordBytes (10 bytes) of names, attributes and text (in w/page)"),
        Case(type: "ValueConversionError", make: {
            caught { _ = try Int(xmlText: "4x2") }
        }, expected: "expected an integer"),
        Case(type: "XMLPatternError (pattern)", make: {
            caught {
                let text = "a//"  // run-time text: the throwing initializer
                _ = try ElementPattern(text)
            }
        }, expected: "invalid pattern \"a//\" at column 4: a step name or '*' was expected, not the end"),
        Case(type: "XMLPatternError (field path)", make: {
            caught {
                let text = "/zoo/name"
                _ = try RecordFieldPath(text)
            }
        }, expected: #"invalid field path "/zoo/name": paths are relative to the record; drop the leading '/'"#),
        Case(type: "XMLPatternError (namespace binding)", make: {
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

    /// What a user can catch from each public way in, for one bad input each.
    struct Path: CustomTestStringConvertible, Sendable {
        var name: String
        var make: @Sendable () async -> any Error
        /// The message and where it is: `zoo.xml:LINE:COLUMN`.
        var location: String
        var message: String
        var testDescription: String { name }
    }

    static func caughtAsync(_ body: () async throws -> Void) async -> any Error {
        do {
            try await body()
        } catch {
            return error
        }
        Issue.record("expected an error")
        return CancellationError()
    }

    struct Facilities: Decodable, Sendable { let toilet: Int }
    struct DecodedZoo: Decodable, Sendable { let facilities: Facilities }
    struct Named: Decodable, Sendable { let name: String }

    static let badToilet = "<zoo>\n  <facilities>\n    <toilet>4x2</toilet>\n  </facilities>\n</zoo>"
    static let conversion = #"cannot convert "4x2" to Int at zoo/facilities/toilet (decoding DecodedZoo): expected an integer"#
    static let recordConversion = #"cannot convert "4x2" to Int at zoo/facilities/toilet (in record Zoo, field toilet): expected an integer"#
    static let zooRecord = XMLRecord("zoo", .value("facilities/toilet", as: Int.self).named("toilet")) { Zoo(toilet: $0) }

    static let paths: [Path] = [
        Path(name: "decoder forEach: a value that does not convert", make: {
            caught { try XMLRecordDecoder().forEach(DecodedZoo.self, at: "/zoo", in: .string(badToilet).named("zoo.xml")) { _ in } }
        }, location: "zoo.xml:3:5", message: conversion),
        Path(name: "decoder decode: a missing key", make: {
            caught { _ = try XMLRecordDecoder().decode(Named.self, from: .string("<zoo>\n  <x/></zoo>").named("zoo.xml")) }
        }, location: "zoo.xml:1:1", message: #"no element or attribute "name" in <zoo>"#),
        // A document without a root element is malformed before the decoder could miss one.
        Path(name: "decoder decode: a stream of no documents", make: {
            caught { _ = try XMLRecordDecoder().decode(Named.self, from: .string("").named("zoo.xml").concatenatedDocuments()) }
        }, location: "zoo.xml:1:1", message: "no root element (in document 1)"),
        Path(name: "decoder stream", make: {
            await caughtAsync {
                for try await _ in XMLRecordDecoder().stream(
                    DecodedZoo.self, at: "/zoo", from: AsyncXMLInput(.string(badToilet)).named("zoo.xml")) {}
            }
        }, location: "zoo.xml:3:5", message: conversion),
        Path(name: "onDecoded on a dispatcher", make: {
            caught {
                var dispatcher = Dispatcher()
                dispatcher.onDecoded(DecodedZoo.self, at: "/zoo") { _ in }
                try dispatcher.parse(.string(badToilet).named("zoo.xml"))
            }
        }, location: "zoo.xml:3:5", message: conversion),
        Path(name: "record: a value that does not convert", make: {
            caught { _ = try zooRecord.first(in: .string(badToilet).named("zoo.xml")) }
        }, location: "zoo.xml:3:5", message: recordConversion),
        Path(name: "record: a missing field", make: {
            caught { _ = try zooRecord.first(in: .string("<zoo>\n</zoo>").named("zoo.xml")) }
        }, location: "zoo.xml:1:1", message: "record Zoo has no facilities/toilet (field toilet)"),
        Path(name: "record stream", make: {
            await caughtAsync { for try await _ in zooRecord.stream(from: AsyncXMLInput(.string(badToilet)).named("zoo.xml")) {} }
        }, location: "zoo.xml:3:5", message: recordConversion),
        Path(name: "onRecord on a dispatcher", make: {
            caught {
                var dispatcher = Dispatcher()
                dispatcher.onRecord(zooRecord) { _ in }
                try dispatcher.parse(.string(badToilet).named("zoo.xml"))
            }
        }, location: "zoo.xml:3:5", message: recordConversion),
        Path(name: "a handler's error", make: {
            caught {
                var dispatcher = Dispatcher()
                dispatcher.onStart("gate") { _ in throw Closed() }
                try dispatcher.parse(.string("<zoo>\n<gate/></zoo>").named("zoo.xml"))
            }
        }, location: "zoo.xml:2:1", message: "in the start handler of zoo/gate: closed"),
        Path(name: "a malformed document", make: {
            caught { try Dispatcher().parse(.string("<zoo>\n  <animal></zoo>").named("zoo.xml")) }
        }, location: "zoo.xml:2:13", message: "mismatched tag (in zoo/animal)"),
        Path(name: "a limit", make: {
            caught {
                var dispatcher = Dispatcher()
                dispatcher.safety.maximumDepth = 2
                try dispatcher.parse(.string("<a>\n <b><c/></b></a>").named("zoo.xml"))
            }
        }, location: "zoo.xml:2:5", message: "elements nest deeper than maximumDepth (2)"),
        Path(name: "a decoded element over maximumRecordBytes", make: {
            caught {
                var decoder = XMLRecordDecoder()
                decoder.maximumRecordBytes = 10
                try decoder.forEach(Named.self, at: "page", in: .string("<w>\n<page><name>0123456789ab</name></page></w>").named("zoo.xml")) { _ in }
            }
        }, location: "zoo.xml:2:1", message: "<page> holds more than maximumRecordBytes (10 bytes)"),
        Path(name: "an input that cannot be read", make: {
            caught { try Dispatcher().parse(.file("/nonexistent/zoo.xml")) }
        }, location: "/nonexistent/zoo.xml", message: "cannot open file"),
    ]

    @Test("every way in: localizedDescription has the message and file:line:column", arguments: paths)
    func everyPath(_ path: Path) async throws {
        let error = await path.make()
        let text = error.localizedDescription
        #expect(text.hasPrefix(path.location + ":"), "\(text)")
        #expect(text.contains(path.message), "\(text)")
        #expect(!text.contains("could not be completed"), "\(text)")
        // The location is stated once: a wrapper does not repeat its underlying error's.
        #expect(text.components(separatedBy: path.location).count == 2, "\(text)")
        #expect(error is any LocalizedError, "\(type(of: error))")
    }
}

import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// Records and decoded values delivered through a dispatcher, next to other handlers, name
/// the input they came from, as those of a record's own parse do.
@Suite("Records on a dispatcher name their input")
struct RecordSourceTests {
    static let document = "<list>\n<n>1</n>\n<n>x</n>\n</list>\n"
    static let number = XMLRecord("n", .value(".", as: Int.self)) { $0 }

    @Test("a record a dispatcher skips reports the file it read, not <input>")
    func skippedRecordNamesTheFile() throws {
        let path = FileManagerTemp.write(Self.document, name: "numbers.xml")
        var reported: [String] = []
        var numbers: [Int] = []
        var dispatcher = Dispatcher()
        dispatcher.onRecord(Self.number.onFailure(.skip), diagnostics: { reported.append($0.description) }) {
            numbers.append($0)
        }
        try dispatcher.parse(.file(path))
        #expect(numbers == [1])
        #expect(reported == [#"\#(path):3:1: error: cannot convert "x" to Int at list/n (in record Int, field .): expected an integer"#])
    }

    @Test("a record a dispatcher fails on, and a decoded value, name the file in the handler error's underlying error")
    func failedRecordNamesTheFile() throws {
        let path = FileManagerTemp.write(Self.document, name: "numbers-failing.xml")
        var dispatcher = Dispatcher()
        dispatcher.onRecord(Self.number) { _ in }
        let error = try #require(throws: HandlerError.self) { try dispatcher.parse(.file(path)) }
        let recordError = try #require(error.underlying as? XMLRecordError)
        #expect(recordError.source == path)
        #expect(recordError.description.hasPrefix("\(path):3:1: error: cannot convert"))

        var decoding = Dispatcher()
        decoding.onDecoded(Int.self, at: "n") { _ in }
        let decodingError = try #require(throws: HandlerError.self) { try decoding.parse(.file(path)) }
        guard case .dataCorrupted(let context) = (decodingError.underlying as? XMLDecodingError)?.underlying else {
            Issue.record("expected a DecodingError, got \(decodingError.underlying)")
            return
        }
        #expect(context.debugDescription.hasPrefix("\(path):3:1: cannot convert \"x\" to Int"), "\(context.debugDescription)")
    }

    @Test("the same dispatcher names each input it parses, and a push parser's source")
    func eachParseItsOwnName() throws {
        var reported: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onRecord(Self.number.onFailure(.skip), diagnostics: { reported.append($0.description) }) { _ in }
        try dispatcher.parse(.string(Self.document).named("first.xml"))
        try dispatcher.parse(.string(Self.document).named("second.xml"))
        let parser = PushParser(dispatcher, source: "pushed.xml")
        try parser.feed(Self.document)
        try parser.finish()
        #expect(reported.map { $0.prefix(while: { $0 != ":" }) } == ["first.xml", "second.xml", "pushed.xml"])
    }
}

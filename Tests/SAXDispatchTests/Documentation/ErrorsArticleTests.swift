import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// The code of Errors.md, verbatim, and its rendered errors: each ```text block must be
/// exactly what the code before it produces. `document` is the zoo with bad values.
@Suite("Article: Errors")
struct ErrorsArticleTests {
    let document: String
    let rendered: [String]

    init() throws {
        document = try String(contentsOf: TestPaths.fixture("zoo-bad.xml"), encoding: .utf8)
        rendered = try DocumentationCatalog.textBlocks(of: "Errors.md")
    }

    @Test("the article shows six rendered errors and a warning, each checked below")
    func renderedCount() {
        #expect(rendered.count == 7)
    }

    @Test("a malformed document: code, position, path")
    func malformed() throws {
        var dispatcher = Dispatcher()
        dispatcher.onEnd("kind") { _, _ in }
        let parser = PushParser(dispatcher, source: "zoo.xml")
        var message = ""
        var code = XMLParseError.Code.syntax
        do {
            try parser.feed("<zoo>\n  <animals>\n    <animal>\n    </animals>")
            try parser.finish()
        } catch let error as XMLParseError {
            message = error.description
            code = error.code                    // .tagMismatch; error.line == 4, error.column == 7
        }

        #expect(code == .tagMismatch)
        #expect(rendered[0] == message)
    }

    @Test("a depth-limit error shortens the path")
    func depthLimit() throws {
        let parser = PushParser(Dispatcher(), source: "deep.xml")
        let error = #expect(throws: XMLParseError.self) {
            try parser.feed(String(repeating: "<a>", count: 257))
            try parser.finish()
        }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.limit == 256)
        #expect(error?.elementPath.components.count == 256)
        #expect(error?.description == rendered[1])
        #expect(XMLParseError.Code.tagMismatch.rawValue == 7)
        #expect(XMLParseError.Code.truncated.rawValue == 1000)
    }

    @Test("a handler's error, wrapped with the element and its position")
    func handlerError() throws {
        struct BadCount: Error, CustomStringConvertible {
            let text: String
            var description: String { "cannot convert \(text.debugDescription) to Int" }
        }
        var dispatcher = Dispatcher()
        dispatcher.onEnd("toilet") { _, text in
            guard Int(text) != nil else { throw BadCount(text: text) }
        }
        var message = ""
        let parser = PushParser(dispatcher, source: "zoo.xml")
        do {
            try parser.feed(document)
            try parser.finish()
        } catch let error as HandlerError where error.underlying is BadCount {
            message = error.description          // error.line, error.column, error.elementPath too
        }

        #expect(rendered[2] == message)
    }

    @Test("a record's error lists every failed field")
    func recordError() throws {
        struct Zoo { let toiletCount: Int; let disabledParking: Bool }
        let zoo = XMLRecord("/zoo",
            .value("facilities/toilet", as: Int.self).named("toiletCount"),
            .value("facilities/disabled_parking", as: Bool.self)
        ) { Zoo(toiletCount: $0, disabledParking: $1) }

        var message = ""
        do {
            try zoo.forEach(in: .string(document).named("zoo.xml")) { _ in }
        } catch let error as XMLRecordError {
            message = error.description          // error.failures has one FieldFailure per line
        }

        #expect(rendered[3] == message)

        // The other reasons, as the prose quotes them.
        let missing = #expect(throws: XMLRecordError.self) { try zoo.first(in: .string("<zoo><facilities/></zoo>")) }
        #expect(missing?.failures.first?.message == "record Zoo has no facilities/toilet (field toiletCount)")
        let markedNil = #expect(throws: XMLRecordError.self) {
            try zoo.first(in: .string(#"<zoo><facilities><toilet nil="nil"/><disabled_parking>1</disabled_parking></facilities></zoo>"#))
        }
        #expect(markedNil?.failures.first?.message == "facilities/toilet of record Zoo is nil but required (field toiletCount)")
        struct Closed: Error, CustomStringConvertible { var description: String { "closed" } }
        let failing = XMLRecord("/zoo", .text("name")) { _ -> Zoo in throw Closed() }.named("Zoo")
        let builder = #expect(throws: XMLRecordError.self) { try failing.first(in: .string("<zoo><name>x</name></zoo>")) }
        #expect(builder?.failures.first?.message == "record Zoo could not be built: closed")
        let notFound = #expect(throws: XMLRecordError.self) { try zoo.first(in: .string("<park/>")) }
        #expect(notFound?.kind == .notFound(pattern: "/zoo", skipped: 0))
        #expect(notFound?.description == "<string>: error: no element matches /zoo (record Zoo)")
    }

    @Test("a decoding error's debug description")
    func decodingError() throws {
        struct Facilities: Decodable { let toilet: Int }
        struct Zoo: Decodable { let facilities: Facilities }
        var message = ""
        do {
            try XMLRecordDecoder().forEach(Zoo.self, at: "/zoo", in: .string(document).named("zoo.xml")) { _ in }
        } catch let error as XMLDecodingError {
            message = error.description   // error.line == 15; error.codingPath: facilities, toilet
        }

        #expect(rendered[4] == message)

        // The prose: a missing key, and the size limit's description.
        struct Person: Decodable { let name: String }
        do {
            _ = try XMLRecordDecoder().decode(Person.self, from: .string("<p/>"))
            Issue.record("decoded a person without a name")
        } catch let error as XMLDecodingError {
            guard case .keyNotFound(_, let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(error.description == #"<string>:1:1: error: no element or attribute "name" in <p> at p (decoding Person)"#)
            #expect(context.debugDescription == #"<string>:1:1: no element or attribute "name" in <p> at p (decoding Person)"#)
        }
        // (One text node stops at maximumTextBytes, 10 MiB, first: the page holds 17 lines of 1 MiB.)
        struct Page: Decodable { let line: [String] }
        let lines = String(repeating: "\n", count: 119)
        let big = #expect(throws: XMLParseError.self) {
            let line = "<line>" + String(repeating: "x", count: 1 << 20) + "</line>"
            let dump = "<wiki>\(lines)  <page>" + String(repeating: line, count: 17) + "</page></wiki>"
            try XMLRecordDecoder().forEach(Page.self, at: "page", in: .string(dump).named("dump.xml")) { _ in }
        }
        #expect(big?.code == .recordSizeLimitExceeded)
        #expect(big?.limit == 16_777_216)
        #expect(big?.message == "<page> holds more than maximumRecordBytes (16777216 bytes) of names, attributes and text")
        #expect(big?.description == "dump.xml:120:3: error: <page> holds more than maximumRecordBytes (16777216 bytes) of names, attributes and text (in wiki/page)")
    }

    @Test("input, pattern and field-path errors")
    func otherErrors() throws {
        var messages: [String] = []
        do {
            try Dispatcher().parse(.file("missing.xml"))
        } catch let error as XMLInputError {
            messages.append(error.description)
        }
        let patternText = "a//", pathText = "/zoo/name"
        do { _ = try ElementPattern(patternText) } catch { messages.append(error.description) }
        do { _ = try RecordFieldPath(pathText) } catch { messages.append(error.description) }

        #expect(rendered[5] == messages.joined(separator: "\n"))
    }

    @Test("a record pattern that matched nothing: the warning with the closest name")
    func unmatchedWarning() throws {
        let feed = "<feed>" + String(repeating: "<item><name>n</name></item>", count: 1_048) + "</feed>"
        let record = XMLRecord("itme", .text("name")) { $0 }
        let summary = try record.forEach(in: .string(feed)) { _ in }   // no records
        let warning = summary.warnings[0]   // warning.code == .unmatchedPattern, warning.pattern == "itme"

        #expect(warning.code == .unmatchedPattern)
        #expect(warning.pattern == "itme")
        #expect(rendered[6] == warning.description)
    }

    @Test("the truncated-input code")
    func truncated() throws {
        let error = #expect(throws: XMLParseError.self) { try Dispatcher().parse(.string("<zoo><animal>")) }
        #expect(error?.code == .truncated)
    }
}

import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// The code of AsyncStreams.md, verbatim; `path` is the zoo fixture the article refers to.
@Suite("Article: Async streams")
struct AsyncStreamsArticleTests {
    let path = TestPaths.fixture("zoo.xml").path

    @Test("records stream from chunks as they arrive")
    func records() async throws {
        struct Animal { let kind: String; let name: String }
        let animal = XMLRecord("animal", .text("kind"), .text("name")) { Animal(kind: $0, name: $1) }

        let (chunks, input) = AsyncStream.makeStream(of: [UInt8].self)
        input.yield(Array("<zoo><animal><kind>cat</kind><name>grumpy</name></animal><ani".utf8))
        input.yield(Array("mal><kind>dog</kind><name>doge</name></animal></zoo>".utf8))
        input.finish()

        var names: [String] = []
        for try await animal in animal.stream(from: .chunks(chunks)) {
            names.append(animal.name)
        }
        // names == ["grumpy", "doge"]

        #expect(names == ["grumpy", "doge"])
    }

    @Test("Decodable values stream from a file")
    func decodable() async throws {
        struct Animal: Decodable {
            let kind: String
            let name: String
            enum CodingKeys: String, CodingKey {
                case kind
                case name = "nested_nonsense/name"
            }
        }
        var kinds: [String] = []
        for try await animal in XMLRecordDecoder().stream(Animal.self, at: "/zoo/animals/animal", from: .file(path)) {
            kinds.append(animal.kind)
        }
        // kinds == ["cat", "dog"]

        #expect(kinds == ["cat", "dog"])
    }

    @Test("your own handlers yield values; leaving the loop early ends the iteration")
    func handlers() async throws {
        var input = AsyncXMLInput.file(path)
        input.chunkSize = 16 << 10
        let links = XMLStream<URL>(from: input) { dispatcher, output in
            dispatcher.safety = .strict
            dispatcher.onEnd("animal/url") { _, text in
                if let url = URL(string: text) { output.yield(url) }
            }
        }
        var pages: [String] = []
        for try await url in links {
            pages.append(url.lastPathComponent)
        }
        // pages == ["Grumpy_Cat", "i-have-no-idea-what-im-doing"]

        #expect(pages == ["Grumpy_Cat", "i-have-no-idea-what-im-doing"])

        var first = ""
        for try await url in links {
            first = url.lastPathComponent
            break                                         // ends the iteration and releases its parser
        }
        // first == "Grumpy_Cat"

        #expect(first == "Grumpy_Cat")
    }

    @Test("a malformed document: the values before the error, then the error from next()")
    func errors() async throws {
        struct Animal { let kind: String; let name: String }
        let animal = XMLRecord("animal", .text("kind"), .text("name")) { Animal(kind: $0, name: $1) }

        let (chunks, input) = AsyncStream.makeStream(of: [UInt8].self)
        input.yield(Array("<zoo><animal><kind>cat</kind><name>grumpy</name></animal>\n".utf8))
        input.yield(Array("<animal><kind>dog</kind></zoo>".utf8))
        input.finish()

        var names: [String] = []
        var failure = ""
        do {
            for try await animal in animal.stream(from: .chunks(chunks).named("zoo.xml")) {
                names.append(animal.name)
            }
        } catch let error as XMLParseError {
            failure = error.description
        }
        // names == ["grumpy"]: the value before the error arrives first

        #expect(names == ["grumpy"])
        #expect(try DocumentationCatalog.textBlocks(of: "AsyncStreams.md") == [failure])
    }

    @Test("the prose: a file that cannot be read is an XMLInputError from next(); a dispatcher parses an async source")
    func inputErrorsAndDirectParsing() async throws {
        struct Animal { let kind: String }
        let animal = XMLRecord("animal", .text("kind")) { Animal(kind: $0) }
        await #expect(throws: XMLInputError.self) {
            for try await _ in animal.stream(from: .file("/nonexistent/zoo.xml")) {}
        }

        let (chunks, input) = AsyncStream.makeStream(of: [UInt8].self)
        input.yield(Array("<zoo><animal><kind>cat</kind></animal>".utf8))
        input.yield(Array("<animal><kind>dog</kind></animal></zoo>".utf8))
        input.finish()
        var kinds: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("kind") { _, text in kinds.append(text) }
        let outcome = try await dispatcher.parse(.chunks(chunks))
        #expect(outcome == .completed)
        #expect(kinds == ["cat", "dog"])
    }

    @Test("the zoo from a file as records, and from chunks as handler values")
    func zooAsRecordsAndHandlerValues() async throws {
        let zooPath = TestPaths.fixture("zoo.xml").path
        struct Animal { let kind: String; let name: String }
        let animal = XMLRecord("animal", .text("kind"), .text("nested_nonsense/name")) { Animal(kind: $0, name: $1) }
        var chunks = AsyncXMLInput.file(zooPath)
        chunks.chunkSize = 100
        var printed: [String] = []
        func print(_ line: String) { printed.append(line) }
        for try await animal in animal.stream(from: .file(zooPath)) {
            print(animal.name)
        }
        let kinds = XMLStream(from: chunks) { dispatcher, output in
            dispatcher.onEnd("animal/kind") { _, text in output.yield(text) }
        }
        for try await kind in kinds { print(kind) }
        #expect(printed == ["grumpy", "i have no idea what i'm doing", "cat", "dog"])
    }

    @Test("a producer of your own writes with back-pressure")
    func producer() async throws {
        struct Animal { let kind: String; let name: String }
        let animal = XMLRecord("animal", .text("kind"), .text("name")) { Animal(kind: $0, name: $1) }

        let document = Array("<zoo><animal><kind>cat</kind><name>grumpy</name></animal></zoo>".utf8)
        let produced = AsyncXMLInput.producer(bufferedChunks: 2) { writer in
            for start in stride(from: 0, to: document.count, by: 16) {
                try await writer.write(document[start..<min(start + 16, document.count)])
            }
        }
        var produce: [String] = []
        for try await animal in animal.stream(from: produced.named("zoo.xml")) {
            produce.append(animal.name)
        }
        // produce == ["grumpy"]

        #expect(produce == ["grumpy"])
    }
}

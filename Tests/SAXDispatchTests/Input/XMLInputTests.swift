import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// Every kind of ``XMLInput`` and ``AsyncXMLInput`` reaches the same events and the same
/// errors, each error naming its input; a reader of your own is one more source.
@Suite("XMLInput and AsyncXMLInput: every source alike")
struct XMLInputTests {
    static let document = "<zoo>\n  <animal kind=\"cat\">grumpy</animal>\n  <animal kind=\"dog\">doge &amp; co</animal>\n</zoo>\n"
    /// Ends inside the second animal: mismatched tag at line 3, column 28.
    static let malformed = "<zoo>\n  <animal kind=\"cat\">grumpy</animal>\n  <animal kind=\"dog\">doge</zoo>\n"

    /// An error a source throws, compared by identity.
    struct SourceBroke: Error, Equatable {
        let id: Int
    }

    /// The events of a parse, one line each.
    final class Log: @unchecked Sendable {
        var lines: [String] = []
    }

    static func dispatcher(_ log: Log) -> Dispatcher {
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { element in
            log.lines.append("start \(element.name) \(element.line):\(element.column) \(element.attributes["kind"] ?? "")")
        }
        dispatcher.onAnyEnd { element, text in log.lines.append("end \(element.name) \(text.debugDescription)") }
        return dispatcher
    }

    static func events(_ input: XMLInput) throws -> [String] {
        let log = Log()
        try dispatcher(log).parse(input)
        return log.lines
    }

    static func events(_ input: AsyncXMLInput) async throws -> [String] {
        let log = Log()
        try await dispatcher(log).parse(input)
        return log.lines
    }

    /// The events a stream over `input` yields, through an XMLStream's handlers.
    static func streamedEvents(_ input: AsyncXMLInput) async throws -> [String] {
        let stream = XMLStream<String>(from: input) { dispatcher, output in
            dispatcher.onAnyStart { element in
                output.yield("start \(element.name) \(element.line):\(element.column) \(element.attributes["kind"] ?? "")")
            }
            dispatcher.onAnyEnd { element, text in output.yield("end \(element.name) \(text.debugDescription)") }
        }
        var lines: [String] = []
        for try await line in stream { lines.append(line) }
        return lines
    }

    /// Bytes in a sequence without contiguous storage, which an input gathers before parsing.
    struct Scattered: Sequence, Sendable {
        let bytes: [UInt8]
        func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
    }

    /// `document` as each synchronous input, with the name each gives errors; `pipe` must
    /// outlive the inputs (its descriptor is one of them).
    static func synchronousInputs(_ document: String, pipe: Pipe) throws -> [(input: XMLInput, name: String)] {
        let bytes = Array(document.utf8)
        let path = FileManagerTemp.write(document, name: "input-\(bytes.count).xml")
        pipe.fileHandleForWriting.write(Data(bytes))
        try pipe.fileHandleForWriting.close()
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        return [
            (.file(path), path),
            (.file(path).chunked(1), path),
            (.file(path).chunked(7), path),
            (.file(URL(fileURLWithPath: path)), path),
            (.string(document), "<string>"),
            (.bytes(bytes), "<bytes>"),
            (.bytes(Data(bytes)), "<bytes>"),
            (.bytes(([0x20] + bytes)[1...]), "<bytes>"),
            (.bytes(document.utf8), "<bytes>"),
            (.bytes(Scattered(bytes: bytes)), "<bytes>"),  // not contiguous: gathered first
            (.fileDescriptor(descriptor), "<file descriptor \(descriptor)>"),
            (.reader(name: "one byte at a time") { PiecesReader(bytes, pieceSize: 1) }, "one byte at a time"),
            (.pieces(bytes, of: 1, name: "one byte per chunk"), "one byte per chunk"),
            (.pieces(bytes, of: 5), "<pieces>"),
            (.bytes(bytes).named("renamed"), "renamed"),
        ]
    }

    @Test("every synchronous source gives the same events")
    func synchronousEvents() throws {
        let expected = try Self.events(.string(Self.document))
        #expect(expected.count == 6)
        let pipe = Pipe()
        for (input, name) in try Self.synchronousInputs(Self.document, pipe: pipe) {
            #expect(input.name == name)
            #expect(try Self.events(input) == expected, "\(name)")
        }
        withExtendedLifetime(pipe) {}
    }

    @Test("every synchronous source gives the same error, naming the input")
    func synchronousErrors() throws {
        let pipe = Pipe()
        defer { withExtendedLifetime(pipe) {} }
        for (input, name) in try Self.synchronousInputs(Self.malformed, pipe: pipe) {
            let log = Log()
            let error = #expect(throws: XMLParseError.self) { try Self.dispatcher(log).parse(input) }
            #expect(error?.code == .tagMismatch, "\(name)")
            #expect(error?.source == name)
            #expect(error?.description == "\(name):3:28: error: mismatched tag (in zoo/animal)")
            #expect(log.lines.count == 4, "the events before the error, from \(name)")
        }
    }

    /// `document` as each asynchronous input, with the name each gives errors.
    static func asynchronousInputs(_ document: String) throws -> [(input: AsyncXMLInput, name: String)] {
        let bytes = Array(document.utf8)
        let path = FileManagerTemp.write(document, name: "async-input-\(bytes.count).xml")
        // An AsyncStream is iterated once: each input gets its own.
        func byteStream() -> AsyncStream<UInt8> {
            AsyncStream<UInt8> { continuation in
                for byte in bytes { continuation.yield(byte) }
                continuation.finish()
            }
        }
        let dataChunks = AsyncStream<Data> { continuation in
            for start in stride(from: 0, to: bytes.count, by: 4) {
                continuation.yield(Data(bytes[start..<min(bytes.count, start + 4)]))
            }
            continuation.finish()
        }
        return [
            (.bytes(byteStream()), "<bytes>"),
            (.bytes(byteStream()).chunked(3), "<bytes>"),
            (.chunks(ChunkSource(bytes, chunkSize: 5)), "<bytes>"),
            (.chunks(ChunkSource(bytes, chunkSize: 1)).named("download"), "download"),
            (.chunks(dataChunks), "<bytes>"),
            (.file(path), path),
            (.file(path).chunked(2), path),
            (AsyncXMLInput(.string(document)), "<string>"),
            (AsyncXMLInput(.bytes(bytes)).chunked(6), "<bytes>"),
            (AsyncXMLInput(.pieces(bytes, of: 1, name: "trickle")), "trickle"),
        ]
    }

    @Test("every asynchronous source gives the same events, parsed and streamed")
    func asynchronousEvents() async throws {
        let expected = try Self.events(.string(Self.document))
        // Fresh inputs for each pass: an AsyncStream is iterated once.
        for (input, name) in try Self.asynchronousInputs(Self.document) {
            #expect(input.name == name)
            #expect(try await Self.events(input) == expected, "\(name)")
        }
        for (input, name) in try Self.asynchronousInputs(Self.document) {
            #expect(try await Self.streamedEvents(input) == expected, "streamed from \(name)")
        }
    }

    @Test("every asynchronous source gives the same error, naming the input, parsed and streamed")
    func asynchronousErrors() async throws {
        for (input, name) in try Self.asynchronousInputs(Self.malformed) {
            let log = Log()
            do {
                try await Self.dispatcher(log).parse(input)
                Issue.record("parsed a malformed document from \(name)")
            } catch let error as XMLParseError {
                #expect(error.description == "\(name):3:28: error: mismatched tag (in zoo/animal)")
            }
            #expect(log.lines.count == 4, "the events before the error, from \(name)")
        }
        for (input, name) in try Self.asynchronousInputs(Self.malformed) {
            let message = "\(name):3:28: error: mismatched tag (in zoo/animal)"
            var streamed: [String] = []
            do {
                for try await line in XMLStream<String>(from: input, handlers: { dispatcher, output in
                    dispatcher.onAnyStart { output.yield($0.name) }
                }) {
                    streamed.append(line)
                }
                Issue.record("streamed a malformed document from \(name)")
            } catch let error as XMLParseError {
                #expect(error.description == message)
            }
            #expect(streamed == ["zoo", "animal", "animal"], "\(name)")
        }
    }

    @Test("a string is read as UTF-8 whatever it declares; its bytes as they declare")
    func stringEncoding() async throws {
        let latin = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>é</r>"
        var text = ""
        var dispatcher = Dispatcher()
        dispatcher.onEnd("r") { _, value in text = value }
        try dispatcher.parse(.string(latin))
        #expect(text == "é")
        try dispatcher.parse(.bytes(Array(latin.utf8)))
        #expect(text == "Ã©", "bytes go by their declaration")
        let streamed = XMLStream<String>(from: AsyncXMLInput(.string(latin))) { dispatcher, output in
            dispatcher.onEnd("r") { _, value in output.yield(value) }
        }
        var values: [String] = []
        for try await value in streamed { values.append(value) }
        #expect(values == ["é"], "a string read asynchronously is UTF-8 too")
        try await dispatcher.parse(AsyncXMLInput(.string(latin)))
        #expect(text == "é")
    }

    @Test("a reader that throws mid-document: the events before it, then its error as it is")
    func throwingReader() async throws {
        let bytes = Array(Self.document.utf8)
        // The first animal's end tag ends at byte 42.
        let failing = XMLInput.reader(name: "flaky") {
            PiecesReader(bytes, pieceSize: 4, failure: (after: 44, error: SourceBroke(id: 1)))
        }
        let log = Log()
        #expect(throws: SourceBroke(id: 1)) { try Self.dispatcher(log).parse(failing) }
        #expect(log.lines == Array(try Self.events(.string(Self.document)).prefix(3)))

        // Records, decoded values and a push parser see the same.
        let kind = XMLRecord("animal", .text("@kind")) { $0 }
        var kinds: [String] = []
        #expect(throws: SourceBroke(id: 1)) { try kind.forEach(in: failing) { kinds.append($0) } }
        #expect(kinds == ["cat"])
        struct Animal: Decodable { let kind: String }
        var decoded: [String] = []
        #expect(throws: SourceBroke(id: 1)) {
            try XMLRecordDecoder().forEach(Animal.self, at: "animal", in: failing) { decoded.append($0.kind) }
        }
        #expect(decoded == ["cat"])
        let parser = PushParser(Self.dispatcher(Log()))
        #expect(throws: SourceBroke(id: 1)) { try parser.parse(failing) }
        #expect(throws: SourceBroke(id: 1)) { try parser.finish() }

        // Asynchronously: parsed, and streamed.
        let asyncLog = Log()
        await #expect(throws: SourceBroke(id: 1)) { try await Self.dispatcher(asyncLog).parse(AsyncXMLInput(failing)) }
        #expect(asyncLog.lines == log.lines)
        var streamed: [String] = []
        await #expect(throws: SourceBroke(id: 1)) {
            for try await kind in kind.stream(from: AsyncXMLInput(failing)) { streamed.append(kind) }
        }
        #expect(streamed == ["cat"])

        // A reader that cannot be made: its error, before any event.
        let unopenable = XMLInput.reader(name: "closed") { throw SourceBroke(id: 2) }
        #expect(throws: SourceBroke(id: 2)) { try Dispatcher().parse(unopenable) }
        await #expect(throws: SourceBroke(id: 2)) { try await Dispatcher().parse(AsyncXMLInput(unopenable)) }
    }

    @Test("an asynchronous source that throws: the events of the bytes before it, then its error as it is")
    func throwingAsyncSources() async throws {
        let head = Array("<zoo><animal kind=\"cat\"/><animal kind=\"dog\"/>".utf8)
        let bytes = AsyncThrowingStream<UInt8, any Error> { continuation in
            for byte in head { continuation.yield(byte) }
            continuation.finish(throwing: SourceBroke(id: 3))
        }
        var kinds: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("animal") { kinds.append($0.attributes["kind"] ?? "") }
        await #expect(throws: SourceBroke(id: 3)) { try await dispatcher.parse(.bytes(bytes).chunked(1000)) }
        #expect(kinds == ["cat", "dog"], "the bytes gathered before the error are parsed first")

        kinds = []
        let chunks = ChunkSource(head, chunkSize: 8, failure: (after: 4, error: SourceBroke(id: 4)))
        await #expect(throws: SourceBroke(id: 4)) { try await dispatcher.parse(.chunks(chunks)) }
        #expect(kinds == ["cat"])
    }

    @Test("a URL that is not a file: URL is an XMLInputError, for every verb")
    func nonFileURL() async throws {
        let url = try #require(URL(string: "https://example.com/feed.xml"))
        let input = XMLInput.file(url)
        #expect(input.name == "https://example.com/feed.xml")
        let error = #expect(throws: XMLInputError.self) { try Dispatcher().parse(input) }
        #expect(error?.description == "https://example.com/feed.xml: error: not a file URL")
        #expect(throws: XMLInputError.self) { try XMLRecord("a", .text(".")) { $0 }.all(in: input) }
        #expect(throws: XMLInputError.self) { try XMLRecordDecoder().decode(String.self, from: input) }
        #expect(throws: XMLInputError.self) { try input.makeReader() }
        await #expect(throws: XMLInputError.self) { try await Dispatcher().parse(AsyncXMLInput(input)) }
        #expect(XMLInput.file(URL(fileURLWithPath: "/tmp/zoo.xml")).name == "/tmp/zoo.xml")
    }

    @Test("a file that cannot be opened: an XMLInputError naming it, synchronously and asynchronously")
    func missingFile() async throws {
        let path = "/nonexistent/zoo.xml"
        let error = try #require(throws: XMLInputError.self) { try Dispatcher().parse(.file(path)) }
        #expect(error.description == "\(path): error: cannot open file: No such file or directory")
        await #expect(throws: error) { try await Dispatcher().parse(.file(path)) }
        await #expect(throws: error) {
            for try await _ in XMLStream<Int>(from: .file(path), handlers: { _, _ in }) {}
        }
    }

    @Test("in an async context, .file(…) is the asynchronous input; XMLInput.file(…) the synchronous one")
    func fileInAsyncContext() async throws {
        let path = FileManagerTemp.write(Self.document, name: "both.xml")
        let log = Log()
        let dispatcher = Self.dispatcher(log)
        try await dispatcher.parse(.file(path))        // AsyncXMLInput.file: async code prefers the async verb
        try dispatcher.parse(XMLInput.file(path))      // read synchronously, on this task
        #expect(log.lines.count == 12)
    }

    @Test("names, chunk sizes and their defaults")
    func namesAndChunkSizes() {
        #expect(XMLInput.defaultChunkSize == 64 * 1024)
        #expect(XMLInput.string("<a/>").chunkSize == XMLInput.defaultChunkSize)
        #expect(XMLInput.standardInput.name == "<stdin>")
        #expect(XMLInput.standardInput.named("-").name == "-")
        #expect(XMLInput.fileDescriptor(7).name == "<file descriptor 7>")
        var input = XMLInput.file("a.xml")
        input.chunkSize = -3
        #expect(input.chunkSize == 1)
        input.name = "b.xml"
        #expect(input.name == "b.xml")
        var asynchronous = AsyncXMLInput(input)
        #expect(asynchronous.name == "b.xml" && asynchronous.chunkSize == 1)
        asynchronous.chunkSize = 0
        #expect(asynchronous.chunkSize == 1)
        #expect(AsyncXMLInput.chunks(ChunkSource("<a/>", chunkSize: 1)).named("x").name == "x")
    }

    @Test("an input is parsed from its start by every parse, and a push parser reads one after fed bytes")
    func reparsingAndPushing() throws {
        let path = FileManagerTemp.write(Self.document, name: "twice.xml")
        let input = XMLInput.file(path)
        let expected = try Self.events(.string(Self.document))
        #expect(try Self.events(input) == expected)
        #expect(try Self.events(input) == expected)

        let bytes = Array(Self.document.utf8)
        let log = Log()
        let parser = PushParser(Self.dispatcher(log))
        try parser.feed(bytes[..<20])
        let rest = XMLInput.reader(name: "rest") { PiecesReader(Array(bytes[20...]), pieceSize: 3) }
        #expect(try parser.parse(rest) == .completed)
        #expect(log.lines == expected)
        #expect(parser.source == "rest")
        #expect(parser.byteCount == bytes.count)
    }

    @Test("a handler that stops the parse stops the reading: a reader is asked for nothing more")
    func stopStopsReading() throws {
        let reads = Shared(0)
        struct Counting: XMLInputReader {
            var base: PiecesReader
            let reads: Shared<Int>
            mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
                reads.value += 1
                return try base.read(into: buffer)
            }
        }
        let bytes = Array(("<r>" + String(repeating: "<a/>", count: 1000) + "</r>").utf8)
        var input = XMLInput.reader(name: "counted") { Counting(base: PiecesReader(bytes, pieceSize: 64), reads: reads) }
        input.chunkSize = 64
        var dispatcher = Dispatcher()
        dispatcher.onStart("a") { $0.stopParsing() }
        #expect(try dispatcher.parse(input) == .stopped)
        #expect(reads.value <= 2)
    }

    @Test("a parser of your own reads an input with its encoding override and its concatenated mode")
    func pushParserHonoursInputOptions() throws {
        // "café" in ISO-8859-1, declared as UTF-8: only the override reads it.
        let bytes: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>caf".utf8) + [0xE9] + Array("</a><a>2</a>".utf8)
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("a") { _, text in texts.append(text) }
        let parser = PushParser(dispatcher)
        #expect(try parser.parse(.bytes(bytes).encoding("ISO-8859-1").concatenatedDocuments()) == .completed)
        #expect(texts == ["café", "2"])
        #expect(parser.documentCount == 2)
    }

    @Test("an input read through a wrapping reader keeps its name and every option")
    func readingThroughKeepsOptions() throws {
        struct Passing: XMLInputReader {
            var base: any XMLInputReader
            mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try base.read(into: buffer) }
        }
        var input = XMLInput.bytes(Array("<a>caf".utf8) + [0xE9] + Array("</a><a>2</a>".utf8))
            .encoding("ISO-8859-1").concatenatedDocuments().named("log.xml")
        input.chunkSize = 3
        let wrapped = input.readingThrough { Passing(base: $0) }
        #expect(wrapped.name == "log.xml")
        #expect(wrapped.chunkSize == 3)
        #expect(wrapped.encoding == "ISO-8859-1")
        #expect(wrapped.readsConcatenatedDocuments)
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("a") { _, text in texts.append(text) }
        #expect(try dispatcher.parse(wrapped) == .completed)
        #expect(texts == ["café", "2"])
    }
}

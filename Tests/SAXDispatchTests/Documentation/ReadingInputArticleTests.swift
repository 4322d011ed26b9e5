import Foundation
import SAXDispatch
import SAXDispatchFoundation
import SAXDispatchTestSupport
import Testing

/// The code of ReadingInput.md, verbatim; `path` is the zoo fixture.
@Suite("Article: Reading input")
struct ReadingInputArticleTests {
    /// The animals of the articles' zoo, read as a record.
    struct Animal: RecordModel, Equatable {
        let name: String
        static let record = XMLRecord("animal", .text("nested_nonsense/name")) { Animal(name: $0) }
    }

    let path = TestPaths.fixture("zoo.xml").path

    @Test("every synchronous source reaches the same handlers")
    func sources() throws {
        var animals = 0
        var dispatcher = Dispatcher()
        dispatcher.onStart("animal") { _ in animals += 1 }
        let data = Data("<zoo><animal>cat</animal></zoo>".utf8)
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data("<zoo><animal/></zoo>".utf8))
        try pipe.fileHandleForWriting.close()

        try dispatcher.parse(.file(path))                          // a file, read 64 KiB at a time
        try dispatcher.parse(.file(URL(fileURLWithPath: path)))    // a file: URL
        try dispatcher.parse(.string("<zoo><animal>cat</animal></zoo>"))
        try dispatcher.parse(.bytes(data))                         // [UInt8], Data, a slice
        try dispatcher.parse(.fileDescriptor(pipe.fileHandleForReading.fileDescriptor))

        #expect(animals == 2 + 2 + 1 + 1 + 1)
    }

    @Test("file handles: a pipe's FileHandle through SAXDispatchFoundation, named after its descriptor")
    func fileHandles() throws {
        var animals = 0
        var dispatcher = Dispatcher()
        dispatcher.onStart("animal") { _ in animals += 1 }

        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data("<zoo><animal>cat</animal></zoo>".utf8))
        try pipe.fileHandleForWriting.close()
        try dispatcher.parse(.fileHandle(pipe.fileHandleForReading))

        #expect(animals == 1)
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        #expect(XMLInput.fileHandle(pipe.fileHandleForReading).name == "<file handle \(descriptor)>")
    }

    @Test("errors name the input; the chunk size is the input's")
    func namesAndChunks() throws {
        let dispatcher = Dispatcher()

        var message = ""
        do {
            try dispatcher.parse(.string("<zoo><animal></zoo>").named("upload.xml"))
        } catch let error as XMLParseError {
            message = error.description
        }

        #expect(try DocumentationCatalog.textBlocks(of: "ReadingInput.md") == [message])

        var input = XMLInput.file(path)
        input.chunkSize = 1 << 20          // a mebibyte at a time
        let animals = try Animal.record.all(in: input)

        #expect(animals.count == 2)
        #expect(input.name == path)
        input.chunkSize = 0
        #expect(input.chunkSize == 1, "a chunk size below 1 becomes 1")
    }

    @Test("documents one after another, each with its number")
    func concatenatedDocuments() throws {
        var printed: [String] = []
        func print(_ line: String) { printed.append(line) }

        var dispatcher = Dispatcher()
        dispatcher.onEnd("entry") { element, text in
            print("document \(element.documentNumber): \(text)")
        }
        try dispatcher.parse(.string("""
            <?xml version="1.0"?><entry>first</entry>
            <?xml version="1.0"?><entry>second</entry>
            """).concatenatedDocuments())

        #expect(printed == ["document 1: first", "document 2: second"])
    }

    @Test("a reader of your own wraps another input; its error comes after the events before it")
    func customReader() throws {
        var seen: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("animal") { _ in seen.append("animal") }

        struct TooLarge: Error {}

        struct Capped: XMLInputReader {
            var base: any XMLInputReader
            var remaining: Int

            mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
                guard remaining > 0 else { throw TooLarge() }
                let count = try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(remaining)))
                remaining -= count
                return count
            }
        }

        let capped = XMLInput.reader(name: path) { Capped(base: try XMLInput.file(path).makeReader(), remaining: 100) }
        do {
            try dispatcher.parse(capped)
        } catch is TooLarge {
            // the events of the bytes read before the error were delivered first
        }

        // The first 100 bytes hold the first animal's start tag (byte 28), not the second's.
        #expect(seen == ["animal"])
        var small = capped
        small.chunkSize = 16
        seen = []
        #expect(throws: TooLarge.self) { try dispatcher.parse(small) }
        #expect(seen == ["animal"], "fed 16 bytes at a time: the same events before the error")
        seen = []
        let generous = XMLInput.reader(name: path) { Capped(base: try XMLInput.file(path).makeReader(), remaining: 1 << 20) }
        try dispatcher.parse(generous)
        #expect(seen == ["animal", "animal"])
    }

    @Test("asynchronous input: chunks, and any input read a chunk at a time")
    func asynchronous() async throws {
        var names: [String] = []
        func print(_ name: String) { names.append(name) }
        var animals = 0
        var dispatcher = Dispatcher()
        dispatcher.onEnd("animal") { _, _ in animals += 1 }

        let (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        continuation.yield(Array("<zoo><animal>cat</ani".utf8))
        continuation.yield(Array("mal><animal>dog</animal></zoo>".utf8))
        continuation.finish()

        try await dispatcher.parse(.chunks(chunks).named("download"))
        for try await animal in Animal.record.stream(from: AsyncXMLInput(.file(path))) {
            print(animal.name)
        }

        #expect(animals == 2)
        #expect(names.count == 2)
    }

    @Test("asynchronous input: a pipe's descriptor, read on a thread of its own")
    func asynchronousDescriptor() async throws {
        var animals = 0
        var dispatcher = Dispatcher()
        dispatcher.onEnd("animal") { _, _ in animals += 1 }

        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data("<zoo><animal>cat</animal></zoo>".utf8))
        try pipe.fileHandleForWriting.close()
        try await dispatcher.parse(.fileDescriptor(pipe.fileHandleForReading.fileDescriptor))

        #expect(animals == 1)
    }

    @Test("many inputs at once: results in input order, a failure its own result")
    func manyInputs() async throws {
        let bad = FileManagerTemp.write("<zoo><animal></zoo>", name: "article-batch-bad.xml")
        let paths = [path, bad, path]

        let batch = XMLInputBatch(paths.map { XMLInput.file($0) }, jobs: 2)
        var counts: [String] = []
        let summary = try await batch.parse { input in
            try Animal.record.all(in: input).count
        } results: { outcome in
            switch outcome.result {
            case .success(let animals): counts.append("\(outcome.name): \(animals)")
            case .failure(let error): counts.append("\(error)")
            }
        }
        // summary.succeeded, summary.failed

        #expect(counts == ["\(path): 2", "\(bad):1:16: error: mismatched tag (in zoo/animal)", "\(path): 2"])
        #expect(summary == XMLInputBatch.Summary(succeeded: 2, failed: 1))
    }
}

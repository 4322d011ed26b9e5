import Foundation
import SAXDispatch
import Testing

@Suite("Input entry points")
struct InputTests {
    static let document = "<zoo><animal><name>cat</name></animal><animal><name>dog</name></animal></zoo>"

    static func namesDispatcher(_ names: Box<[String]>) -> Dispatcher {
        var dispatcher = Dispatcher()
        dispatcher.onEnd("name") { _, text in names.value.append(text) }
        return dispatcher
    }

    final class Box<Value>: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    @Test("bytes, Data, slices and strings")
    func inMemory() throws {
        let names = Box<[String]>([])
        let dispatcher = Self.namesDispatcher(names)
        try dispatcher.parse(Array(Self.document.utf8))
        try dispatcher.parse(Data(Self.document.utf8))
        try dispatcher.parse(Array(("xx" + Self.document).utf8)[2...])
        try dispatcher.parse(Self.document)
        try dispatcher.parse(Self.document.utf8)
        #expect(names.value == Array(repeating: ["cat", "dog"], count: 5).flatMap { $0 })
    }

    @Test("files by path and URL, in any chunk size")
    func files() throws {
        let names = Box<[String]>([])
        let dispatcher = Self.namesDispatcher(names)
        let path = FileManagerTemp.write(Self.document, name: "names.xml")
        for chunk in [1, 2, 7, 64, 1 << 16] {
            try dispatcher.parse(contentsOfFile: path, chunkSize: chunk)
            try dispatcher.parse(contentsOf: URL(fileURLWithPath: path), chunkSize: chunk)
        }
        #expect(names.value.count == 20)
        #expect(throws: XMLInputError.self) { try dispatcher.parse(contentsOf: URL(string: "https://example.com/a.xml")!) }
    }

    @Test("a file descriptor: a pipe")
    func pipe() throws {
        let names = Box<[String]>([])
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(Self.document.utf8))
        try pipe.fileHandleForWriting.close()
        try Self.namesDispatcher(names).parse(
            fileDescriptor: pipe.fileHandleForReading.fileDescriptor, source: "pipe", chunkSize: 5)
        #expect(names.value == ["cat", "dog"])
    }

    struct Bytes: AsyncSequence {
        typealias Element = UInt8
        var bytes: [UInt8]
        struct AsyncIterator: AsyncIteratorProtocol {
            var iterator: IndexingIterator<[UInt8]>
            mutating func next() async -> UInt8? { iterator.next() }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(iterator: bytes.makeIterator()) }
    }

    @Test("async sequences of bytes and of chunks")
    func asyncSources() async throws {
        let names = Box<[String]>([])
        let dispatcher = Self.namesDispatcher(names)
        let bytes = Array(Self.document.utf8)
        try await dispatcher.parse(bytes: Bytes(bytes: bytes), chunkSize: 3)
        let chunks = AsyncStream<[UInt8]> { continuation in
            var offset = 0
            while offset < bytes.count {
                continuation.yield(Array(bytes[offset..<min(bytes.count, offset + 4)]))
                offset += 4
            }
            continuation.finish()
        }
        try await dispatcher.parse(chunks: chunks)
        #expect(names.value == ["cat", "dog", "cat", "dog"])
    }

    @Test("an async parse stops reading its source when a handler stops")
    func asyncStop() async throws {
        let pulled = Box(0)
        var dispatcher = Dispatcher()
        dispatcher.onStart("animal") { $0.stopParsing() }
        let chunks = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array("<zoo><animal>".utf8))
            for _ in 0..<100 { continuation.yield(Array("<x/>".utf8)) }
            continuation.finish()
        }.map { chunk -> [UInt8] in
            pulled.value += 1
            return chunk
        }
        #expect(try await dispatcher.parse(chunks: chunks) == .stopped)
        #expect(pulled.value == 1)
    }
}

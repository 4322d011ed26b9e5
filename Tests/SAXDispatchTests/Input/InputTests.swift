import Foundation
import SAXDispatch
import SAXDispatchTestSupport
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
        try dispatcher.parse(.bytes(Array(Self.document.utf8)))
        try dispatcher.parse(.bytes(Data(Self.document.utf8)))
        try dispatcher.parse(.bytes(Array(("xx" + Self.document).utf8)[2...]))
        try dispatcher.parse(.string(Self.document))
        try dispatcher.parse(.bytes(Self.document.utf8))
        #expect(names.value == Array(repeating: ["cat", "dog"], count: 5).flatMap { $0 })
    }

    @Test("files by path and URL, in any chunk size")
    func files() throws {
        let names = Box<[String]>([])
        let dispatcher = Self.namesDispatcher(names)
        let path = FileManagerTemp.write(Self.document, name: "names.xml")
        for chunk in [1, 2, 7, 64, 1 << 16] {
            try dispatcher.parse(.file(path).chunked(chunk))
            try dispatcher.parse(.file(URL(fileURLWithPath: path)).chunked(chunk))
        }
        #expect(names.value.count == 20)
        #expect(throws: XMLInputError.self) { try dispatcher.parse(.file(URL(string: "https://example.com/a.xml")!)) }
    }

    @Test("a file descriptor: a pipe")
    func pipe() throws {
        let names = Box<[String]>([])
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(Self.document.utf8))
        try pipe.fileHandleForWriting.close()
        try Self.namesDispatcher(names).parse(
            .fileDescriptor(pipe.fileHandleForReading.fileDescriptor).named("pipe").chunked(5))
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
        try await dispatcher.parse(.bytes(Bytes(bytes: bytes)).chunked(3))
        let chunks = AsyncStream<[UInt8]> { continuation in
            var offset = 0
            while offset < bytes.count {
                continuation.yield(Array(bytes[offset..<min(bytes.count, offset + 4)]))
                offset += 4
            }
            continuation.finish()
        }
        try await dispatcher.parse(.chunks(chunks))
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
        #expect(try await dispatcher.parse(.chunks(chunks)) == .stopped)
        #expect(pulled.value == 1)
    }

    /// Expat 2.5.0 counts a CR that ends its input after the root element as a line
    /// break, then the LF that starts the next input as another; the driver holds a
    /// trailing CR back so positions do not depend on where the input was split.
    @Test("a CR LF split between two feeds counts as one line break", arguments: [
        ("<doc></doc>\r\n&#32;\r\n", 2), ("<doc></doc>\r\n<!---->\r\n<x/>", 3),
    ])
    func splitLineBreak(document: String, line: Int) throws {
        let utf8 = Array(document.utf8)
        let utf16: [UInt8] = [0xFF, 0xFE] + document.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        for (bytes, unit) in [(utf8, 1), (utf16, 2)] {
            let path = FileManagerTemp.write(Data(bytes), name: "crlf-\(line)-\(unit).xml")
            for chunk in [1, 2, 3, 12, 13, 14, 1 << 16] {
                var fed: XMLParseError?
                let parser = PushParser(Dispatcher())
                do {
                    try parser.feed(bytes, inPiecesOf: chunk)
                    try parser.finish()
                } catch let error as XMLParseError {
                    fed = error
                }
                #expect(fed?.line == line, "fed \(chunk) bytes at a time, \(unit)-byte units")
                #expect(fed?.column == 1)
                let read = #expect(throws: XMLParseError.self) {
                    try Dispatcher().parse(.file(path).chunked(chunk))
                }
                #expect(read?.line == line, "read \(chunk) bytes at a time, \(unit)-byte units")
                #expect(read?.byteOffset == fed?.byteOffset)
            }
        }
    }

    /// Expat counts a byte order mark as three columns when the same call also reads a
    /// declaration of another 8-bit encoding, and as one otherwise.
    @Test("a byte order mark before a US-ASCII declaration counts as one column, however split")
    func byteOrderMarkColumn() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("<?xml version='1.0' encoding='us-ascii'?><x>e</x>".utf8)
        let path = FileManagerTemp.write(Data(bytes), name: "bom-latin1.xml")
        var seen: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("x") { seen.append("\($0.line):\($0.column)+\($0.byteOffset)") }
        for first in 0...6 {
            let parser = PushParser(dispatcher)
            try parser.feed(bytes[..<first])
            try parser.feed(bytes[first...])
            try parser.finish()
        }
        for chunk in [1, 2, 3, 4, 100] {
            try dispatcher.parse(.file(path).chunked(chunk))
        }
        #expect(seen == Array(repeating: "1:43+44", count: 12))
    }

    @Test("an unpaired UTF-16 surrogate is an error however the file is read")
    func unpairedSurrogateInFile() throws {
        // <r>, then a high surrogate followed by 'x', then </r>, in UTF-16LE with a byte order mark.
        let bytes: [UInt8] = [0xFF, 0xFE, 0x3C, 0, 0x72, 0, 0x3E, 0, 0x00, 0xD8, 0x78, 0, 0x3C, 0, 0x2F, 0, 0x72, 0, 0x3E, 0]
        let path = FileManagerTemp.write(Data(bytes), name: "lone-surrogate.xml")
        for chunk in [1, 2, 3, 5, 64] {
            let error = #expect(throws: XMLParseError.self) {
                try Dispatcher().parse(.file(path).chunked(chunk))
            }
            #expect(error?.code == .invalidToken, "read \(chunk) bytes at a time")
            #expect(error?.byteOffset == 8, "read \(chunk) bytes at a time")
        }
    }
}

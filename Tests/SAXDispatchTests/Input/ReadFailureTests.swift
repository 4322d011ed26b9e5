import Foundation
import Testing

@testable import SAXDispatch
import SAXDispatchTools

/// A read that fails after some bytes came in: those bytes are parsed (or handed on)
/// before the failure is reported, in every reading path.
///
/// The failing descriptor is the read end of a non-blocking pipe whose writer stays open:
/// a read returns what was written, and the next one fails with `EAGAIN`.
@Suite("Read failures: what was read before one is not lost")
struct ReadFailureTests {
    static let written = "<zoo><animal><name>cat</name></animal><animal><name>dog</name></animal>"

    /// A pipe holding `text`, read end non-blocking; close both ends when done.
    static func failingPipe(holding text: String = written) throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        try #require(fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK) == 0)
        let bytes = Array(text.utf8)
        try #require(write(ends[1], bytes, bytes.count) == bytes.count)
        return (ends[0], ends[1])
    }

    final class Names: @unchecked Sendable {
        var value: [String] = []
    }

    static func namesDispatcher(_ names: Names) -> Dispatcher {
        var dispatcher = Dispatcher()
        dispatcher.onEnd("name") { _, text in names.value.append(text) }
        return dispatcher
    }

    static func isReadFailure(_ error: any Error) -> Bool {
        guard let error = error as? XMLInputError else { return false }
        return error.path == "pipe" && error.message.hasPrefix("read failed: ")
    }

    @Test("a descriptor: the events before the failure, then the read error")
    func descriptor() throws {
        let ends = try Self.failingPipe()
        defer {
            close(ends.read)
            close(ends.write)
        }
        let names = Names()
        #expect {
            try Self.namesDispatcher(names).parse(.fileDescriptor(ends.read).named("pipe"))
        } throws: { Self.isReadFailure($0) }
        #expect(names.value == ["cat", "dog"])
    }

    @Test("text-chunk handlers: the text parsed before the failure is delivered, as before a parse error")
    func textBeforeFailure() throws {
        let ends = try Self.failingPipe(holding: "<r><a>one</a>two-and-more")
        defer {
            close(ends.read)
            close(ends.write)
        }
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyText { _, chunk in texts.append(chunk.string) }
        #expect {
            try dispatcher.parse(.fileDescriptor(ends.read).named("pipe"))
        } throws: { Self.isReadFailure($0) }
        #expect(texts == ["one", "two-and-more"])
    }

    @Test("records from a descriptor: the records that ended before the failure are delivered")
    func records() throws {
        let ends = try Self.failingPipe()
        defer {
            close(ends.read)
            close(ends.write)
        }
        let animal = XMLRecord("animal", .text("name")) { $0 }
        var dispatcher = Dispatcher()
        let names = Names()
        dispatcher.onRecord(animal) { names.value.append($0) }
        #expect {
            try dispatcher.parse(.fileDescriptor(ends.read).named("pipe").chunked(7))
        } throws: { Self.isReadFailure($0) }
        #expect(names.value == ["cat", "dog"])
    }

    @Test("an asynchronous pass over a descriptor: a shorter chunk with the bytes before the failure, then the error, then the end")
    func asyncChunks() throws {
        let ends = try Self.failingPipe()
        defer {
            close(ends.read)
            close(ends.write)
        }
        let reading = InputReading(.fileDescriptor(ends.read).named("pipe"), chunkSize: 1 << 16)
        var chunk: [UInt8] = []
        #expect(try reading.next { chunk = Array($0) })
        #expect(String(decoding: chunk, as: UTF8.self) == Self.written)
        #expect { try reading.next { _ in } } throws: { Self.isReadFailure($0) }
        #expect(try reading.next { _ in } == false)
    }

    @Test("an async parse of a descriptor: the events before the failure, then the read error")
    func asyncParse() async throws {
        let ends = try Self.failingPipe()
        defer {
            close(ends.read)
            close(ends.write)
        }
        let names = Names()
        await #expect {
            try await Self.namesDispatcher(names).parse(AsyncXMLInput(.fileDescriptor(ends.read).named("pipe")))
        } throws: { Self.isReadFailure($0) }
        #expect(names.value == ["cat", "dog"])
    }

    @Test("a stream over a descriptor: the values before the failure, then the read error")
    func streamParse() async throws {
        let ends = try Self.failingPipe()
        defer {
            close(ends.read)
            close(ends.write)
        }
        let animal = XMLRecord("animal", .text("name")) { $0 }
        var names: [String] = []
        await #expect {
            for try await name in animal.stream(from: AsyncXMLInput(.fileDescriptor(ends.read).named("pipe"))) {
                names.append(name)
            }
        } throws: { Self.isReadFailure($0) }
        #expect(names == ["cat", "dog"])
    }

    @Test("ProgressReader (the command-line tools' reader): every byte read is counted and parsed before the failure")
    func toolProgress() throws {
        let ends = try Self.failingPipe()
        defer {
            close(ends.read)
            close(ends.write)
        }
        let names = Names()
        let progress = ReadProgress(meter: nil)
        #expect {
            try Self.namesDispatcher(names).parse(progress.reading(.fileDescriptor(ends.read).named("pipe")))
        } throws: { Self.isReadFailure($0) }
        #expect(names.value == ["cat", "dog"])
        #expect(progress.bytes == Self.written.utf8.count)
    }
}

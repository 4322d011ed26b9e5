import Foundation
import Testing

@testable import SAXDispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Asynchronous sources that never block the cooperative pool: descriptors and files read
/// on a thread of their own, and producers whose writes wait for the parser.
@Suite("AsyncXMLInput: reading threads and producers with back-pressure")
struct AsyncSourceTests {
    final class Box<Value>: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    /// A document of `count` animals, about 40 bytes each.
    static func zoo(animals count: Int) -> [UInt8] {
        var text = "<zoo>"
        for index in 0..<count { text += "<animal kind=\"k\(index % 7)\">n\(index)</animal>\n" }
        text += "</zoo>"
        return Array(text.utf8)
    }

    @Test("a producer faster than the parser holds at most bufferedChunks chunks, and nothing is lost")
    func producerBackPressure() async throws {
        let document = Self.zoo(animals: 100_000)  // about 4 MB
        let chunk = 64 << 10
        let peak = Box((bytes: 0, chunks: 0))
        let written = Box(0)
        let input = AsyncXMLInput.producer(bufferedChunks: 2) { writer in
            var offset = 0
            while offset < document.count {
                let end = min(offset + chunk, document.count)
                try await writer.write(document[offset..<end])
                written.value += end - offset
                offset = end
            }
            let channelPeak = writer.channel.peak
            peak.value = (bytes: channelPeak.measured, chunks: channelPeak.values)
        }
        // A slow consumer: each value waits for a turn of the executor.
        let names = XMLStream<Int>(from: input) { dispatcher, output in
            dispatcher.onEnd("animal") { _, text in output.yield(text.utf8.count) }
        }
        var count = 0
        for try await _ in names {
            count += 1
            if count % 1000 == 0 { await Task.yield() }
        }
        #expect(count == 100_000)
        #expect(written.value == document.count)
        #expect(peak.value.chunks <= 2)
        #expect(peak.value.bytes <= 2 * chunk)
    }

    @Test("a producer's error comes after the events of what it wrote")
    func producerError() async throws {
        struct Broke: Error {}
        let log = Box([String]())
        var dispatcher = Dispatcher()
        dispatcher.onEnd("animal") { _, text in log.value.append(text) }
        let input = AsyncXMLInput.producer { writer in
            try await writer.write(Array("<zoo><animal>cat</animal><animal>d".utf8))
            throw Broke()
        }
        await #expect(throws: Broke.self) { try await dispatcher.parse(input) }
        #expect(log.value == ["cat"])
    }

    @Test("a parse that a handler stops cancels its producer, whose next write throws")
    func producerCancelledWhenParseStops() async throws {
        let ended = Box<(any Error)?>(nil)
        let done = AsyncStream.makeStream(of: Void.self)
        var dispatcher = Dispatcher()
        dispatcher.onStart("animal") { element in element.stopParsing() }
        let input = AsyncXMLInput.producer(bufferedChunks: 1) { writer in
            defer { done.continuation.finish() }
            do {
                try await writer.write(Array("<zoo><animal>cat</animal>".utf8))
                while true { try await writer.write(Array("<animal>more</animal>".utf8)) }
            } catch {
                ended.value = error
            }
        }
        #expect(try await dispatcher.parse(input) == .stopped)
        for await _ in done.stream {}
        #expect(ended.value is CancellationError)
    }

    @Test("a pipe's descriptor, read on a thread of its own, gives the same events as the bytes")
    func pipeDescriptor() async throws {
        let document = Self.zoo(animals: 5000)
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        defer { close(readEnd) }
        let writer = Thread {
            document.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let count = write(writeEnd, bytes.baseAddress! + offset, min(1000, bytes.count - offset))
                    if count <= 0 { break }
                    offset += count
                }
            }
            close(writeEnd)
        }
        writer.start()
        let fromPipe = try await XMLInputTests.events(.fileDescriptor(readEnd))
        let fromBytes = try XMLInputTests.events(.bytes(document))
        #expect(fromPipe == fromBytes)
        #expect(fromPipe.count == 10_002)
    }

    @Test("cancelling a parse that waits on a silent pipe ends it, without a thread of the pool blocked")
    func cancelWaitingPipe() async throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        defer {
            close(descriptors[0])
            close(descriptors[1])
        }
        _ = write(descriptors[1], "<zoo><animal>cat</animal>", 25)
        let log = Box([String]())
        let readEnd = descriptors[0]
        let parse = Task {
            var dispatcher = Dispatcher()
            dispatcher.onEnd("animal") { _, text in log.value.append(text) }
            return try await dispatcher.parse(.fileDescriptor(readEnd))
        }
        // Many more waiting parses than the pool has threads: were a read blocking a
        // thread of the pool, the ones after them could not run.
        let others = (0..<16).map { _ in
            Task {
                var dispatcher = Dispatcher()
                dispatcher.onEnd("animal") { _, _ in }
                return try await dispatcher.parse(.fileDescriptor(readEnd))
            }
        }
        let quick = try await XMLInputTests.events(.producer { try await $0.write(Array("<a/>".utf8)) })
        #expect(quick == ["start a 1:1 ", "end a \"\""])
        parse.cancel()
        for other in others { other.cancel() }
        await #expect(throws: CancellationError.self) { try await parse.value }
        for other in others { _ = try? await other.value }
    }

    @Test("a file and an XMLInput read asynchronously, parsed and streamed, give the same events")
    func fileOnThread() async throws {
        let document = Self.zoo(animals: 3000)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("async-source-\(UUID()).xml").path
        try Data(document).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var input = AsyncXMLInput.file(path)
        input.chunkSize = 1000
        let expected = try XMLInputTests.events(.bytes(document))
        #expect(try await XMLInputTests.events(input) == expected)
        #expect(try await XMLInputTests.streamedEvents(input) == expected)
        #expect(try await XMLInputTests.events(AsyncXMLInput(.file(path))) == expected)
    }
}

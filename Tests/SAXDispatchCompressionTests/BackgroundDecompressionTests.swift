import Foundation
import SAXDispatch
@testable import SAXDispatchCompression
import SAXDispatchTestSupport
import SAXDispatchTools
import Testing

/// Decompressing on a thread of its own gives the same events and errors as decompressing
/// inside each read, stays a bounded number of blocks ahead, and stops when the parse does.
@Suite("Decompression in the background")
struct BackgroundDecompressionTests {
    @Test("the same events and bytes in the background and inline, for each format", arguments: CompressionFormat.all)
    func sameEvents(format: CompressionFormat) throws {
        let expected = Compressed.transcript(.file(Compressed.zooPath)).events
        for stem in ["zoo.xml", "zoo-parts.xml"] {
            for inBackground in [true, false] {
                for chunkSize in [1, 5, XMLInput.defaultChunkSize] {
                    var input = XMLInput.decompressing(.file(Compressed.path(stem, format)), inBackground: inBackground)
                    input.chunkSize = chunkSize
                    let result = Compressed.transcript(input)
                    #expect(result.error == nil)
                    #expect(result.events == expected, "\(stem) \(inBackground) \(chunkSize)")
                }
            }
        }
        let zoo = try TestPaths.fixtureBytes("zoo.xml")
        var reader = DecompressingReader(
            try XMLInput.file(Compressed.path("zoo-parts.xml", format)).makeReader(), name: "zoo", inBackground: true)
        #expect(try Compressed.drain(&reader, bufferSize: 3) == zoo)
    }

    @Test("a document of many blocks reads the same in the background", arguments: CompressionFormat.all)
    func manyBlocks(format: CompressionFormat) throws {
        guard Compressed.tool(format) != nil else { return }
        var document: [UInt8] = []
        ZooSample(targetSize: 2_000_000).generate { document += $0 }
        let compressed = try Compressed.compress(document, format)
        for bufferSize in [65_536, 1_000_003] {
            var reader = DecompressingReader(try XMLInput.bytes(compressed).makeReader(), name: "sample", inBackground: true)
            #expect(try Compressed.drain(&reader, bufferSize: bufferSize) == document)
        }
        var elements = 0
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { _ in elements += 1 }
        try dispatcher.parse(.decompressing(.bytes(compressed)))
        let decompressedElements = elements
        elements = 0
        try dispatcher.parse(.bytes(document))
        #expect(decompressedElements == elements)
    }

    @Test("truncated and failing input in the background: the events before, then the same error", arguments: CompressionFormat.all)
    func errors(format: CompressionFormat) throws {
        let whole = try Compressed.bytes("zoo-parts.xml", format)
        let cut = whole.dropLast(12)
        let inline = Compressed.transcript(.decompressing(.bytes(cut).named("cut"), inBackground: false))
        let background = Compressed.transcript(.decompressing(.bytes(cut).named("cut"), inBackground: true))
        #expect(background.events == inline.events)
        #expect(background.events.contains("end kind \"cat\""))
        #expect((background.error as? DecompressionError) == (inline.error as? DecompressionError))
        #expect((background.error as? DecompressionError)?.code == .truncated)
        let failing = XMLInput.reader(name: "failing") {
            DecompressingReader(FailingReader(bytes: cut[...]), name: "failing", inBackground: true)
        }
        let failed = Compressed.transcript(failing)
        #expect(failed.error is FailingReader.Failure)
        #expect(failed.events == inline.events)
    }

    @Test("a parse that stops early stops the decompressing thread, a few blocks in")
    func stopsWithTheParse() throws {
        // A gibibyte of text; the handler stops the parse at the first element.
        // gzip's is the largest file (about a megabyte): many reads of compressed input.
        var bytes = try Compressed.bytes("text-start", .gzip)
        let piece = try Compressed.bytes("mebibyte-of-a", .gzip)
        for _ in 0..<1024 { bytes += piece }
        let bomb = bytes
        let counter = LockedCounter()
        let input = XMLInput.reader(name: "bomb") {
            DecompressingReader(CountedReader(try XMLInput.bytes(bomb).makeReader(), counter: counter), name: "bomb", inBackground: true)
        }
        var dispatcher = Dispatcher()
        dispatcher.onStart("r") { element in element.stopParsing() }
        try dispatcher.parse(input)
        Thread.sleep(forTimeInterval: 0.2)
        let settled = counter.value
        Thread.sleep(forTimeInterval: 0.2)
        #expect(counter.value == settled)
        #expect(settled < bytes.count / 4)
    }

    @Test("an asynchronous parse and a record stream read compressed input too", arguments: CompressionFormat.all)
    func asynchronous(format: CompressionFormat) async throws {
        let input = XMLInput.decompressing(.file(Compressed.path("zoo-parts.xml", format)))
        var names: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("nested_nonsense/name") { _, text in names.append(text) }
        try await dispatcher.parse(AsyncXMLInput(input))
        #expect(names == ["grumpy", "i have no idea what i'm doing"])
        let kind = XMLRecord("animal", .text("kind")) { $0 }
        var kinds: [String] = []
        for try await value in kind.stream(from: AsyncXMLInput(input)) { kinds.append(value) }
        #expect(kinds == ["cat", "dog"])
    }

    @Test("the queue holds at most its capacity: a decompressor that gets ahead waits")
    func queueIsBounded() throws {
        let queue = BlockQueue(capacity: 3, blockSize: 16)
        let counter = LockedCounter()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while queue.put(BlockQueue.Block(bytes: queue.emptyBlock(), count: 16)) { counter.add(1) }
            done.signal()
        }
        Thread.sleep(forTimeInterval: 0.2)
        #expect(counter.value == 3)
        _ = try queue.take()
        Thread.sleep(forTimeInterval: 0.1)
        #expect(counter.value == 4)
        queue.close()
        done.wait()
    }
}

/// A count shared by two threads.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }
    func add(_ amount: Int) { lock.withLock { count += amount } }
}

/// Counts the bytes another reader hands over, in a counter another thread may read.
struct CountedReader: XMLInputReader {
    var base: any XMLInputReader
    let counter: LockedCounter

    init(_ base: any XMLInputReader, counter: LockedCounter) {
        self.base = base
        self.counter = counter
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        counter.add(count)
        return count
    }
}

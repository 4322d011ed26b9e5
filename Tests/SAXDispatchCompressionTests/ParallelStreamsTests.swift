import Foundation
import SAXDispatch
@testable import SAXDispatchCompression
import SAXDispatchTestSupport
import SAXDispatchTools
import Testing

/// The streams of a multi-stream bzip2 file decompress on several threads at once, to the
/// same bytes, events and errors as one after another.
@Suite("bzip2 streams decompressed in parallel")
struct ParallelStreamsTests {
    /// A reader of `bytes` whose streams are decompressed on `threads` threads, fed `limit` bytes a read.
    static func reader(
        _ bytes: [UInt8], threads: Int = 3, limit: Int = .max, name: String = "streams", minimumPieceBytes: Int = 0
    ) throws -> DecompressingReader {
        let reader = DecompressingReader(
            TrickleReader(try XMLInput.bytes(bytes).makeReader(), limit: limit), name: name, inBackground: true)
        reader.decodingThreads = threads
        reader.minimumPieceBytes = minimumPieceBytes
        return reader
    }

    static func input(_ bytes: [UInt8], threads: Int = 3, limit: Int = .max, name: String = "streams") -> XMLInput {
        XMLInput.reader(name: name) { try reader(bytes, threads: threads, limit: limit, name: name) }
    }

    /// The zoo sample of `size` bytes, and its bzip2 compression in streams of about `piece` bytes each.
    static func multistream(size: Int, piece: Int) throws -> (document: [UInt8], compressed: [UInt8]) {
        var document: [UInt8] = []
        ZooSample(targetSize: size).generate { document += $0 }
        var compressed: [UInt8] = []
        var start = 0
        while start < document.count {
            let end = min(document.count, start + piece)
            compressed += try Compressed.compress(Array(document[start..<end]), .bzip2)
            start = end
        }
        return (document, compressed)
    }

    @Test("many streams: the same bytes on one to four threads, read whole or a few bytes at a time")
    func manyStreams() throws {
        guard Compressed.tool(.bzip2) != nil else { return }
        let (document, compressed) = try Self.multistream(size: 600_000, piece: 40_000)
        for threads in [1, 2, 4] {
            for limit in [Int.max, 4099] {
                var reader = try Self.reader(compressed, threads: threads, limit: limit)
                #expect(try Compressed.drain(&reader, bufferSize: 65_536) == document, "\(threads) threads, \(limit)")
            }
        }
        var reader = try Self.reader(compressed, limit: 7)
        #expect(try Compressed.drain(&reader, bufferSize: 1_001) == document)
    }

    @Test("the zoo in four streams, one empty: the zoo's events, in any chunking")
    func zooParts() throws {
        let expected = Compressed.transcript(.file(Compressed.zooPath)).events
        let bytes = try Compressed.bytes("zoo-parts.xml", .bzip2)
        for limit in [1, 3, Int.max] {
            var input = Self.input(bytes, limit: limit)
            input.chunkSize = 1
            let result = Compressed.transcript(input)
            #expect(result.error == nil)
            #expect(result.events == expected)
        }
    }

    @Test("truncated, corrupt and trailing input: the same error and offset as one thread gives, after the same events")
    func errors() throws {
        let whole = try Compressed.bytes("zoo-parts.xml", .bzip2)
        var damaged = whole
        damaged[whole.count - 30] ^= 0x40
        for bytes in [Array(whole.dropLast(12)), Array(whole.dropLast(200)), damaged, whole + Array("junk".utf8)] {
            let sequential = Compressed.transcript(.decompressing(.bytes(bytes).named("streams"), inBackground: false))
            let parallel = Compressed.transcript(Self.input(bytes))
            #expect(parallel.events == sequential.events)
            // A damaged block may decode to a document that fails to parse before its check fails.
            let sequentialError = try #require(sequential.error)
            #expect(parallel.error.map { "\($0)" } == "\(sequentialError)")
            if let error = sequentialError as? DecompressionError {
                #expect((parallel.error as? DecompressionError) == error)
            }
        }
    }

    @Test("a parse that stops early stops the splitting and decompressing threads")
    func stopsWithTheParse() throws {
        guard Compressed.tool(.bzip2) != nil else { return }
        let (_, compressed) = try Self.multistream(size: 3_000_000, piece: 20_000)
        let counter = LockedCounter()
        let input = XMLInput.reader(name: "streams") {
            let reader = DecompressingReader(
                CountedReader(try XMLInput.bytes(compressed).makeReader(), counter: counter), name: "streams",
                inBackground: true)
            reader.decodingThreads = 3
            return reader
        }
        var dispatcher = Dispatcher()
        var elements = 0
        dispatcher.onAnyStart { element in
            elements += 1
            if elements == 100 { element.stopParsing() }
        }
        try dispatcher.parse(input)
        Thread.sleep(forTimeInterval: 0.3)
        let settled = counter.value
        Thread.sleep(forTimeInterval: 0.3)
        #expect(counter.value == settled)
        #expect(settled < compressed.count / 2)
    }
}

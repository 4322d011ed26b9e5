import Foundation
import SAXDispatch
@testable import SAXDispatchCompression
import SAXDispatchTestSupport
@testable import SAXDispatchTools  // SplitMix64, the seeded generator the zoo sample uses
import Testing

/// A bzip2 stream of many blocks (as `bzip2` writes one file) is cut into its blocks, each
/// decompressed on a thread of its own, to the same bytes, events and errors as read in one.
@Suite("bzip2 blocks decompressed in parallel")
struct Bzip2BlockSplitTests {
    /// The zoo sample of `size` bytes.
    static func zoo(_ size: Int) -> [UInt8] {
        var document: [UInt8] = []
        ZooSample(targetSize: size).generate { document += $0 }
        return document
    }

    /// `bytes` compressed by `bzip2 -1`: blocks of 100,000 bytes before compression.
    static func smallBlocks(_ bytes: [UInt8]) throws -> [UInt8] {
        try Compressed.compress(bytes, .bzip2, options: ["-1"])
    }

    /// The pieces a splitter cuts `bytes` into, fed `chunk` bytes at a time.
    final class RecordingSink: CompressedPieceSink {
        var pieces: [(offset: Int, bytes: [UInt8], ended: Bool)] = []
        func begin(at offset: Int) -> Bool {
            pieces.append((offset, [], false))
            return true
        }
        func add(_ bytes: UnsafeRawBufferPointer) -> Bool {
            pieces[pieces.count - 1].bytes += bytes
            return true
        }
        func end() { pieces[pieces.count - 1].ended = true }
    }

    static func pieces(_ bytes: [UInt8], chunk: Int, minimumPieceBytes: Int = 0) -> [(offset: Int, bytes: [UInt8], ended: Bool)] {
        pieces(bytes, chunk: chunk, splitter: Bzip2BlockSplitter(minimumPieceBytes: minimumPieceBytes))
    }

    /// The pieces `splitter` cuts `bytes` into, fed `chunk` bytes at a time.
    static func pieces(_ bytes: [UInt8], chunk: Int, splitter: some CompressedPieceSplitter) -> [(offset: Int, bytes: [UInt8], ended: Bool)] {
        var splitter = splitter
        var sink = RecordingSink()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            _ = bytes[start..<end].withUnsafeBytes { splitter.append($0, to: &sink) }
            start = end
        }
        splitter.finish(to: &sink, endingOpenPiece: true)
        return sink.pieces
    }

    static func decompressed(_ bytes: [UInt8]) throws -> [UInt8] {
        var reader = DecompressingReader(try XMLInput.bytes(bytes).makeReader(), name: "piece")
        return try Compressed.drain(&reader, bufferSize: 65_536)
    }

    @Test("a stream of 12 blocks is cut into 12 pieces, the same in any chunking, that decode to the document in order")
    func piecesOfOneStream() throws {
        guard Compressed.tool(.bzip2) != nil else { return }
        let document = Self.zoo(1_150_000)
        let compressed = try Self.smallBlocks(document)
        let whole = Self.pieces(compressed, chunk: .max)
        #expect(whole.count == 12)
        #expect(whole.allSatisfy { $0.ended })
        var joined: [UInt8] = []
        for piece in whole {
            let part = try Self.decompressed(piece.bytes)
            // 100,000 bytes after bzip2's first run-length step, which shortens runs of 4 or more.
            #expect(part.count > 90_000 || piece.offset == whole.last?.offset)
            #expect(part.count < 110_000)
            joined += part
        }
        #expect(joined == document)
        // Offsets grow, and each lies within the input.
        #expect(whole.map(\.offset) == whole.map(\.offset).sorted())
        #expect(whole.allSatisfy { $0.offset >= 0 && $0.offset < compressed.count })
        for chunk in [1, 7, 4_096, 65_536] {
            let pieces = Self.pieces(compressed, chunk: chunk)
            #expect(pieces.map(\.bytes) == whole.map(\.bytes), "chunk \(chunk)")
            #expect(pieces.map(\.offset) == whole.map(\.offset), "chunk \(chunk)")
        }
        // Pieces of at least a fifth of the file: the small blocks go a few together.
        let minimum = compressed.count / 5
        let gathered = Self.pieces(compressed, chunk: 65_536, minimumPieceBytes: minimum)
        #expect(gathered.count >= 3 && gathered.count <= 5)
        #expect(gathered.dropLast().allSatisfy { $0.bytes.count >= minimum })
        #expect(try gathered.flatMap { try Self.decompressed($0.bytes) } == document)
    }

    @Test("a stream of one block, an empty stream and a stream of many: one block's stream goes as it is")
    func mixedStreams() throws {
        guard Compressed.tool(.bzip2) != nil else { return }
        let first = Self.zoo(30_000)
        let second = Self.zoo(420_000)
        let single = try Compressed.compress(first, .bzip2)
        let empty = try Compressed.compress([], .bzip2)
        let many = try Self.smallBlocks(second)
        let compressed = single + empty + many + single
        let pieces = Self.pieces(compressed, chunk: 1_000)
        // The first stream with the empty one after it, five blocks, the last stream.
        #expect(pieces.count == 7)
        #expect(pieces[0].bytes == single + empty)
        #expect(pieces[6].bytes == single)
        #expect(try pieces.flatMap { try Self.decompressed($0.bytes) } == first + second + first)
        for threads in [2, 4] {
            for limit in [Int.max, 4_099, 7] {
                var reader = try ParallelStreamsTests.reader(compressed, threads: threads, limit: limit)
                #expect(try Compressed.drain(&reader, bufferSize: 1_001) == first + second + first, "\(threads), \(limit)")
            }
        }
    }

    @Test("a document in one bzip2 stream reads to the same events on two and four threads as on one")
    func events() throws {
        guard Compressed.tool(.bzip2) != nil else { return }
        let document = Self.zoo(700_000)
        let compressed = try Self.smallBlocks(document)
        let expected = Compressed.transcript(.bytes(document))
        for threads in [2, 4] {
            var input = ParallelStreamsTests.input(compressed, threads: threads)
            input.chunkSize = 3_000
            let result = Compressed.transcript(input)
            #expect(result.error == nil)
            #expect(result.events == expected.events)
        }
    }

    @Test("the public input with threads: 3 reads a file of pieces of 128 KiB to the document")
    func publicThreads() throws {
        guard Compressed.tool(.bzip2) != nil else { return }
        let document = Self.zoo(8_000_000)
        let compressed = try Self.smallBlocks(document)
        #expect(Self.pieces(compressed, chunk: 65_536, minimumPieceBytes: 128 * 1024).count >= 2)
        var reader = try XMLInput.decompressing(.bytes(compressed), threads: 3).makeReader()
        #expect(try Compressed.drain(&reader, bufferSize: 65_536) == document)
    }

    @Test("truncated, damaged, a damaged stream CRC, trailing bytes: the same events and error as one thread gives")
    func errors() throws {
        guard Compressed.tool(.bzip2) != nil else { return }
        let whole = try Self.smallBlocks(Self.zoo(700_000))
        var damagedBlock = whole
        damagedBlock[whole.count * 2 / 5] ^= 0x10
        var damagedEnd = whole
        damagedEnd[whole.count - 3] ^= 0x01  // inside the stream's combined CRC
        let cases: [(String, [UInt8])] = [
            ("truncated in a block", Array(whole.prefix(whole.count * 3 / 5))),
            ("truncated in the end marker", Array(whole.dropLast(6))),
            ("a damaged block", damagedBlock),
            ("a damaged stream CRC", damagedEnd),
            ("trailing bytes", whole + Array("junk".utf8)),
        ]
        for (label, bytes) in cases {
            let sequential = Compressed.transcript(.decompressing(.bytes(bytes).named("streams"), inBackground: false))
            let parallel = Compressed.transcript(ParallelStreamsTests.input(bytes, threads: 3))
            #expect(parallel.events == sequential.events, "\(label)")
            let expected = try #require(sequential.error as? DecompressionError, "\(label)")
            let error = try #require(parallel.error as? DecompressionError, "\(label): \(String(describing: parallel.error))")
            #expect(error.code == expected.code, "\(label)")
            #expect(error.message == expected.message, "\(label)")
            let offset = try #require(error.compressedOffset, "\(label)")
            #expect(offset >= 0 && offset <= bytes.count, "\(label)")
        }
    }

    @Test("random bits spelling the block marker are not taken for a block header one time in two")
    func headerCheck() {
        var generator = SplitMix64(seed: 7)
        var accepted = 0
        for _ in 0..<10_000 {
            var bytes = (0..<64).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            // The marker at bit 0, random bits after it.
            for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: Bzip2Bits.blockMarker >> UInt64(40 - 8 * index)) }
            let isHeader = bytes.withUnsafeBytes { Bzip2Bits.isBlockHeader($0, at: 0, level: 9) }
            if isHeader == true { accepted += 1 }
            #expect(bytes.withUnsafeBytes { Bzip2Bits.firstMarker(in: $0, from: 0)?.bit } == 0)
        }
        #expect(accepted < 10_000 / 16)
    }

    /// What a reader delivers before it ends or fails, and the error.
    static func outcome(_ reader: inout some XMLInputReader) -> (bytes: [UInt8], error: DecompressionError.Code?) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 50_000)
        while true {
            do {
                let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
                if count == 0 { return (bytes, nil) }
                bytes += buffer[..<count]
            } catch {
                return (bytes, (error as? DecompressionError)?.code ?? .corrupt)
            }
        }
    }

    @Test("200 damaged copies (bits flipped, bytes cut out or put in): the same bytes and error on three threads as on one")
    func damagedCopies() throws {
        guard Compressed.tool(.bzip2) != nil else { return }
        let document = Self.zoo(500_000) + Self.zoo(200_000)
        let whole = try Self.smallBlocks(Self.zoo(500_000)) + Self.smallBlocks(Self.zoo(200_000))
        // Where each block's output ends in the document.
        var boundaries = [0]
        for piece in Self.pieces(whole, chunk: .max) {
            boundaries.append((boundaries.last ?? 0) + (try Self.decompressed(piece.bytes)).count)
        }
        #expect(boundaries.last == document.count)
        var random = SplitMix64(seed: 37)
        for trial in 0..<200 {
            var bytes = whole
            let at = Int(random.next() % UInt64(bytes.count))
            switch trial % 4 {
            case 0: bytes[at] ^= UInt8(1 << (random.next() % 8))
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 40)))
            case 2: bytes.insert(contentsOf: (0..<(1 + random.next() % 9)).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: at)
            default: bytes = Array(bytes.prefix(at))
            }
            var sequential = DecompressingReader(try XMLInput.bytes(bytes).makeReader(), name: "damaged")
            var parallel = try ParallelStreamsTests.reader(bytes, threads: 3)
            let expected = Self.outcome(&sequential)
            let result = Self.outcome(&parallel)
            guard expected.error != nil else {
                #expect(result.error == nil && result.bytes == expected.bytes, "trial \(trial) at \(at)")
                continue
            }
            // A damaged block decodes to bytes its check then rejects (more or fewer than
            // the block held); how many of them come out before the error depends on the
            // size of the reads, on one thread as on three. What both deliver agrees.
            let common = min(result.bytes.count, expected.bytes.count)
            #expect(result.bytes[..<common] == expected.bytes[..<common], "trial \(trial) at \(at)")
            // Every block before the damaged one comes out whole: the damage is at or after
            // the first byte where one thread's output leaves the document.
            let verified = boundaries.last { boundary in
                boundary <= expected.bytes.count
                    && expected.bytes.withUnsafeBytes { one in
                        document.withUnsafeBytes { other in
                            guard let one = one.baseAddress, let other = other.baseAddress else { return boundary == 0 }
                            return memcmp(one, other, boundary) == 0
                        }
                    }
            } ?? 0
            #expect(result.bytes.count >= verified, "trial \(trial) at \(at): \(result.bytes.count) of \(verified)")
            #expect(result.error == expected.error, "trial \(trial) at \(at)")
        }
    }
}

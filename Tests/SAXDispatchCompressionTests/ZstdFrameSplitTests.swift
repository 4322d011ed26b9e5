import Foundation
import SAXDispatch
@testable import SAXDispatchCompression
import SAXDispatchTestSupport
import Testing

/// A zstd file of many frames (as `pzstd` writes, or frames concatenated) is cut at its
/// frames, each piece decompressed on a thread of its own, to the same bytes, events and
/// errors as read in one.
@Suite("zstd frames decompressed in parallel")
struct ZstdFrameSplitTests {
    static func fixture(_ stem: String) throws -> [UInt8] {
        try Compressed.bytes(stem, .zstd)
    }

    /// A skippable frame holding `count` bytes.
    static func skippable(_ count: Int) -> [UInt8] {
        [0x53, 0x2A, 0x4D, 0x18, UInt8(count & 0xFF), UInt8(count >> 8 & 0xFF), 0, 0] + [UInt8](repeating: 0x41, count: count)
    }

    /// Frames of the fixtures, and skippable frames between them: 4 zoo parts (one empty),
    /// then a mebibyte of `a`, twice, and the zoo whole.
    static func manyFrames() throws -> [UInt8] {
        try fixture("zoo-parts.xml") + skippable(5) + fixture("mebibyte-of-a") + skippable(0) + fixture("mebibyte-of-a")
            + fixture("zoo.xml")
    }

    static func pieces(_ bytes: [UInt8], chunk: Int, minimumPieceBytes: Int = 0) -> [(offset: Int, bytes: [UInt8], ended: Bool)] {
        Bzip2BlockSplitTests.pieces(bytes, chunk: chunk, splitter: ZstdFrameSplitter(minimumPieceBytes: minimumPieceBytes))
    }

    /// An error's description without its compressed offset.
    static func withoutOffset(_ description: String) -> String {
        description.replacingOccurrences(of: #" \(compressed byte \d+\)"#, with: "", options: .regularExpression)
    }

    static func sequential(_ bytes: [UInt8]) throws -> [UInt8] {
        var reader = DecompressingReader(try XMLInput.bytes(bytes).makeReader(), name: "frames")
        return try Compressed.drain(&reader, bufferSize: 65_536)
    }

    @Test("frames are cut where they begin, the same in any chunking; the pieces decode to the whole in order")
    func piecesAtFrames() throws {
        let compressed = try Self.manyFrames()
        let whole = try Self.sequential(compressed)
        #expect(whole.count == 764 * 2 + 2 * 1_048_576)
        let expected = Self.pieces(compressed, chunk: compressed.count)
        // Four zoo parts, two skippable frames, two mebibytes, the zoo.
        #expect(expected.count == 9)
        for chunk in [1, 2, 3, 5, 7, 64, 4099] {
            let pieces = Self.pieces(compressed, chunk: chunk)
            #expect(pieces.map(\.offset) == expected.map(\.offset), "chunk \(chunk)")
            #expect(pieces.allSatisfy { $0.ended })
            #expect(pieces.flatMap(\.bytes) == compressed)
        }
        var decoded: [UInt8] = []
        for piece in expected { decoded += try Self.sequential(piece.bytes) }
        #expect(decoded == whole)
        // Pieces of at least 100 KB: frames are gathered until a piece is that large.
        let gathered = Self.pieces(compressed, chunk: 65_536, minimumPieceBytes: 100_000)
        #expect(gathered.count < expected.count && gathered.count >= 1)
        #expect(gathered.flatMap(\.bytes) == compressed)
    }

    @Test("decompressed on one to four threads, read whole or a few bytes at a time: the same bytes")
    func parallelBytes() throws {
        let compressed = try Self.manyFrames()
        let whole = try Self.sequential(compressed)
        for threads in [1, 2, 4] {
            for limit in [Int.max, 4099, 7] {
                var reader = try ParallelStreamsTests.reader(compressed, threads: threads, limit: limit)
                #expect(try Compressed.drain(&reader, bufferSize: 65_536) == whole, "\(threads) threads, \(limit)")
            }
        }
    }

    @Test("a document of many frames parses to the same events on several threads")
    func parallelEvents() throws {
        let compressed = try Self.fixture("zoo-parts.xml")
        let sequential = Compressed.transcript(.decompressing(.bytes(compressed).named("streams"), inBackground: false))
        let parallel = Compressed.transcript(ParallelStreamsTests.input(compressed, threads: 3))
        #expect(parallel.events == sequential.events)
        #expect(sequential.error == nil && parallel.error == nil)
    }

    @Test("cut, damaged or followed by what is no frame: the same bytes before, and the same error, as read in one")
    func damaged() throws {
        let frames = try Self.manyFrames()
        let zoo = try Self.fixture("zoo.xml")
        var reserved = zoo
        // The first block header's type bits set to the reserved type 3.
        let descriptor = zoo[4]
        let singleSegment = descriptor & 0x20 != 0
        let blockHeader = 4 + 1 + (singleSegment ? 0 : 1) + [0, 1, 2, 4][Int(descriptor & 3)] + [singleSegment ? 1 : 0, 2, 4, 8][Int(descriptor >> 6)]
        reserved[blockHeader] |= 0x06
        let cases: [(String, [UInt8])] = [
            ("trailing garbage", frames + Array("not a frame".utf8)),
            ("cut in a block", Array(frames[..<(frames.count - 300)])),
            ("cut in a frame header", frames + Array(zoo[..<6])),
            ("cut in a magic number", frames + [0x28, 0xB5]),
            ("a reserved block type", Array(frames.prefix(2000)) + reserved),
            ("a skippable frame cut short", frames + Array(Self.skippable(10).prefix(9))),
        ]
        for (name, bytes) in cases {
            var sequentialReader = DecompressingReader(try XMLInput.bytes(bytes).makeReader(), name: "frames", inBackground: false)
            var parallelReader = try ParallelStreamsTests.reader(bytes, threads: 3, name: "frames")
            let sequential = Result { try Compressed.drain(&sequentialReader, bufferSize: 65_536) }
            let parallel = Result { try Compressed.drain(&parallelReader, bufferSize: 65_536) }
            switch (sequential, parallel) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(name)")
            case (.failure(let a), .failure(let b)):
                // Where zstd's streaming decoder says it stopped in corrupt data depends on
                // how its input was fed: the kind of error must be the same.
                #expect(Self.withoutOffset("\(a)") == Self.withoutOffset("\(b)"), "\(name): \(a) against \(b)")
                #expect((a as? DecompressionError)?.code == (b as? DecompressionError)?.code, "\(name)")
            default:
                Issue.record("\(name): \(sequential) against \(parallel)")
            }
        }
    }
}

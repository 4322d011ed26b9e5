import Foundation
import SAXDispatch
import SAXDispatchCompression
import SAXDispatchTestSupport
import SAXDispatchTools
import Testing

/// A compressed document gives the same events as the document itself, however it is
/// cut: whole, a byte at a time, in members, streams and frames.
@Suite("Decompressed input: the same events as the document")
struct DecompressedEventsTests {
    static let formats = CompressionFormat.all

    @Test("each format, whole, gives the zoo's events", arguments: formats)
    func whole(format: CompressionFormat) throws {
        let expected = Compressed.transcript(.file(Compressed.zooPath))
        #expect(expected.error == nil)
        let decompressed = Compressed.transcript(.decompressing(.file(Compressed.path("zoo.xml", format))))
        #expect(decompressed.error == nil)
        #expect(decompressed.events == expected.events)
    }

    @Test("each format, fed to expat a byte at a time, gives the zoo's events", arguments: formats)
    func byteByByte(format: CompressionFormat) throws {
        let expected = Compressed.transcript(.file(Compressed.zooPath))
        for stem in ["zoo.xml", "zoo-parts.xml"] {
            var input = XMLInput.decompressing(.file(Compressed.path(stem, format)))
            input.chunkSize = 1
            let decompressed = Compressed.transcript(input)
            #expect(decompressed.error == nil)
            #expect(decompressed.events == expected.events, "\(stem)")
        }
    }

    @Test(
        "each format, read a compressed byte at a time into one-byte buffers, gives the zoo's bytes",
        arguments: formats)
    func readerByteByByte(format: CompressionFormat) throws {
        let zoo = try TestPaths.fixtureBytes("zoo.xml")
        for stem in ["zoo.xml", "zoo-parts.xml"] {
            for (inputLimit, outputSize) in [(1, 1), (1, 4096), (65536, 1), (3, 7)] {
                let path = Compressed.path(stem, format)
                var reader = DecompressingReader(TrickleReader(try XMLInput.file(path).makeReader(), limit: inputLimit), name: path)
                #expect(try Compressed.drain(&reader, bufferSize: outputSize) == zoo, "\(stem) \(inputLimit) \(outputSize)")
            }
        }
    }

    @Test("every member, stream and frame of a concatenation is read, an empty one too", arguments: formats)
    func concatenation(format: CompressionFormat) throws {
        let expected = Compressed.transcript(.file(Compressed.zooPath))
        let decompressed = Compressed.transcript(.decompressing(.file(Compressed.path("zoo-parts.xml", format))))
        #expect(decompressed.error == nil)
        #expect(decompressed.events == expected.events)
    }

    @Test("a larger document compressed by the system's tool reads the same, in several chunk sizes", arguments: formats)
    func largerDocument(format: CompressionFormat) throws {
        guard Compressed.tool(format) != nil else { return }  // zstd's command may be missing; its fixtures still run
        var document: [UInt8] = []
        ZooSample(targetSize: 400_000).generate { document += $0 }
        let compressed = try Compressed.compress(document, format)
        let expected = Compressed.transcript(.bytes(document))
        #expect(expected.error == nil)
        for chunkSize in [XMLInput.defaultChunkSize, 4099, 97] {
            var input = XMLInput.decompressing(.bytes(compressed))
            input.chunkSize = chunkSize
            let decompressed = Compressed.transcript(input)
            #expect(decompressed.error == nil)
            #expect(decompressed.events == expected.events, "chunk size \(chunkSize)")
        }
        var reader = DecompressingReader(try XMLInput.bytes(compressed).makeReader(), name: "sample")
        #expect(try Compressed.drain(&reader, bufferSize: 10_007) == document)
    }

    @Test("input that is not compressed passes through unchanged: a file, a string, bytes, empty and tiny input")
    func passThrough() throws {
        let expected = Compressed.transcript(.file(Compressed.zooPath))
        #expect(Compressed.transcript(.decompressing(.file(Compressed.zooPath))).events == expected.events)
        let zoo = try TestPaths.fixtureBytes("zoo.xml")
        #expect(Compressed.transcript(.decompressing(.bytes(zoo))).events == expected.events)
        #expect(Compressed.transcript(.decompressing(.string(String(decoding: zoo, as: UTF8.self)))).events == expected.events)
        for bytes in [[], [0x3C], Array("<r/>".utf8), Array("BZa".utf8), [0x1F, 0x8C]] as [[UInt8]] {
            for size in [1, 2, 100] {
                var reader = DecompressingReader(TrickleReader(try XMLInput.bytes(bytes).makeReader()), name: "tiny")
                #expect(try Compressed.drain(&reader, bufferSize: size) == bytes)
            }
        }
        // All of the input is the beginning of a format's magic bytes: truncated input.
        for bytes in [[0x1F], Array("BZ".utf8)] as [[UInt8]] {
            var reader = DecompressingReader(TrickleReader(try XMLInput.bytes(bytes).makeReader()), name: "tiny")
            #expect(throws: DecompressionError.self) { try Compressed.drain(&reader, bufferSize: 100) }
        }
    }

    @Test("the decompressed input keeps the name, chunk size and encoding of the input it wraps")
    func keepsOptions() throws {
        var input = XMLInput.file(Compressed.path("zoo.xml", .gzip)).named("upload").encoding("ISO-8859-1")
        input.chunkSize = 4096
        let decompressed = XMLInput.decompressing(input)
        #expect(decompressed.name == "upload")
        #expect(decompressed.chunkSize == 4096)
        #expect(decompressed.encoding == "ISO-8859-1")
        #expect(XMLInput.decompressing(.string("<r/>")).encoding == "UTF-8")
    }

    @Test("an encoding override applies to the decompressed bytes")
    func encodingOverride() throws {
        let latin1: [UInt8] = Array("<r>caf".utf8) + [0xE9] + Array("</r>".utf8)
        guard Compressed.tool(.gzip) != nil else { return }
        let compressed = try Compressed.compress(latin1, .gzip)
        let result = Compressed.transcript(.decompressing(.bytes(compressed).encoding("ISO-8859-1")))
        #expect(result.error == nil)
        #expect(result.events.last == "end r \"café\"")
    }

    @Test("formats are told by their magic bytes")
    func detection() {
        #expect(CompressionFormat(detecting: [0x1F, 0x8B, 0x08]) == .gzip)
        #expect(CompressionFormat(detecting: Array("BZh91AY&SY".utf8)) == .bzip2)
        #expect(CompressionFormat(detecting: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) == .xz)
        #expect(CompressionFormat(detecting: [0xFD, 0x37, 0x7A, 0x58, 0x5A]) == nil)
        #expect(CompressionFormat(detecting: [0x28, 0xB5, 0x2F, 0xFD]) == .zstd)
        #expect(CompressionFormat(detecting: [0x50, 0x2A, 0x4D, 0x18]) == .zstd)
        #expect(CompressionFormat(detecting: Array("<zoo/>".utf8)) == nil)
        #expect(CompressionFormat(detecting: [0xEF, 0xBB, 0xBF, 0x3C]) == nil)
        #expect(CompressionFormat(detecting: []) == nil)
    }
}

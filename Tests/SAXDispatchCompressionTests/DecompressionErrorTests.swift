import Foundation
import SAXDispatch
import SAXDispatchCompression
import SAXDispatchTestSupport
import SAXDispatchTools
import Testing

/// Truncated, corrupt and trailing input ends in a `DecompressionError` that says so, with
/// the compressed offset, after the events of everything decoded before it.
@Suite("Decompression errors")
struct DecompressionErrorTests {
    static let formats = CompressionFormat.all

    static func decompressionError(_ error: (any Error)?) -> DecompressionError? {
        error as? DecompressionError
    }

    @Test("a file cut short: truncated, at its length, with the events before delivered", arguments: formats)
    func truncated(format: CompressionFormat) throws {
        let full = Compressed.transcript(.file(Compressed.zooPath)).events
        let whole = try Compressed.bytes("zoo-parts.xml", format)
        for cut in [whole.count - 1, whole.count - 40, whole.count / 2, 8] {
            for chunkSize in [XMLInput.defaultChunkSize, 1] {
                var input = XMLInput.decompressing(.bytes(whole[..<cut]).named("cut.\(format)"))
                input.chunkSize = chunkSize
                let result = Compressed.transcript(input)
                let error = try #require(Self.decompressionError(result.error), "cut at \(cut): \(String(describing: result.error))")
                #expect(error.code == .truncated)
                #expect(error.format == format)
                #expect(error.name == "cut.\(format)")
                #expect(error.compressedOffset == cut)
                // What was decoded was parsed: the events so far are the start of the whole document's.
                #expect(Array(full.prefix(result.events.count)) == result.events)
            }
        }
    }

    @Test("a file cut off inside its magic bytes is truncated input of its format, not a document", arguments: formats)
    func cutInsideMagic(format: CompressionFormat) throws {
        let whole = try Compressed.bytes("zoo-parts.xml", format)
        let magic = format == .gzip ? 2 : format == .bzip2 ? 3 : format == .zstd ? 4 : 6
        for cut in 1..<magic {
            for inBackground in [true, false] {
                let result = Compressed.transcript(.decompressing(.bytes(whole[..<cut]).named("cut"), inBackground: inBackground))
                let error = try #require(Self.decompressionError(result.error), "\(format) cut at \(cut)")
                #expect(error.code == .truncated)
                #expect(error.format == format)
                #expect(error.compressedOffset == cut)
                #expect(result.events.isEmpty)
            }
        }
        // A document of as few bytes is still a document (and its own parse error).
        let short = Compressed.transcript(.decompressing(.bytes(Array("<a".utf8))))
        #expect(short.error is XMLParseError)
    }

    @Test("the last member, stream or frame cut short: the events of the ones before are delivered", arguments: formats)
    func eventsBeforeTruncation(format: CompressionFormat) throws {
        let whole = try Compressed.bytes("zoo-parts.xml", format)
        // The last part holds the zoo's end (from byte 300); the parts before it hold both animals' starts.
        let result = Compressed.transcript(.decompressing(.bytes(whole.dropLast(12))))
        #expect(Self.decompressionError(result.error)?.code == .truncated)
        #expect(result.events.contains("end kind \"cat\""))
    }

    @Test("the description names the input, says what is wrong and where")
    func description() throws {
        let whole = try Compressed.bytes("zoo.xml", .gzip)
        let result = Compressed.transcript(.decompressing(.bytes(whole.prefix(100)).named("dump.xml.gz")))
        let error = try #require(Self.decompressionError(result.error))
        #expect(error.description == "dump.xml.gz: error: truncated gzip input: it ends inside a member (compressed byte 100)")
        #expect(error.localizedDescription == error.description)
        #expect(error.failureReason == "The compressed input ends before its last stream does.")
        #expect(error.recoverySuggestion == "Download or copy the file again: it was cut short or changed on the way.")
    }

    @Test("a changed byte inside the compressed data: corrupt, at an offset inside the file", arguments: formats)
    func corrupt(format: CompressionFormat) throws {
        let whole = try Compressed.bytes("zoo.xml", format)
        var caught = 0
        for position in stride(from: 12, to: whole.count, by: 13) {
            var damaged = whole
            damaged[position] ^= 0x55
            for chunkSize in [XMLInput.defaultChunkSize, 1] {
                var input = XMLInput.decompressing(.bytes(damaged))
                input.chunkSize = chunkSize
                let result = Compressed.transcript(input)
                guard let error = Self.decompressionError(result.error) else {
                    // A changed byte may still decode (a Huffman table with slack) to a
                    // document that fails to parse, or pass a check: it must not crash.
                    continue
                }
                caught += 1
                #expect([.corrupt, .truncated, .memoryLimit, .trailingData].contains(error.code), "\(error)")
                let offset = try #require(error.compressedOffset)
                #expect(offset >= 0 && offset <= whole.count)
            }
        }
        #expect(caught > 0)
    }

    @Test("a failed checksum is corrupt, not a document that ends quietly", arguments: [CompressionFormat.gzip, .bzip2, .xz])
    func checksum(format: CompressionFormat) throws {
        var damaged = try Compressed.bytes("zoo.xml", format)
        // gzip: the CRC-32 in the trailer; bzip2: the combined stream CRC before the final
        // padding; xz: the block's CRC-64 before the index.
        let position = ["gzip": damaged.count - 8, "bzip2": damaged.count - 3, "xz": damaged.count - 40][format.name] ?? 0
        damaged[position] ^= 0x01
        let result = Compressed.transcript(.decompressing(.bytes(damaged)))
        let error = try #require(Self.decompressionError(result.error), "\(String(describing: result.error))")
        #expect(error.code == .corrupt)
    }

    @Test("bytes after the last gzip member, bzip2 stream or zstd frame that start no other", arguments: [
        CompressionFormat.gzip, .bzip2, .zstd,
    ])
    func trailingData(format: CompressionFormat) throws {
        let whole = try Compressed.bytes("zoo.xml", format)
        let result = Compressed.transcript(.decompressing(.bytes(whole + Array("junk\n".utf8))))
        let error = try #require(Self.decompressionError(result.error))
        #expect([.trailingData, .corrupt].contains(error.code))
        #expect(error.compressedOffset == whole.count)
        // The document before it was parsed whole.
        #expect(result.events == Compressed.transcript(.file(Compressed.zooPath)).events)
    }

    @Test("xz: bytes after the last stream that are not stream padding are corrupt")
    func xzTrailingData() throws {
        let whole = try Compressed.bytes("zoo.xml", .xz)
        let padded = Compressed.transcript(.decompressing(.bytes(whole + [0, 0, 0, 0])))
        #expect(padded.error == nil)
        let result = Compressed.transcript(.decompressing(.bytes(whole + Array("junk after the stream\n".utf8))))
        #expect(Self.decompressionError(result.error)?.code == .corrupt)
        #expect(result.events == Compressed.transcript(.file(Compressed.zooPath)).events)
    }

    @Test("an error of the compressed input's own reader is rethrown as it is, after the events before it", arguments: formats)
    func baseError(format: CompressionFormat) throws {
        let whole = try Compressed.bytes("zoo-parts.xml", format)
        let input = XMLInput.reader(name: "failing") {
            DecompressingReader(FailingReader(bytes: whole.dropLast(12)[...]), name: "failing")
        }
        let result = Compressed.transcript(input)
        #expect(result.error is FailingReader.Failure)
        #expect(result.events.contains("end kind \"cat\""))
    }

    @Test("a missing file is the file's own input error")
    func missingFile() {
        let result = Compressed.transcript(.decompressing(.file("/nonexistent/dump.xml.gz")))
        #expect(result.error is XMLInputError)
    }
}

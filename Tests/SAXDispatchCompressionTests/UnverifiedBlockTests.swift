import Foundation
import SAXDispatch
import SAXDispatchCompression
import SAXDispatchTestSupport
import Testing

/// liblzma checks an xz block only at its end, so the garbage a damaged block decodes to
/// can reach the parser before the check fails. A parse that fails on such bytes reports
/// the decompressor's error, not the XML error the garbage caused.
@Suite("Decompression errors: unverified xz blocks")
struct UnverifiedBlockTests {
    /// A document of many small elements, compressed into blocks of 20,000 bytes.
    static func multiBlockFile() throws -> (document: [UInt8], compressed: [UInt8]) {
        var text = "<log>\n"
        for index in 0..<4000 {
            text += "<entry n=\"\(index)\" kind=\"\(["a", "bb", "ccc"][index % 3])\">line \(index * 7919 % 10007)</entry>\n"
        }
        text += "</log>\n"
        let document = Array(text.utf8)
        let compressed = try Compressed.compress(document, .xz, options: ["--block-size=20000", "-T1"])
        return (document, compressed)
    }

    @Test("a byte changed in a block's compressed data: the xz error, never an XML one", arguments: [true, false])
    func damagedBlock(inBackground: Bool) throws {
        let (_, whole) = try Self.multiBlockFile()
        var xmlErrors: [Int] = []
        var corrupt = 0
        // Positions in the middle of the file: inside the compressed data of some block
        // (or its header), far from the stream's header, index and footer.
        for position in stride(from: whole.count / 2 - 400, to: whole.count / 2 + 400, by: 5) {
            var damaged = whole
            damaged[position] ^= 0x5A
            let result = Compressed.transcript(.decompressing(.bytes(damaged).named("log.xml.xz"), inBackground: inBackground))
            if result.error is XMLParseError { xmlErrors.append(position) }
            if let error = result.error as? DecompressionError {
                #expect(error.code == .corrupt, "\(position): \(error)")
                #expect(error.format == .xz)
                let offset = try #require(error.compressedOffset)
                #expect(offset > position - 30_000 && offset <= whole.count, "\(position): \(offset)")
                corrupt += 1
            }
        }
        #expect(xmlErrors == [], "damaged bytes reported as XML errors")
        #expect(corrupt > 100)
    }

    @Test("an intact multi-block file still reads whole", arguments: [true, false])
    func intact(inBackground: Bool) throws {
        let (document, whole) = try Self.multiBlockFile()
        let result = Compressed.transcript(.decompressing(.bytes(whole), inBackground: inBackground))
        #expect(result.error == nil)
        #expect(result.events == Compressed.transcript(.bytes(document)).events)
    }

    /// A document that is itself malformed keeps its XML error: the rest of the block
    /// decodes without fault.
    @Test("a malformed document in an intact xz file keeps its XML error", arguments: [true, false])
    func malformedDocument(inBackground: Bool) throws {
        let (document, _) = try Self.multiBlockFile()
        var broken = document
        broken.insert(contentsOf: Array("<oops>".utf8), at: document.count / 2)
        let compressed = try Compressed.compress(broken, .xz, options: ["--block-size=20000", "-T1"])
        let result = Compressed.transcript(.decompressing(.bytes(compressed), inBackground: inBackground))
        let error = try #require(result.error as? XMLParseError)
        #expect(error.code == .tagMismatch)
    }

    /// An input cut off after the malformed part keeps the XML error: the bytes the parse
    /// failed on decoded whole, and that the input then ends early is another matter.
    /// (bzip2 is left out: it decodes nothing of a block before the block's end, so a cut
    /// inside the only block is the first error.)
    @Test("a malformed document in a truncated xz or gzip file keeps its XML error", arguments: [true, false])
    func malformedThenTruncated(inBackground: Bool) throws {
        let (document, _) = try Self.multiBlockFile()
        var broken = document
        // At the start of a line: an end tag that matches nothing, an error right there.
        let lineStart = try #require(broken[2_000...].firstIndex(of: 0x0A)) + 1
        broken.insert(contentsOf: Array("</oops>".utf8), at: lineStart)
        for format in [CompressionFormat.xz, .gzip] {
            let compressed = try Compressed.compress(broken, format, options: format == .xz ? ["-T1"] : [])
            let cut = Array(compressed.prefix(compressed.count * 3 / 4))
            let result = Compressed.transcript(.decompressing(.bytes(cut), inBackground: inBackground))
            let error = try #require(result.error as? XMLParseError, "\(format): \(String(describing: result.error))")
            #expect(error.code == .tagMismatch, "\(format)")
        }
    }
}

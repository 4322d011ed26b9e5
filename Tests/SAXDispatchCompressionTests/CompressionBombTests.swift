import Foundation
import SAXDispatch
import SAXDispatchCompression
import SAXDispatchTestSupport
import Testing

/// A small file that expands to a gibibyte is held by the limits any document is: the
/// parse fails with the text or token limit error after decompressing little more than
/// the limit, never by holding what it expands to.
@Suite("Compression bombs")
struct CompressionBombTests {
    /// A start, then 1,024 copies of a mebibyte's member, stream or frame: a gibibyte
    /// decompressed, from a file of a few kilobytes (gzip: about a megabyte).
    static func bomb(_ start: String, _ body: String, _ format: CompressionFormat) throws -> [UInt8] {
        let piece = try Compressed.bytes(body, format)
        var bytes = try Compressed.bytes(start, format)
        bytes.reserveCapacity(bytes.count + 1024 * piece.count)
        for _ in 0..<1024 { bytes += piece }
        return bytes
    }

    @Test("a gibibyte text node: the text limit, after reading a small part of the file", arguments: CompressionFormat.all)
    func textBomb(format: CompressionFormat) throws {
        let bytes = try Self.bomb("text-start", "mebibyte-of-a", format)
        let reader = try TrickleReader(XMLInput.bytes(bytes).makeReader(), limit: .max)
        let input = XMLInput.reader(name: "bomb") { DecompressingReader(reader, name: "bomb") }
        var dispatcher = Dispatcher()
        dispatcher.onEnd("r") { _, _ in }
        #expect {
            try dispatcher.parse(input)
        } throws: { error in
            (error as? XMLParseError)?.code == .textLimitExceeded
        }
        // The default limit is 10 MiB of a 1 GiB text: about a hundredth of the file was
        // decompressed (whole chunks of compressed input are read ahead).
        #expect(reader.count < bytes.count / 8 + 2 * 65536)
    }

    @Test("a gibibyte of spaces inside a start tag: the token limit", arguments: CompressionFormat.all)
    func tokenBomb(format: CompressionFormat) throws {
        let bytes = try Self.bomb("tag-start", "mebibyte-of-spaces", format)
        var dispatcher = Dispatcher()
        dispatcher.onStart("r") { _ in }
        #expect {
            try dispatcher.parse(.decompressing(.bytes(bytes)))
        } throws: { error in
            (error as? XMLParseError)?.code == .tokenLimitExceeded
        }
    }

    @Test("a gibibyte text nobody asks for streams past in constant memory, with the check's limit on all text")
    func textNobodyWants() throws {
        let bytes = try Self.bomb("text-start", "mebibyte-of-a", .zstd)
        var dispatcher = Dispatcher()
        dispatcher.limitsAllText = true
        #expect {
            try dispatcher.parse(.decompressing(.bytes(bytes)))
        } throws: { error in
            (error as? XMLParseError)?.code == .textLimitExceeded
        }
    }
}

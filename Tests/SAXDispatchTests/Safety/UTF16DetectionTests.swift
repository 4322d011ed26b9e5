import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// The unpaired-surrogate check must see UTF-16 wherever expat does: expat decides from a
/// document's first two bytes, and takes a zero byte in either place as UTF-16 whatever
/// the other byte is.
@Suite("UTF-16 recognized as expat recognizes it")
struct UTF16DetectionTests {
    static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
    }

    /// `prefix<r>`, a lone high surrogate, then `x"</r>`: expat 2.5.0 as first shipped in
    /// Debian 12 would pair the surrogate with `x` and swallow what follows.
    static func loneSurrogate(after prefix: String, bigEndian: Bool) -> [UInt8] {
        let surrogate: [UInt8] = bigEndian ? [0xD8, 0x00] : [0x00, 0xD8]
        return utf16(prefix + "<r>", bigEndian: bigEndian) + surrogate + utf16("x\"</r>", bigEndian: bigEndian)
    }

    @Test(
        "a lone surrogate is an error in BOM-less UTF-16 that starts with whitespace or any character",
        arguments: [" ", "\n", "\t", "\r\n", "  \n ", "<?xml version=\"1.0\" encoding=\"UTF-16\"?>"], [false, true])
    func bomLessStarts(prefix: String, bigEndian: Bool) throws {
        let bytes = Self.loneSurrogate(after: prefix, bigEndian: bigEndian)
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("r") { _, text in texts.append(text) }
        var errors: [XMLParseError] = []
        for pieces in [1, 2, 3, bytes.count] {
            let parser = PushParser(dispatcher)
            let error = #expect(throws: XMLParseError.self) {
                try parser.feed(bytes, inPiecesOf: pieces)
                try parser.finish()
            }
            if let error { errors.append(error) }
        }
        #expect(texts.isEmpty, "nothing of <r> is delivered: \(texts)")
        #expect(errors.allSatisfy { $0.code == .invalidToken && $0.message.contains("surrogate") }, "\(errors)")
        #expect(Set(errors.map { "\($0.line):\($0.column)" }).count == 1, "one position however fed: \(errors)")
    }

    @Test("the error's position, byte offset included, is the same fed whole and read from a file in any chunk size")
    func filePositions() throws {
        // Found by fuzzing: when the read that shows the surrogate unpaired came right after
        // expat grew its buffer, which clears its position, the error had byte offset 0.
        let url = try #require(Bundle.module.url(forResource: "utf16-surrogate-after-buffer-growth", withExtension: "xml", subdirectory: "Fixtures"))
        let bytes = [UInt8](try Data(contentsOf: url))
        func outcome(_ body: () throws -> Void) -> String {
            do {
                try body()
                return "ok"
            } catch let error as XMLParseError {
                return "\(error.code) \(error.line):\(error.column)+\(error.byteOffset)"
            } catch {
                return "\(error)"
            }
        }
        let whole = outcome { try Dispatcher().parse(.bytes(bytes)) }
        #expect(whole.hasPrefix("invalidToken 11:1+"))
        for chunk in [1, 2, 3, 7, 4096] {
            #expect(outcome { try Dispatcher().parse(.file(url).chunked(chunk)) } == whole, "chunks of \(chunk)")
        }
        let parser = PushParser(Dispatcher())
        #expect(outcome { try parser.feed(bytes, inPiecesOf: 1); try parser.finish() } == whole)
    }

    @Test("well-formed BOM-less UTF-16 that starts with whitespace still parses, pairs included")
    func wellFormed() throws {
        for bigEndian in [false, true] {
            let bytes = Self.utf16("\n <r a=\"1\">\u{10078}é</r>", bigEndian: bigEndian)
            var text = ""
            var dispatcher = Dispatcher()
            dispatcher.onEnd("r") { _, value in text = value }
            for pieces in [1, bytes.count] {
                let parser = PushParser(dispatcher)
                try parser.feed(bytes, inPiecesOf: pieces)
                try parser.finish()
                #expect(text == "\u{10078}é")
            }
        }
    }

    @Test("saxdispatch check refuses the document, read whole or a byte at a time")
    func commandLine() throws {
        for bigEndian in [false, true] {
            let path = FileManagerTemp.write(
                Data(Self.loneSurrogate(after: "\n ", bigEndian: bigEndian)), name: "bomless-surrogate-\(bigEndian).xml")
            for arguments in [["check", path], ["check", "--chunk-size", "1", path]] {
                let result = try CommandRunner.run("saxdispatch", arguments)
                #expect(result.status == 1, "\(arguments)")
                #expect(result.error.contains("unpaired UTF-16 surrogate"), "\(arguments): \(result.error)")
            }
        }
    }

    @Test("8-bit documents whose first bytes hold no zero are not checked as UTF-16")
    func eightBit() throws {
        // 0xD8 0x00 would be a high surrogate in UTF-16LE; in UTF-8 it never appears, and in
        // ISO-8859-1 it is 'Ø' followed by nothing special.
        let bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>".utf8) + [0xD8] + Array("x</r>".utf8)
        var text = ""
        var dispatcher = Dispatcher()
        dispatcher.onEnd("r") { _, value in text = value }
        try dispatcher.parse(.bytes(bytes))
        #expect(text == "Øx")
    }
}

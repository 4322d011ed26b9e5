import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// Every fixture of `Fixtures/encodings` (made by `Scripts/generate-encoding-fixtures.py`
/// from Python's codecs) reads to the text Python encoded, fed whole and a byte at a time,
/// and its invalid twin fails at the line and column of the bad bytes.
@Suite("Encodings")
struct EncodingFixtureTests {
    struct Entry: Decodable, CustomStringConvertible, Sendable {
        struct Invalid: Decodable, Sendable {
            var file: String
            var line: Int
            var column: Int
        }
        var file: String
        var encoding: String
        var text: String
        var path: String
        var invalid: Invalid?
        var description: String { file }
    }

    static let entries: [Entry] = {
        let url = TestPaths.fixture("encodings/manifest.json")
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([Entry].self, from: data)) ?? []
    }()

    /// The title, the body's attribute and the body's text, as handlers saw them.
    final class Seen {
        var title = ""
        var note = ""
        var body = ""
    }

    static func dispatcher(_ seen: Seen) -> Dispatcher {
        var dispatcher = Dispatcher()
        dispatcher.onEnd("title") { _, text in seen.title = text }
        dispatcher.onStart("body") { element in seen.note = element.attributes["note"] ?? "" }
        dispatcher.onEnd("body") { _, text in seen.body = text }
        return dispatcher
    }

    static func read(_ bytes: [UInt8], inPiecesOf size: Int) throws -> Seen {
        let seen = Seen()
        let parser = PushParser(dispatcher(seen))
        try parser.feed(bytes, inPiecesOf: size)
        try parser.finish()
        return seen
    }

    @Test("the manifest lists every encoding")
    func manifest() {
        #expect(Self.entries.count >= 20)
    }

    @Test("each document reads to the expected UTF-8, whole, a byte at a time and in pieces longer than a carried sequence", arguments: entries)
    func reads(_ entry: Entry) throws {
        let bytes = try TestPaths.fixtureBytes("encodings/" + entry.file)
        for size in [bytes.count, 1, 7, 17, 19, 33, 64] {
            let seen = try Self.read(bytes, inPiecesOf: size)
            #expect(seen.title == entry.text, "pieces of \(size)")
            #expect(seen.note == entry.text, "pieces of \(size)")
            #expect(seen.body == "\(entry.text) and \(entry.text)", "pieces of \(size)")
        }
        // The file path reads through the driver's own reading loop.
        let seen = Seen()
        try Self.dispatcher(seen).parse(.file(TestPaths.fixture("encodings/" + entry.file).path))
        #expect(seen.title == entry.text)
        var small = XMLInput.file(TestPaths.fixture("encodings/" + entry.file).path)
        small.chunkSize = 3
        let seenSmall = Seen()
        try Self.dispatcher(seenSmall).parse(small)
        #expect(seenSmall.body == "\(entry.text) and \(entry.text)")
    }

    @Test("an invalid sequence is an error at its line and column", arguments: entries.filter { $0.invalid != nil })
    func invalid(_ entry: Entry) throws {
        let invalid = try #require(entry.invalid)
        let bytes = try TestPaths.fixtureBytes("encodings/" + invalid.file)
        for size in [bytes.count, 1, 5] {
            let error = #expect(throws: XMLParseError.self, "pieces of \(size)") {
                _ = try Self.read(bytes, inPiecesOf: size)
            }
            #expect(error?.code == .invalidToken, "pieces of \(size)")
            #expect(error?.line == invalid.line, "pieces of \(size)")
            #expect(error?.column == invalid.column, "pieces of \(size)")
            #expect(error?.elementPath == ["doc", "title"], "pieces of \(size)")
        }
    }

    @Test("the input ends inside a transcoded character")
    func truncatedSequence() throws {
        var bytes = Array("<?xml version='1.0' encoding='GB18030'?><a>".utf8)
        bytes += [0x81, 0x30]
        let error = #expect(throws: XMLParseError.self) { _ = try Self.read(bytes, inPiecesOf: bytes.count) }
        #expect(error?.code == .truncated)
    }
}

/// The encoding override, unknown encodings, and what offsets count.
@Suite("Encoding override")
struct EncodingOverrideTests {
    static func title(of input: XMLInput) throws -> String {
        var title = ""
        var dispatcher = Dispatcher()
        dispatcher.onEnd("t") { _, text in title = text }
        try dispatcher.parse(input)
        return title
    }

    @Test("an override wins over the declaration, as a transport's charset does")
    func overrideWins() throws {
        // "Привет" in windows-1251, in a document that claims ISO-8859-1.
        let word: [UInt8] = [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2]
        let bytes = Array("<?xml version='1.0' encoding='ISO-8859-1'?><t>".utf8) + word + Array("</t>".utf8)
        #expect(try Self.title(of: .bytes(bytes)) == "Ïðèâåò")
        #expect(try Self.title(of: .bytes(bytes).encoding("windows-1251")) == "Привет")
        #expect(try Self.title(of: .bytes(bytes).encoding("windows-1251").encoding(nil)) == "Ïðèâåò")
        var input = XMLInput.bytes(bytes)
        input.encoding = "WINDOWS-1251"
        #expect(try Self.title(of: input) == "Привет")
    }

    @Test("an override names an encoding that goes through the transcoder or the map")
    func overrideMultiByte() throws {
        // The declaration says UTF-8; the override says what the bytes are.
        let shiftJIS: [UInt8] = [0x93, 0xFA, 0x96, 0x7B]  // 日本
        let bytes = Array("<?xml version='1.0' encoding='UTF-8'?><t>".utf8) + shiftJIS + Array("</t>".utf8)
        #expect(try Self.title(of: .bytes(bytes).encoding("Shift_JIS")) == "日本")
        let utf32 = Array("<t>😀</t>".unicodeScalars.flatMap { scalar -> [UInt8] in
            let v = scalar.value
            return [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
        })
        #expect(try Self.title(of: .bytes(utf32).encoding("UTF-32LE")) == "😀")
        #expect(try Self.title(of: .bytes(utf32).encoding("UTF-32")) == "😀")
        #expect(try Self.title(of: .bytes(utf32)) == "😀")
    }

    @Test("an async input carries the override")
    func asyncOverride() async throws {
        let word: [UInt8] = [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2]
        let bytes = Array("<?xml version='1.0' encoding='ISO-8859-1'?><t>".utf8) + word + Array("</t>".utf8)
        var title = ""
        var dispatcher = Dispatcher()
        dispatcher.onEnd("t") { _, text in title = text }
        try await dispatcher.parse(AsyncXMLInput(.bytes(bytes)).encoding("windows-1251"))
        #expect(title == "Привет")
    }

    @Test("a string stays UTF-8 whatever override is set")
    func stringStaysUTF8() throws {
        #expect(try Self.title(of: .string("<t>日本</t>").encoding("Shift_JIS")) == "日本")
    }

    @Test("an encoding that cannot be read is named in the error")
    func unknownNamed() throws {
        let declared = #expect(throws: XMLParseError.self) {
            _ = try Self.title(of: .bytes(Array("<?xml version='1.0' encoding='X-FOO'?><t/>".utf8)))
        }
        #expect(declared?.code == .unknownEncoding)
        #expect(declared?.message == "unknown encoding \"X-FOO\"")
        let overridden = #expect(throws: XMLParseError.self) {
            _ = try Self.title(of: .bytes(Array("<t/>".utf8)).encoding("X-BAR"))
        }
        #expect(overridden?.code == .unknownEncoding)
        #expect(overridden?.message == "unknown encoding \"X-BAR\"")
    }

    @Test("byte offsets count the transcoded UTF-8; lines and columns the document's characters")
    func offsets() throws {
        // UTF-32LE: <a>éé</b> — expat reports the mismatch at the end tag's name: character 8,
        // byte 9 of the UTF-8 (each é is two bytes there, four in the document).
        let document = "<a>éé</b>"
        let utf32 = Array(document.unicodeScalars.flatMap { scalar -> [UInt8] in
            let v = scalar.value
            return [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
        })
        let error = #expect(throws: XMLParseError.self) { _ = try Self.title(of: .bytes(utf32)) }
        #expect(error?.code == .tagMismatch)
        #expect(error?.line == 1)
        #expect(error?.column == 8)
        #expect(error?.byteOffset == 9)
    }
}

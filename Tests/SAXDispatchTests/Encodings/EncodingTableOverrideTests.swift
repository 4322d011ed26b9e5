import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// The sequences the platform's iconv reads otherwise than the published mapping tables
/// (``EncodingTableOverrides``), each alone, in a document read whole and a byte at a time.
@Suite("Encodings: the published tables win over iconv")
struct EncodingTableOverrideTests {
    static func document(_ encoding: String, _ sequence: [UInt8]) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"\(encoding)\"?><t a=\"".utf8) + sequence + Array("\">".utf8) + sequence
            + Array("x</t>".utf8)
    }

    static func bytes(of key: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = key
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return bytes
    }

    static func read(_ bytes: [UInt8], inPiecesOf size: Int) throws -> (attribute: String, text: String) {
        var result = ("", "")
        var dispatcher = Dispatcher()
        dispatcher.onStart("t") { element in result.0 = element.attributes["a"] ?? "" }
        dispatcher.onEnd("t") { _, text in result.1 = text }
        let parser = PushParser(dispatcher)
        try parser.feed(bytes, inPiecesOf: size)
        try parser.finish()
        return result
    }

    @Test("every GB18030 and EUC-JP override reads as its table says, however the input is split")
    func everyOverride() throws {
        let tables = [("GB18030", EncodingTableOverrides.gb18030), ("EUC-JP", EncodingTableOverrides.eucJP)]
        var checked = 0
        for (encoding, table) in tables {
            for (key, scalar) in table.sorted(by: { $0.key < $1.key }) {
                let sequence = Self.bytes(of: key)
                let expected = String(Character(Unicode.Scalar(scalar)!))
                let document = Self.document(encoding, sequence)
                for size in [document.count, 1, 2, 3, 5] {
                    let read = try Self.read(document, inPiecesOf: size)
                    #expect(read.attribute == expected, "\(encoding) \(sequence) in pieces of \(size)")
                    #expect(read.text == expected + "x", "\(encoding) \(sequence) in pieces of \(size)")
                }
                checked += 1
            }
        }
        #expect(checked == 24 + 1)
    }

    @Test("the tables hold what the TextAndWhitespace article says")
    func tableContents() {
        let gb18030 = EncodingTableOverrides.gb18030
        #expect(gb18030[0xFE51] == 0xE816)
        #expect(gb18030[0xFE91] == 0xE855)
        #expect(gb18030[0x8235_9037] == 0x9FB4)
        #expect(gb18030[0x8235_9134] == 0x9FBB)
        #expect(gb18030[0x8431_8236] == 0xFE10)
        #expect(gb18030[0x8431_8335] == 0xFE19)
        #expect(gb18030.count == 24)
        #expect(EncodingTableOverrides.table(for: "gb18030")?.count == 24)
        #expect(EncodingTableOverrides.table(for: "EUC-JP") == [0x8FA2B7: 0x7E])
        #expect(EncodingTableOverrides.table(for: "SHIFT_JIS") == nil)
    }

    @Test("an invalid GB18030 sequence before an override is still reported where it is")
    func invalidBeforeOverride() throws {
        let document = Array("<?xml version=\"1.0\" encoding=\"GB18030\"?>\n<t>".utf8) + [0x81, 0x20] + [0xFE, 0x51]
            + Array("</t>".utf8)
        do {
            _ = try Self.read(document, inPiecesOf: document.count)
            Issue.record("an invalid sequence was read")
        } catch let error as XMLParseError {
            #expect(error.line == 2)
            #expect(error.column == 4)
        }
    }
}

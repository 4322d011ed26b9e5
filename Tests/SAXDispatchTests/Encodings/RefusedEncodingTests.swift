import SAXDispatch
import Testing

/// Encodings in which a byte below 0x80 does not mean its ASCII character are refused as
/// unknown: UTF-7 writes `<` as `+ADw-`, so markup would hide from every tool that looks
/// at bytes; EBCDIC and the national ISO 646 variants give ASCII's bytes other characters.
@Suite("Encodings refused: ASCII bytes that do not mean ASCII")
struct RefusedEncodingTests {
    /// What a parse of `bytes` fed in pieces of `size` delivers: its elements and its error.
    static func outcome(_ bytes: [UInt8], piece size: Int) -> [String] {
        var lines: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { lines.append("start \($0.name)") }
        let parser = PushParser(dispatcher)
        do {
            try parser.feed(bytes, inPiecesOf: size)
            try parser.finish()
        } catch let error as XMLParseError {
            lines.append("error \(error.code) \(error.line):\(error.column)")
        } catch {
            lines.append("error \(error)")
        }
        return lines
    }

    static func outcomes(_ text: String) -> [[String]] {
        let bytes = Array(text.utf8)
        return [bytes.count, 1, 7, 4096].map { outcome(bytes, piece: $0) }
    }

    @Test("UTF-7, under any name iconv accepts, is an unknown encoding: no element hides in +ADw-", arguments: [
        "UTF-7", "utf-7", "UTF7", "UTF-7-IMAP", "csUnicode11UTF7", "UNICODE-1-1-UTF-7",
    ])
    func utf7(name: String) {
        let text = "<?xml version=\"1.0\" encoding=\"\(name)\"?>+ADw-evil/+AD4-"
        for outcome in Self.outcomes(text) {
            #expect(outcome == ["error unknownEncoding 1:31"], "\(name)")
        }
    }

    @Test("the message says why the encoding is refused")
    func message() throws {
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { _ in }
        let error = #expect(throws: XMLParseError.self) {
            try dispatcher.parse(.bytes(Array("<?xml version=\"1.0\" encoding=\"UTF-7\"?>+ADw-r/+AD4-".utf8)))
        }
        #expect(
            error?.message
                == "unknown encoding \"UTF-7\": refused, because its bytes below 0x80 do not all mean their ASCII characters")
    }

    /// Encodings iconv knows in which some printable ASCII byte, tab, CR or LF reads as
    /// another character: refused by the rule, whatever their name.
    @Test("EBCDIC, ISO 646 national variants, UCS-2 and Shift_JISX0213 are refused", arguments: [
        "IBM037", "EBCDIC-US", "CP1047", "IBM500", "ISO646-DE", "ISO646-FR", "UCS-2", "UCS-2LE", "UNICODE",
        "SHIFT_JISX0213",
    ])
    func refusedByRule(name: String) {
        let text = "<?xml version=\"1.0\" encoding=\"\(name)\"?><r/>"
        for outcome in Self.outcomes(text) {
            #expect(outcome == ["error unknownEncoding 1:31"], "\(name)")
        }
    }

    /// Stateful ISO-2022 encodings stay: their initial (ASCII) mode reads every ASCII byte
    /// as itself, and markup is written there.
    @Test("ISO-2022-JP and the encodings that keep ASCII are still read", arguments: [
        "ISO-2022-JP", "ISO-2022-KR", "EUC-JISX0213", "GB18030", "EUC-TW", "Shift_JIS", "CP437", "ISO-8859-5",
    ])
    func stillRead(name: String) {
        let text = "<?xml version=\"1.0\" encoding=\"\(name)\"?><r/>"
        for outcome in Self.outcomes(text) {
            #expect(outcome == ["start r"], "\(name)")
        }
    }
}

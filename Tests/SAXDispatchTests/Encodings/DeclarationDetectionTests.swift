import SAXDispatch
import Testing

/// The XML declaration decides whether a document goes through the transcoder, and that
/// decision must not depend on how the input arrives: the same events and the same error,
/// at the same place, whole, a byte at a time and in pieces.
@Suite("Encoding declarations: the same decision in any pieces")
struct DeclarationDetectionTests {
    /// What a parse of `bytes` fed in pieces of `size` delivers: its events and its error.
    static func outcome(_ bytes: [UInt8], piece size: Int) -> [String] {
        var lines: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { lines.append("start \($0.name) \($0.line):\($0.column)") }
        dispatcher.onAnyEnd(whitespace: .preserve) { lines.append("end \($0.name) \($1.debugDescription)") }
        let parser = PushParser(dispatcher)
        do {
            try parser.feed(bytes, inPiecesOf: size)
            try parser.finish()
        } catch let error as XMLParseError {
            lines.append("error \(error.code) \(error.line):\(error.column)+\(error.byteOffset)")
        } catch {
            lines.append("error \(error)")
        }
        return lines
    }

    static func expectSameInAnyPieces(_ bytes: [UInt8], _ label: String) -> [String] {
        let whole = outcome(bytes, piece: bytes.count)
        for size in [1, 2, 7, 100, 1_023, 1_024, 1_025, 4_096] {
            #expect(outcome(bytes, piece: size) == whole, "\(label), pieces of \(size)")
        }
        return whole
    }

    @Test("a declaration left open, with a declaration of ISO-2022-JP past the first kilobyte: expat's error at the first bad byte, in any pieces")
    func openDeclarationThenLaterEncoding() {
        // Found by fuzzing: fed whole, the search for `?>` ran to the later declaration and
        // read the document as ISO-2022-JP; fed a byte at a time, it stopped at 1,024 bytes.
        let filler = String(repeating: "<!-- filler -->\n", count: 80)
        let text = "<?xml version=\"1.0\"?~\n<!-- a \u{1B}(B -->\n<r/>\n" + filler
            + "<?xml version=\"1.0\" encoding=\"iso-2022-jp\"?>\n"
        let result = Self.expectSameInAnyPieces(Array(text.utf8), "open declaration")
        #expect(result == ["error invalidToken 2:8+29"])
    }

    @Test("a declaration closed by > without ? is expat's to report; a well-formed one still selects the transcoder")
    func closedDeclarations() {
        let malformed = Array("<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"><r>\u{1B}$B$\"\u{1B}(B</r>".utf8)
        let malformedResult = Self.expectSameInAnyPieces(malformed, "malformed")
        #expect(malformedResult.count == 1 && malformedResult[0].hasPrefix("error "))
        // あ in ISO-2022-JP: ESC $ B, 0x24 0x22, ESC ( B.
        let wellFormed = Array("<?xml version=\"1.0\"\n  encoding=\"ISO-2022-JP\"?><r>\u{1B}$B$\"\u{1B}(B</r>".utf8)
        #expect(Self.expectSameInAnyPieces(wellFormed, "well-formed") == ["start r 2:27", "end r \"あ\""])
    }
}

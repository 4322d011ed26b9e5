import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// What a document's XML declaration may say about its encoding: after a byte order mark,
/// and inside a string, which is Unicode whatever it declares.
@Suite("Encoding declarations")
struct EncodingDeclarationTests {
    /// What a parse gave: the text of `<r>`, or the error's code and position.
    enum Outcome: Equatable, CustomStringConvertible {
        case text(String)
        case error(XMLParseError.Code, line: Int, column: Int, byteOffset: Int)

        var description: String {
            switch self {
            case .text(let text): "text \(text.debugDescription)"
            case .error(let code, let line, let column, let offset): "\(code) at \(line):\(column)+\(offset)"
            }
        }
    }

    static func dispatcher(_ text: @escaping (String) -> Void) -> Dispatcher {
        var dispatcher = Dispatcher()
        dispatcher.onEnd("r") { _, value in text(value) }
        return dispatcher
    }

    static func outcome(_ body: (Dispatcher) throws -> Void) -> Outcome {
        var seen = ""
        do {
            try body(dispatcher { seen = $0 })
            return .text(seen)
        } catch let error as XMLParseError {
            return .error(error.code, line: error.line, column: error.column, byteOffset: error.byteOffset)
        } catch {
            return .text("unexpected \(error)")
        }
    }

    /// The outcome of `bytes` fed whole, one byte at a time, in pieces of 2, 3, 7 and 4,096
    /// bytes, and read from a file 1, 4 and 7 bytes or 64 KiB at a time: all must agree.
    /// With `concatenated`, the input is read as documents one after another.
    static func outcomes(_ bytes: [UInt8], concatenated: Bool = false) -> [Outcome] {
        var all: [Outcome] = []
        for size in [bytes.count, 1, 2, 3, 7, 4096] {
            all.append(outcome { dispatcher in
                let parser = PushParser(dispatcher)
                parser.readsConcatenatedDocuments = concatenated
                try parser.feed(bytes, inPiecesOf: size)
                try parser.finish()
            })
        }
        let path = FileManagerTemp.write(Data(bytes), name: "encoding-declaration-\(UUID().uuidString).xml")
        for size in [1, 4, 7, 1 << 16] {
            let input = XMLInput.file(path).chunked(size)
            all.append(outcome { try $0.parse(concatenated ? input.concatenatedDocuments() : input) })
        }
        return all
    }

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// After a UTF-8 byte order mark, a declaration of an encoding that reads bytes above
    /// ASCII otherwise is rejected where the encoding is named, as expat rejects one of an
    /// 8-bit encoding after a UTF-16 mark.
    @Test("a UTF-8 byte order mark and an 8-bit encoding declaration contradict each other", arguments: [
        ("<?xml version='1.0' encoding='ISO-8859-1'?><r>é</r>", 1, 32, 33),
        ("<?xml version=\"1.0\" encoding=\"windows-1252\" standalone=\"yes\"?><r>é</r>", 1, 32, 33),
        ("<?xml version='1.0' encoding='latin1'?><r>é</r>", 1, 32, 33),
        ("<?xml version='1.0'\r\n   encoding = 'iso-8859-15'?><r>é</r>", 2, 16, 39),
        // Expat's own check, for comparison: the same code at the same place.
        ("<?xml version='1.0' encoding='UTF-16'?><r/>", 1, 32, 33),
    ])
    func byteOrderMarkContradiction(document: String, line: Int, column: Int, byteOffset: Int) {
        let expected = Outcome.error(.incorrectEncoding, line: line, column: column, byteOffset: byteOffset)
        let all = Self.outcomes(Self.byteOrderMark + Array(document.utf8))
        #expect(all == Array(repeating: expected, count: all.count))
    }

    /// US-ASCII is UTF-8's first half: after a UTF-8 mark its declaration misreads nothing,
    /// and expat rejects any byte above ASCII as an invalid token.
    @Test("a UTF-8 byte order mark goes with a UTF-8 or US-ASCII declaration, or none", arguments: [
        ("<?xml version='1.0' encoding='UTF-8'?><r>é</r>", Outcome.text("é")),
        ("<?xml version='1.0' encoding='utf-8'?><r>é</r>", .text("é")),
        ("<?xml version='1.0'?><r>é</r>", .text("é")),
        ("<r>é</r>", .text("é")),
        ("<?xml version='1.0' encoding='US-ASCII'?><r>e</r>", .text("e")),
        ("<?xml version='1.0' encoding='ascii'?><r>e</r>", .text("e")),
        ("<?xml version='1.0' encoding='US-ASCII'?><r>é</r>", .error(.invalidToken, line: 1, column: 46, byteOffset: 47)),
    ])
    func byteOrderMarkAgreement(document: String, expected: Outcome) {
        let all = Self.outcomes(Self.byteOrderMark + Array(document.utf8))
        #expect(all == Array(repeating: expected, count: all.count))
    }

    /// Every encoding the package reads, whichever way it reads it (expat's own tables,
    /// the single-byte tables, iconv through expat's map or through the transcoder), gets
    /// the same rule after a UTF-8 byte order mark: the declaration contradicts the mark.
    @Test("a UTF-8 byte order mark contradicts a declaration of any encoding the package reads but UTF-8", arguments: [
        "EUC-JP", "Shift_JIS", "macintosh", "IBM866", "windows-31j", "EUC-KR", "Big5", "GBK", "GB18030",
        "ISO-2022-JP", "EUC-TW", "Big5-HKSCS", "TIS-620", "KOI8-R", "UTF-32",
    ])
    func byteOrderMarkContradictsEveryEncoding(encoding: String) {
        // é in UTF-8, which each of these would read as something else.
        let document = Self.byteOrderMark + Array("<?xml version='1.0' encoding='\(encoding)'?><d>é</d>".utf8)
        let expected = Outcome.error(.incorrectEncoding, line: 1, column: 32, byteOffset: 33)
        let all = Self.outcomes(document)
        #expect(all == Array(repeating: expected, count: all.count), "\(encoding)")
    }

    /// An encoding nobody reads stays unknown after a mark, as without one.
    @Test("after a UTF-8 byte order mark an unknown encoding is still unknown")
    func byteOrderMarkUnknownEncoding() {
        let document = Self.byteOrderMark + Array("<?xml version='1.0' encoding='X-NO-SUCH-CODE'?><d/>".utf8)
        let all = Self.outcomes(document)
        #expect(all.allSatisfy { if case .error(.unknownEncoding, 1, _, _) = $0 { true } else { false } }, "\(all)")
    }

    /// In a concatenated input each document's mark is checked against its own declaration,
    /// counted from the document's start, not from the input's.
    @Test("every document of a concatenated input: its byte order mark against its declaration", arguments: [
        "ISO-8859-1", "EUC-JP", "Shift_JIS", "GB18030",
    ])
    func byteOrderMarkInLaterDocument(encoding: String) {
        let first = Array("<a>1</a>\n".utf8)
        let second = Self.byteOrderMark + Array("<?xml version='1.0' encoding='\(encoding)'?><r>é</r>".utf8)
        // The second document starts at byte 9 on line 2: its mark is column 1, the name column 32.
        let expected = Outcome.error(.incorrectEncoding, line: 2, column: 32, byteOffset: 9 + 33)
        let all = Self.outcomes(first + second, concatenated: true)
        #expect(all == Array(repeating: expected, count: all.count), "\(encoding)")
    }

    /// A later document's mark is counted as the first document's is, however the input is
    /// split: the root's column does not depend on the size of the pieces.
    @Test("a later document's byte order mark counts the same in every split", arguments: ["UTF-8", "US-ASCII", nil])
    func byteOrderMarkPositionInLaterDocument(encoding: String?) {
        let declaration = encoding.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>" } ?? ""
        let first = Array("<a>1</a>\n".utf8)
        let second = Self.byteOrderMark + Array("\(declaration)<r>e</r>".utf8)
        var positions: [String] = []
        for concatenated in [first + second, Self.byteOrderMark + Array("\(declaration)<r>e</r>".utf8)] {
            for size in [concatenated.count, 1, 7, 4096] {
                var dispatcher = Dispatcher()
                dispatcher.onStart("r") { element in positions.append("\(element.line):\(element.column)") }
                let parser = PushParser(dispatcher)
                parser.readsConcatenatedDocuments = true
                #expect(throws: Never.self) {
                    try parser.feed(concatenated, inPiecesOf: size)
                    try parser.finish()
                }
            }
        }
        // The same column as in a document of its own, on the second line.
        let column = declaration.count + 2
        #expect(positions == Array(repeating: "2:\(column)", count: 4) + Array(repeating: "1:\(column)", count: 4))
    }

    /// A UTF-16 byte order mark against a declaration of an encoding that is not UTF-16:
    /// expat's own check for the encodings it reads itself, the same for every other.
    @Test("a UTF-16 byte order mark contradicts a declaration of an 8-bit encoding", arguments: [
        "ISO-8859-1", "UTF-8", "windows-1252", "EUC-JP", "Shift_JIS", "GB18030", "macintosh",
    ])
    func utf16ByteOrderMarkContradiction(encoding: String) {
        let text = "<?xml version='1.0' encoding='\(encoding)'?><d>é</d>"
        let littleEndian: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let bigEndian: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        // Where expat reports its own: the name's column (the mark is one), its byte offset.
        let expected = Outcome.error(.incorrectEncoding, line: 1, column: 32, byteOffset: 2 + 2 * 30)
        for bytes in [littleEndian, bigEndian] {
            let all = Self.outcomes(bytes)
            #expect(all == Array(repeating: expected, count: all.count), "\(encoding)")
        }
        // Without a mark, UTF-16 told by its first bytes: the same rule, a column earlier.
        let withoutMark = Outcome.error(.incorrectEncoding, line: 1, column: 31, byteOffset: 2 * 30)
        for bytes in [littleEndian.dropFirst(2), bigEndian.dropFirst(2)] {
            let all = Self.outcomes(Array(bytes))
            #expect(all == Array(repeating: withoutMark, count: all.count), "\(encoding) without a mark")
        }
    }

    @Test("without a byte order mark, an 8-bit declaration decides how bytes read")
    func declarationWithoutByteOrderMark() {
        let latin1: [UInt8] = Array("<?xml version='1.0' encoding='ISO-8859-1'?><r>".utf8) + [0xE9] + Array("</r>".utf8)
        let all = Self.outcomes(latin1)
        #expect(all == Array(repeating: .text("é"), count: all.count))
    }

    @Test("the command line rejects a UTF-8 byte order mark before an 8-bit declaration")
    func byteOrderMarkContradictionOnTheCommandLine() throws {
        let bytes = Self.byteOrderMark + Array("<?xml version='1.0' encoding='ISO-8859-1'?><r>é</r>".utf8)
        let path = FileManagerTemp.write(Data(bytes), name: "bom-latin1-declaration.xml")
        for (file, input) in [(path, nil), ("-", Data(bytes))] {
            let result = try CommandRunner.run("saxdispatch", ["check", file], input: input)
            #expect(result.status == 1)
            #expect(
                result.error
                    == "\(file):1:32: error: encoding specified in XML declaration is incorrect: the document starts"
                    + " with a UTF-8 byte order mark but declares encoding=\"ISO-8859-1\"\n")
        }
    }

    /// A string is Unicode text: whatever its declaration names, it is read as UTF-8.
    @Test("a string is parsed as UTF-8 whatever its declaration names", arguments: [
        "ISO-8859-1", "windows-1252", "latin1", "US-ASCII", "UTF-16", "UTF-16LE", "UTF-8", "bogus-8",
    ])
    func stringIgnoresDeclaration(encoding: String) {
        let document = "<?xml version=\"1.0\" encoding=\"\(encoding)\"?><r>é€漢</r>"
        #expect(Self.outcome { try $0.parse(.string(document)) } == .text("é€漢"))
        #expect(Self.outcome { try $0.parse(.string("\u{FEFF}" + document)) } == .text("é€漢"))
        // Fed as strings, whole or one character at a time.
        for pieces in [[document], document.map(String.init)] {
            let fed = Self.outcome { dispatcher in
                let parser = PushParser(dispatcher)
                for piece in pieces { try parser.feed(piece) }
                try parser.finish()
            }
            #expect(fed == .text("é€漢"), "\(pieces.count) pieces")
        }
    }

    @Test("errors in a string keep their positions under the UTF-8 reading")
    func stringErrorPosition() {
        let document = "<?xml version='1.0' encoding='ISO-8859-1'?>\n<r>é</x>"
        let expected = Outcome.error(.tagMismatch, line: 2, column: 7, byteOffset: 51)
        #expect(Self.outcome { try $0.parse(.string(document)) } == expected)
        let fed = Self.outcome { dispatcher in
            let parser = PushParser(dispatcher)
            for character in document { try parser.feed(String(character)) }
            try parser.finish()
        }
        #expect(fed == expected)
    }

    /// Expat takes a zero among the first two bytes for UTF-16 even when told the encoding.
    @Test("a string whose first bytes hold a zero is not read as UTF-16", arguments: [
        ("<\u{0}r\u{0}/\u{0}>\u{0}", 2, 1), ("\u{0}<\u{0}r\u{0}/\u{0}>", 1, 0), ("\u{0}", 1, 0),
    ])
    func stringWithLeadingZero(document: String, column: Int, byteOffset: Int) {
        let expected = Outcome.error(.invalidToken, line: 1, column: column, byteOffset: byteOffset)
        #expect(Self.outcome { try $0.parse(.string(document)) } == expected)
        let fed = Self.outcome { dispatcher in
            let parser = PushParser(dispatcher)
            for character in document { try parser.feed(String(character)) }
            try parser.finish()
        }
        #expect(fed == expected)
    }

    /// Once bytes were fed, their declaration has decided the encoding; a string fed after
    /// them adds its UTF-8 bytes as they are (documented on `PushParser.feed(_:)`).
    @Test("a string fed after bytes follows the encoding the bytes declared")
    func stringAfterBytes() {
        let fed = Self.outcome { dispatcher in
            let parser = PushParser(dispatcher)
            try parser.feed(Array("<?xml version='1.0' encoding='ISO-8859-1'?>".utf8))
            try parser.feed("<r>é</r>")
            try parser.finish()
        }
        #expect(fed == .text("Ã©"))
    }
}

import Foundation
import SAXDispatch
import Testing

/// What a document's XML declaration may say about its encoding inside a string, which
/// is Unicode whatever it declares.
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

    /// The outcome of `bytes` fed whole, one byte at a time, in pieces of 2 and 3 bytes,
    /// and read from a file 1 and 4 bytes or 64 KiB at a time: all must agree.
    static func outcomes(_ bytes: [UInt8]) -> [Outcome] {
        var all: [Outcome] = []
        for size in [bytes.count, 1, 2, 3] {
            all.append(outcome { dispatcher in
                let parser = PushParser(dispatcher)
                try parser.feed(bytes, inPiecesOf: size)
                try parser.finish()
            })
        }
        let path = FileManagerTemp.write(Data(bytes), name: "encoding-declaration-\(UUID().uuidString).xml")
        for size in [1, 4, 1 << 16] {
            all.append(outcome { try $0.parse(contentsOfFile: path, chunkSize: size) })
        }
        return all
    }

    /// A string is Unicode text: whatever its declaration names, it is read as UTF-8.
    @Test("a string is parsed as UTF-8 whatever its declaration names", arguments: [
        "ISO-8859-1", "windows-1252", "latin1", "US-ASCII", "UTF-16", "UTF-16LE", "UTF-8", "bogus-8",
    ])
    func stringIgnoresDeclaration(encoding: String) {
        let document = "<?xml version=\"1.0\" encoding=\"\(encoding)\"?><r>é€漢</r>"
        #expect(Self.outcome { try $0.parse(document) } == .text("é€漢"))
        #expect(Self.outcome { try $0.parse("\u{FEFF}" + document) } == .text("é€漢"))
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
        #expect(Self.outcome { try $0.parse(document) } == expected)
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

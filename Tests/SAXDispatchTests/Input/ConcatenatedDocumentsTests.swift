import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// Inputs read as documents one after another (`XMLInput.concatenatedDocuments()`): each
/// document parsed in turn with its own declaration, DTD and root, positions counted
/// from the start of the input, the same events however the input is split.
@Suite("Concatenated documents")
struct ConcatenatedDocumentsTests {
    /// Three documents: declarations, a comment and space between them, one that starts
    /// right after the previous root, and one with a DTD of its own.
    static let log = """
        <?xml version="1.0" encoding="UTF-8"?>
        <entry id="1"><msg>first</msg></entry>
        <!-- between -->
        <?xml version="1.0"?><entry id="2"><msg>second &amp; more</msg></entry><entry id="3"><msg>third</msg></entry>
        <!DOCTYPE entry [<!ENTITY who "fourth">]>
        <entry id="4">
          <msg>&who;</msg>
        </entry>

        """

    /// Every event with the document it is in and its position, one line each.
    final class Log {
        var lines: [String] = []

        func dispatcher() -> Dispatcher {
            var dispatcher = Dispatcher()
            dispatcher.onAnyStart { [unowned self] element in
                let id = element.attributes["id"].map { " id=\($0)" } ?? ""
                lines.append(
                    "doc \(element.documentNumber) start \(element.name)\(id) at \(element.line):\(element.column)+\(element.byteOffset)")
            }
            dispatcher.onAnyEnd { [unowned self] element, text in
                lines.append("doc \(element.documentNumber) end \(element.name) \(text.debugDescription)")
            }
            dispatcher.onComment { [unowned self] in lines.append("comment \($0.debugDescription)") }
            return dispatcher
        }
    }

    static let expectedLines = [
        "doc 1 start entry id=1 at 2:1+39",
        "doc 1 start msg at 2:15+53",
        "doc 1 end msg \"first\"",
        "doc 1 end entry \"\"",
        "comment \" between \"",
        "doc 2 start entry id=2 at 4:22+116",
        "doc 2 start msg at 4:36+130",
        "doc 2 end msg \"second & more\"",
        "doc 2 end entry \"\"",
        "doc 3 start entry id=3 at 4:72+166",
        "doc 3 start msg at 4:86+180",
        "doc 3 end msg \"third\"",
        "doc 3 end entry \"\"",
        "doc 4 start entry id=4 at 6:1+247",
        "doc 4 start msg at 7:3+264",
        "doc 4 end msg \"fourth\"",
        "doc 4 end entry \"\"",
    ]

    @Test("each document's events in turn, with positions from the start of the input, fed whole")
    func wholeString() throws {
        let log = Log()
        let parser = PushParser(log.dispatcher())
        #expect(try parser.parse(.string(Self.log).concatenatedDocuments()) == .completed)
        #expect(log.lines == Self.expectedLines)
        #expect(parser.documentCount == 4)
    }

    @Test("the same events fed in pieces of any size", arguments: [1, 2, 3, 5, 7, 16, 17, 64, 1000])
    func pieces(size: Int) throws {
        let log = Log()
        let parser = PushParser(log.dispatcher())
        parser.readsConcatenatedDocuments = true
        try parser.feed(Array(Self.log.utf8), inPiecesOf: size)
        #expect(try parser.finish() == .completed)
        #expect(log.lines == Self.expectedLines)
    }

    @Test("the same events read from a file in chunks of any size", arguments: [1, 3, 100, 1024, 4096, 65536])
    func file(chunkSize: Int) throws {
        let path = FileManagerTemp.write(Self.log, name: "concatenated-\(chunkSize).xml")
        var input = XMLInput.file(path).concatenatedDocuments()
        input.chunkSize = chunkSize
        let log = Log()
        #expect(try log.dispatcher().parse(input) == .completed)
        #expect(log.lines == Self.expectedLines)
    }

    @Test("the same events from an asynchronous input, in chunks")
    func asynchronous() async throws {
        let bytes = Array(Self.log.utf8)
        let chunks = AsyncStream<[UInt8]> { continuation in
            var offset = 0
            while offset < bytes.count {
                continuation.yield(Array(bytes[offset..<min(bytes.count, offset + 11)]))
                offset += 11
            }
            continuation.finish()
        }
        let log = Log()
        #expect(try await log.dispatcher().parse(AsyncXMLInput.chunks(chunks).concatenatedDocuments()) == .completed)
        #expect(log.lines == Self.expectedLines)
    }

    @Test("without the mode, a second root is the error it is in XML")
    func notConcatenated() throws {
        let error = #expect(throws: XMLParseError.self) {
            try Dispatcher().parse(.string("<a/>\n<b/>"))
        }
        #expect(error?.code == .junkAfterDocumentElement)
        #expect(error?.line == 2)
        #expect(error?.column == 1)
        #expect(error?.documentNumber == nil)
    }

    @Test("text after a root element stays an error, not a document")
    func textAfterRoot() throws {
        let error = #expect(throws: XMLParseError.self) {
            try Dispatcher().parse(.string("<a/>\n<b/> oops").concatenatedDocuments())
        }
        #expect(error?.code == .junkAfterDocumentElement)
        #expect(error?.line == 2)
        #expect(error?.column == 6)
        #expect(error?.documentNumber == 2)
        #expect(error?.description == "<string>:2:6: error: junk after document element (in document 2)")
    }

    @Test("text between documents is an error however expat reports it", arguments: [1, 4, 8, 24])
    func textBetweenDocuments(pieceSize: Int) throws {
        // Fed whole, expat calls the text an invalid token at the markup after it.
        var starts = 0
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { _ in starts += 1 }
        let parser = PushParser(dispatcher)
        parser.readsConcatenatedDocuments = true
        let error = #expect(throws: XMLParseError.self) {
            try parser.feed(Array("<r/>trailing<r/>trailing".utf8), inPiecesOf: pieceSize)
            try parser.finish()
        }
        #expect(starts == 1)
        #expect(error?.documentNumber == 1)
        #expect(error?.code == .junkAfterDocumentElement || error?.code == .invalidToken)
    }

    @Test(
        "an error in a later document: its line and column in the input, its number, the documents before it delivered",
        arguments: [1, 4, 13, 4096])
    func errorInThirdDocument(pieceSize: Int) throws {
        let text = "<r><i>1</i></r>\n<r><i>2</i></r>\n<r>\n  <i>3</x>\n</r>\n<r><i>4</i></r>\n"
        var items: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("i") { element, text in items.append("\(element.documentNumber):\(text)") }
        let parser = PushParser(dispatcher, source: "log.xml")
        parser.readsConcatenatedDocuments = true
        let error = #expect(throws: XMLParseError.self) {
            try parser.feed(Array(text.utf8), inPiecesOf: pieceSize)
            try parser.finish()
        }
        #expect(items == ["1:1", "2:2"])
        #expect(error?.code == .tagMismatch)
        #expect(error?.line == 4)
        // Expat puts a mismatched end tag at its name.
        #expect(error?.column == 9)
        #expect(error?.byteOffset == 44)
        #expect(error?.documentNumber == 3)
        #expect(error?.description == "log.xml:4:9: error: mismatched tag (in document 3, at r/i)")
    }

    @Test("a document's DTD and entities are its own")
    func entitiesDoNotCarryOver() throws {
        let text = "<!DOCTYPE r [<!ENTITY e \"x\">]><r>&e;</r>\n<r>&e;</r>"
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("r") { _, text in texts.append(text) }
        let error = #expect(throws: XMLParseError.self) {
            try dispatcher.parse(.string(text).concatenatedDocuments())
        }
        #expect(texts == ["x"])
        #expect(error?.code == .undefinedEntity)
        #expect(error?.line == 2)
        #expect(error?.documentNumber == 2)
    }

    @Test("a byte order mark starts the next document")
    func byteOrderMarks() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("<a>1</a>\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("<a>2</a>".utf8)
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("a") { element, text in texts.append("\(element.documentNumber):\(text)") }
        #expect(try dispatcher.parse(.bytes(bytes).concatenatedDocuments()) == .completed)
        #expect(texts == ["1:1", "2:2"])
    }

    @Test("documents in UTF-16, each with its byte order mark", arguments: [1, 3, 64])
    func utf16(pieceSize: Int) throws {
        func document(_ text: String) -> [UInt8] {
            [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        }
        let bytes = document("<?xml version=\"1.0\" encoding=\"UTF-16\"?><a>é1</a>\n") + document("<a>ü2</a>")
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("a") { element, text in texts.append("\(element.documentNumber):\(text)") }
        let parser = PushParser(dispatcher)
        parser.readsConcatenatedDocuments = true
        try parser.feed(bytes, inPiecesOf: pieceSize)
        try parser.finish()
        #expect(texts == ["1:é1", "2:ü2"])
    }

    @Test(
        "documents in Shift_JIS (expat's map) and in GB18030 (the transcoder)",
        arguments: [
            // 日本 and 東京 in each encoding (Python's codecs).
            ("Shift_JIS", [0x93, 0xFA, 0x96, 0x7B], [0x93, 0x8C, 0x8B, 0x9E]),
            ("GB18030", [0xC8, 0xD5, 0xB1, 0xBE], [0x96, 0x7C, 0xBE, 0xA9]),
        ] as [(String, [UInt8], [UInt8])])
    func encodings(encoding: String, japan: [UInt8], tokyo: [UInt8]) throws {
        let declared = Array("<?xml version=\"1.0\" encoding=\"\(encoding)\"?>".utf8)
        let bytes =
            declared + Array("<a>".utf8) + japan + Array("</a>\n".utf8) + declared + Array("\n<a>".utf8) + tokyo
            + Array("</a>\n".utf8)
        for pieceSize in [1, 5, 4096] {
            var texts: [String] = []
            var dispatcher = Dispatcher()
            dispatcher.onEnd("a") { element, text in texts.append("\(element.documentNumber):\(element.line):\(text)") }
            let parser = PushParser(dispatcher)
            parser.readsConcatenatedDocuments = true
            try parser.feed(bytes, inPiecesOf: pieceSize)
            try parser.finish()
            #expect(texts == ["1:1:日本", "2:3:東京"], "pieces of \(pieceSize)")
        }
    }

    @Test("after a document the converter read (GB18030), a later one declaring another encoding is an error, not mojibake")
    func laterDocumentInAnotherEncoding() throws {
        // 中文 in GB18030, then 日本 in EUC-JP, then 中文 in GB18030 again (Python's codecs).
        func document(_ encoding: String, _ text: [UInt8]) -> [UInt8] {
            Array("<?xml version=\"1.0\" encoding=\"\(encoding)\"?><a>".utf8) + text + Array("</a>\n".utf8)
        }
        let chinese: [UInt8] = [0xD6, 0xD0, 0xCE, 0xC4]
        let bytes = document("GB18030", chinese) + document("EUC-JP", [0xC6, 0xFC, 0xCB, 0xDC]) + document("gb-18030", chinese)
        for pieceSize in [1, 7, 4096, bytes.count] {
            var texts: [String] = []
            var dispatcher = Dispatcher()
            dispatcher.onEnd("a") { _, text in texts.append(text) }
            let parser = PushParser(dispatcher)
            parser.readsConcatenatedDocuments = true
            let error = #expect(throws: XMLParseError.self) {
                try parser.feed(bytes, inPiecesOf: pieceSize)
                try parser.finish()
            }
            #expect(error?.code == .incorrectEncoding, "pieces of \(pieceSize)")
            #expect(error.map { [$0.line, $0.column, $0.documentNumber ?? 0] } == [2, 31, 2], "pieces of \(pieceSize)")
            #expect(texts == ["中文"], "pieces of \(pieceSize)")
        }
        // The same encoding under another spelling reads on.
        let same = document("GB18030", chinese) + document("gb18030", chinese)
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("a") { _, text in texts.append(text) }
        let parser = PushParser(dispatcher)
        parser.readsConcatenatedDocuments = true
        try parser.feed(same, inPiecesOf: 7)
        try parser.finish()
        #expect(texts == ["中文", "中文"])
    }

    @Test("records across documents, and an asynchronous stream that pauses between them")
    func records() async throws {
        struct Entry: Equatable, Sendable {
            var id: Int
            var message: String
        }
        let record = XMLRecord("entry", .value("@id", as: Int.self), .text("msg")) { Entry(id: $0, message: $1) }
        let expected = [
            Entry(id: 1, message: "first"), Entry(id: 2, message: "second & more"), Entry(id: 3, message: "third"),
            Entry(id: 4, message: "fourth"),
        ]
        #expect(try record.all(in: .string(Self.log).concatenatedDocuments()) == expected)
        var streamed: [Entry] = []
        for try await entry in record.stream(from: AsyncXMLInput(.string(Self.log).concatenatedDocuments())) {
            streamed.append(entry)
            await Task.yield()
        }
        #expect(streamed == expected)
    }

    @Test("a stop in a later document ends the parse there; a limit broken there names it")
    func stopAndLimits() throws {
        let text = "<a><b>1</b></a><a><b>2</b></a><a><b>3</b></a>"
        var seen: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("b") { element, text in
            seen.append(text)
            if element.documentNumber == 2 { element.stopParsing() }
        }
        #expect(try dispatcher.parse(.string(text).concatenatedDocuments()) == .stopped)
        #expect(seen == ["1", "2"])

        var limited = Dispatcher()
        limited.safety.maximumDepth = 2
        let error = #expect(throws: XMLParseError.self) {
            try limited.parse(.string("<a><b/></a>\n<a><b><c/></b></a>").concatenatedDocuments())
        }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.documentNumber == 2)
        #expect(error?.line == 2)
        #expect(error?.column == 7)
    }

    @Test("Decodable values from every document")
    func decodable() throws {
        struct Entry: Decodable, Equatable {
            var msg: String
        }
        let entries = try XMLRecordDecoder().all(Entry.self, at: "entry", in: .string(Self.log).concatenatedDocuments())
        #expect(entries.map(\.msg) == ["first", "second & more", "third", "fourth"])
    }

    @Test("many documents: the parser's memory stays what one document needs")
    func manyDocuments() throws {
        func parse(documents count: Int) throws -> (peak: Int, names: Int, entries: Int) {
            var text = ""
            // Documents of one size: numbers of six digits.
            for index in 100_000..<(100_000 + count) {
                text += "<?xml version=\"1.0\"?>\n<!DOCTYPE e [<!ENTITY x \"\(index)\">]><e n=\"\(index)\"><v>&x;</v></e>\n"
            }
            var entries = 0
            var dispatcher = Dispatcher()
            dispatcher.onEnd("v") { _, _ in entries += 1 }
            let parser = PushParser(dispatcher)
            parser.readsConcatenatedDocuments = true
            try parser.feed(Array(text.utf8), inPiecesOf: 4096)
            try parser.finish()
            return (parser.driver.peakParserMemory, parser.engine.names.count, entries)
        }
        let few = try parse(documents: 200)
        let many = try parse(documents: 20_000)
        #expect(few.entries == 200)
        #expect(many.entries == 20_000)
        #expect(many.names == few.names)
        #expect(many.peak <= few.peak + 1024, "expat's peak: \(few.peak) bytes for 200 documents, \(many.peak) for 20,000")
    }

    /// Documents of element names no other document has: `<log>` around ten names of its own.
    static func documentsOfNewNames(_ count: Int) -> String {
        (0..<count).map { document in
            "<log>" + (0..<10).map { "<name\(document)_\($0)>\($0)</name\(document)_\($0)>" }.joined() + "</log>\n"
        }.joined()
    }

    @Test(
        "each document starts with the names the patterns brought: the table and its charge return to their base",
        arguments: [1, 7, 4096, Int.max])
    func namesOfEarlierDocumentsAreDropped(pieceSize: Int) throws {
        let text = Self.documentsOfNewNames(300)
        var dispatcher = Dispatcher()
        var atRoots: [(names: Int, held: Int, charged: Int)] = []
        var lastNames: [String] = []
        var ends = 0
        var engine: DispatchEngine?
        dispatcher.onStart("log") { element in
            engine = element.engine
            let engine = element.engine
            atRoots.append((engine.names.count, engine.names.heldBytes + engine.keys.heldBytes, engine.chargedNameBytes))
        }
        dispatcher.onEnd("log/*") { element, text in
            ends += 1
            if text == "9" { lastNames.append(element.name) }
        }
        let parser = PushParser(dispatcher)
        parser.readsConcatenatedDocuments = true
        try parser.feed(Array(text.utf8), inPiecesOf: pieceSize)
        #expect(try parser.finish() == .completed)
        #expect(parser.documentCount == 300)
        #expect(ends == 3000)
        #expect(lastNames == (0..<300).map { "name\($0)_9" })
        // `log` is a pattern's name: the table holds it before the parse, and every root
        // element starts with the table as the patterns left it.
        let base = try #require(atRoots.first)
        #expect(atRoots.count == 300)
        #expect(atRoots.allSatisfy { $0.names == base.names && $0.held == base.held })
        #expect(atRoots.allSatisfy { $0.charged <= base.held })
        #expect(engine.map { Int($0.keys.patternNameCount) } == base.names)
    }

    @Test("a log of documents of new names stays within a parser memory limit that one document fits")
    func manyDocumentsOfNewNamesWithinMemoryLimit() throws {
        var profile = SafetyProfile.default
        profile.maximumParserMemoryBytes = .atMost(256 << 10)
        var dispatcher = Dispatcher()
        dispatcher.safety = profile
        var roots = 0
        dispatcher.onEnd("log") { _, _ in roots += 1 }
        let parser = PushParser(dispatcher)
        parser.readsConcatenatedDocuments = true
        try parser.feed(Array(Self.documentsOfNewNames(3000).utf8), inPiecesOf: 4096)
        #expect(try parser.finish() == .completed)
        #expect(roots == 3000)
        #expect(parser.engine.names.count == Int(parser.engine.keys.patternNameCount) + 10)
    }

    @Test("values held for delivery in a row across documents name their element paths in their own document")
    func heldValuesAcrossDroppedNames() throws {
        struct Item: Decodable { var v: Int }
        struct Enough: Error {}
        // Each document's root has a name of its own, dropped at its end; the decoder holds
        // the values and delivers them in a row, after the document they come from ended.
        let text = (0..<6).map { "<log\($0)>\n  <item><v>\($0)</v></item>\n</log\($0)>\n" }.joined()
        for pieceSize in [1, 7, 4096, Int.max] {
            var seen: [Int] = []
            var dispatcher = Dispatcher()
            dispatcher.onDecoded(Item.self, at: "item") { item in
                seen.append(item.v)
                if item.v == 4 { throw Enough() }
            }
            let parser = PushParser(dispatcher)
            parser.readsConcatenatedDocuments = true
            do {
                try parser.feed(Array(text.utf8), inPiecesOf: pieceSize)
                try parser.finish()
                Issue.record("the handler's error was lost")
            } catch let error as HandlerError {
                #expect(error.underlying is Enough)
                #expect(error.elementPath == ["log4", "item"], "fed by \(pieceSize)")
                #expect((error.line, error.column) == (14, 3), "fed by \(pieceSize)")
            }
            #expect(seen == [0, 1, 2, 3, 4], "fed by \(pieceSize)")
        }
    }
}

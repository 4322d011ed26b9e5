import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// Malformed inputs, each with the error it must produce.
@Suite("Parse errors")
struct ErrorTableTests {
    struct Case: CustomStringConvertible, Sendable {
        var document: String
        var code: XMLParseError.Code
        var line: Int
        var column: Int
        var byteOffset: Int
        var path: ElementPath
        var description: String { document.debugDescription }
    }

    static let table: [Case] = [
        Case(document: "<zoo><animal></zoo>", code: .tagMismatch, line: 1, column: 16, byteOffset: 15, path: ["zoo", "animal"]),
        Case(document: "<a>\n  <b>\n</a>", code: .tagMismatch, line: 3, column: 3, byteOffset: 12, path: ["a", "b"]),
        Case(document: "", code: .noElements, line: 1, column: 1, byteOffset: 0, path: []),
        Case(document: "<a><b>text", code: .truncated, line: 1, column: 11, byteOffset: 10, path: ["a", "b"]),
        Case(document: "<a x='1' x='2'/>", code: .duplicateAttribute, line: 1, column: 10, byteOffset: 9, path: []),
        Case(document: "<a/><b/>", code: .junkAfterDocumentElement, line: 1, column: 5, byteOffset: 4, path: []),
        Case(document: "<a>&nope;</a>", code: .undefinedEntity, line: 1, column: 4, byteOffset: 3, path: ["a"]),
        Case(document: "<a>&#0;</a>", code: .badCharacterReference, line: 1, column: 4, byteOffset: 3, path: ["a"]),
        Case(document: "<a>\n <![CDATA[open</a>", code: .truncated, line: 2, column: 19, byteOffset: 22, path: ["a"]),
        Case(document: "<a>\n\t<1b/></a>", code: .invalidToken, line: 2, column: 3, byteOffset: 6, path: ["a"]),
        Case(document: "<a>é<b c='x\n", code: .truncated, line: 1, column: 5, byteOffset: 5, path: ["a"]),
        Case(document: "<?xml version='1.0' encoding='bogus-8'?><a/>", code: .unknownEncoding, line: 1, column: 31, byteOffset: 30, path: []),
        Case(document: "<a><?xml version='1.0'?></a>", code: .misplacedXMLDeclaration, line: 1, column: 4, byteOffset: 3, path: ["a"]),
        Case(document: "<r><p>caf\u{e9} <b>\u{6f22}</c></p></r>", code: .tagMismatch, line: 1, column: 18, byteOffset: 20, path: ["r", "p", "b"]),
    ]

    @Test("code, line, column, byte offset and element path", arguments: table)
    func errorTable(_ test: Case) {
        let bytes = Array(test.document.utf8)
        for chunk in [max(1, bytes.count), 1, 3] {
            let parser = PushParser(Dispatcher())
            let error = #expect(throws: XMLParseError.self) {
                try parser.feed(bytes, inPiecesOf: chunk)
                try parser.finish()
            }
            #expect(error?.code == test.code, "chunk \(chunk)")
            #expect(error?.line == test.line, "chunk \(chunk)")
            #expect(error?.column == test.column, "chunk \(chunk)")
            #expect(error?.byteOffset == test.byteOffset, "chunk \(chunk)")
            #expect(error?.elementPath == test.path, "chunk \(chunk)")
        }
    }

    @Test("descriptions read like compiler diagnostics")
    func renderedDescriptions() throws {
        let mismatch = #expect(throws: XMLParseError.self) {
            try Dispatcher().parse(.string("<zoo>\n  <animals>\n    <animal>\n  </animals>\n</zoo>"))
        }
        #expect(mismatch?.description == "<string>:4:5: error: mismatched tag (in zoo/animals/animal)")

        var error = XMLParseError(
            code: .undefinedEntity, message: "undefined entity", line: 12, column: 9, byteOffset: 301,
            elementPath: ["zoo", "facilities", "toilet"], source: "zoo.xml")
        #expect(error.description == "zoo.xml:12:9: error: undefined entity (in zoo/facilities/toilet)")
        error.elementPath = []
        #expect(error.description == "zoo.xml:12:9: error: undefined entity")
        #expect(XMLParseError.Code.tagMismatch.description == "tagMismatch")
        #expect(XMLParseError.Code(rawValue: 9999).description == "code 9999")
    }

    @Test("file errors name the file")
    func fileErrors() throws {
        let missing = TestPaths.fixture("does-not-exist.xml").path
        let inputError = #expect(throws: XMLInputError.self) { try Dispatcher().parse(.file(missing)) }
        #expect(inputError?.description == "\(missing): error: cannot open file: No such file or directory")

        let crlf = TestPaths.fixture("crlf.xml").path
        var dispatcher = Dispatcher()
        dispatcher.onStart("kind") { _ in }
        #expect(try dispatcher.parse(.file(crlf)) == .completed)
    }

    @Test("a malformed file reports its path as the source")
    func sourceIsThePath() throws {
        let path = FileManagerTemp.write("<a>\n<b></a>", name: "mismatch.xml")
        let error = #expect(throws: XMLParseError.self) { try Dispatcher().parse(.file(path)) }
        #expect(error?.description == "\(path):2:6: error: mismatched tag (in a/b)")
    }

    @Test("a deep element path is shortened in the description, kept whole in the error")
    func deepPath() throws {
        let document = String(repeating: "<a>", count: 300)
        let error = #expect(throws: XMLParseError.self) { try Dispatcher().parse(.string(document)) }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.elementPath.components.count == 256)
        #expect(
            error?.description
                == "<string>:1:769: error: elements nest deeper than maximumDepth (256) (in a/a/a/a/…/a/a/a/a (256 levels))")
        #expect(ElementPath(["a", "b", "c", "d"]).abbreviated(keepingAtEachEnd: 1) == "a/…/d (4 levels)")
        #expect(ElementPath(["a", "b", "c"]).abbreviated(keepingAtEachEnd: 1) == "a/b/c", "nothing to gain")
        #expect(ElementPath(["a", "b", "c"]).abbreviated() == "a/b/c")
    }
}

/// Messages that name what is wrong, read back from the input at the error position.
@Suite("Parse error messages name the offending text")
struct ErrorMessageDetailTests {
    static let table: [(document: String, description: String)] = [
        ("<p>caf&nbsp;</p>", "<string>:1:7: error: undefined entity &nbsp; (in p)"),
        ("<?xml version='1.0' encoding='bogus-8'?><a/>", #"<string>:1:31: error: unknown encoding "bogus-8""#),
        ("<?xml version=\"1.0\" encoding=\"X\"?><a/>", #"<string>:1:31: error: unknown encoding "X""#),
        ("<a>\n\t<1b/></a>", "<string>:2:3: error: not well-formed (invalid token): '1' (in a)"),
        ("<a><b x=1/></a>", "<string>:1:9: error: not well-formed (invalid token): attribute value must be quoted (in a)"),
        ("<a><b x = 1/></a>", "<string>:1:11: error: not well-formed (invalid token): attribute value must be quoted (in a)"),
        ("<a>x < y</a>", "<string>:1:7: error: not well-formed (invalid token): U+0020 (in a)"),
        ("<a>\u{1}</a>", "<string>:1:4: error: not well-formed (invalid token): U+0001 (in a)"),
    ]

    @Test("the entity, the encoding, the character or the missing quote", arguments: 0..<table.count)
    func detail(_ index: Int) {
        let test = Self.table[index]
        let bytes = Array(test.document.utf8)
        for chunk in [bytes.count, 1, 3] {
            let parser = PushParser(Dispatcher())
            let error = #expect(throws: XMLParseError.self) {
                try parser.feed(bytes, inPiecesOf: chunk)
                try parser.finish()
            }
            #expect(error?.description.replacingOccurrences(of: "<input>", with: "<string>") == test.description, "chunk \(chunk)")
            #expect(error?.localizedDescription == error?.description)
        }
    }

    @Test("a byte that is not UTF-8 is shown as a byte")
    func invalidByte() {
        let error = #expect(throws: XMLParseError.self) { try Dispatcher().parse(.bytes([0x3C, 0x61, 0x3E, 0xFF, 0x3C, 0x2F, 0x61, 0x3E])) }
        #expect(error?.message == "not well-formed (invalid token): byte 0xFF")
    }
}

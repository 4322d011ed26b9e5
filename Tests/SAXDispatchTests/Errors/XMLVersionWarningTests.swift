import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// Expat implements XML 1.0 only: a document that declares another version is read by
/// 1.0's rules, and says so with a warning naming the version, once per document, as soon
/// as its declaration is read.
@Suite("XML versions other than 1.0")
struct XMLVersionWarningTests {
    static let warning =
        "the document declares XML version \"1.1\", which this parser does not implement: it is read by XML 1.0's"
        + " rules (NEL and U+2028 are not line ends, references to control characters such as &#x1; are errors,"
        + " and names follow 1.0)"

    /// The warnings `onWarning` received and the parser kept, fed in pieces of `size`.
    static func warnings(_ text: String, piece size: Int, concatenated: Bool = false) throws
        -> (delivered: [String], kept: [String])
    {
        var delivered: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { _ in }
        dispatcher.onWarning { delivered.append($0.description) }
        let parser = PushParser(dispatcher)
        parser.readsConcatenatedDocuments = concatenated
        try parser.feed(Array(text.utf8), inPiecesOf: size)
        #expect(try parser.finish() == .completed)
        return (delivered, parser.warnings.map(\.description))
    }

    @Test("version 1.1: one warning naming the version, whole and in pieces of 1, 7 and 4,096 bytes")
    func version11() throws {
        let text = "<?xml version=\"1.1\" encoding=\"UTF-8\"?>\n<r>a</r>\n"
        for size in [text.utf8.count, 1, 7, 4096] {
            let (delivered, kept) = try Self.warnings(text, piece: size)
            #expect(delivered == ["<input>: warning: " + Self.warning], "pieces of \(size)")
            #expect(kept == delivered)
        }
    }

    @Test("version 1.0, or no declaration: no warning", arguments: [
        "<?xml version=\"1.0\"?><r/>", "<?xml version='1.0' encoding='UTF-8' standalone='yes'?><r/>", "<r/>",
    ])
    func version10(text: String) throws {
        let (delivered, kept) = try Self.warnings(text, piece: 1)
        #expect(delivered.isEmpty && kept.isEmpty)
    }

    @Test("each document of a concatenated input that declares 1.1 has its own warning, with its number")
    func concatenated() throws {
        let text = "<?xml version=\"1.1\"?><a/>\n<?xml version=\"1.0\"?><a/>\n<?xml version=\"1.1\"?><a/>\n"
        for size in [text.utf8.count, 1, 7, 4096] {
            let (delivered, _) = try Self.warnings(text, piece: size, concatenated: true)
            #expect(delivered.count == 2, "pieces of \(size)")
            #expect(delivered.first?.hasPrefix("<input>: warning: document 1 declares XML version \"1.1\"") == true)
            #expect(delivered.last?.hasPrefix("<input>: warning: document 3 declares XML version \"1.1\"") == true)
        }
    }

    /// An endless log of 1.1 documents grows no memory: the first 64 have their warning.
    @Test("a concatenated input of many 1.1 documents: warnings for the first 64, then none")
    func manyDocuments() throws {
        let text = String(repeating: "<?xml version=\"1.1\"?><a/>\n", count: 100)
        let (delivered, kept) = try Self.warnings(text, piece: 4096, concatenated: true)
        #expect(delivered.count == 64)
        #expect(kept.count == 64)
        #expect(delivered.last?.hasPrefix("<input>: warning: document 64 declares") == true)
    }

    /// A 1.1 document that 1.0 rejects: the warning came before the error, and the error
    /// says which rules applied.
    @Test("a 1.1 document that 1.0's rules reject: the warning first, and the error says why")
    func rejected() {
        var delivered: [ParseWarning] = []
        var dispatcher = Dispatcher()
        dispatcher.onWarning { delivered.append($0) }
        let error = #expect(throws: XMLParseError.self) {
            try dispatcher.parse(.string("<?xml version=\"1.1\"?><r>&#x1;</r>").named("v11.xml"))
        }
        #expect(delivered.map(\.description) == ["v11.xml: warning: " + Self.warning])
        #expect(error?.code == .badCharacterReference)
        #expect(error?.line == 1 && error?.column == 25)
        #expect(error?.message.hasSuffix("(the document declares XML version \"1.1\"; it is read by XML 1.0's rules)") == true)
    }

    @Test("the command line prints the warning on standard error and exits 0")
    func commandLine() throws {
        let path = FileManagerTemp.write(Data("<?xml version=\"1.1\"?>\n<r><i>1</i></r>\n".utf8), name: "version-1.1.xml")
        let commands = [
            ["check", path], ["events", path], ["extract", path, "--record", "i", "--field", "v=."],
            ["extract", "--no-namespaces", path, "--record", "i", "--field", "v=."],
        ]
        for arguments in commands {
            let result = try CommandRunner.run("saxdispatch", arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.error == "\(path): warning: " + Self.warning + "\n", "\(arguments)")
        }
    }

    @Test("check and events print the warning of a document that a later one's error ends the input after")
    func commandLineBeforeAnError() throws {
        let path = FileManagerTemp.write(
            Data("<?xml version=\"1.1\"?><a>x</a>\n<?xml version=\"1.0\"?><b><</b>\n".utf8), name: "version-1.1-then-error.xml")
        for command in ["check", "events"] {
            let result = try CommandRunner.run("saxdispatch", [command, "--concatenated", path])
            #expect(result.status == 1, "\(command)")
            #expect(result.error.hasPrefix("\(path): warning: document 1 declares XML version \"1.1\""), "\(command): \(result.error)")
            #expect(result.error.contains("\(path):2:26: error: not well-formed (invalid token)"), "\(command)")
        }
    }
}

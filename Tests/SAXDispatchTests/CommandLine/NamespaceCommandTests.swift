import Foundation
import SAXDispatch
import SAXDispatchTools
import Testing

/// Namespaces on the command line: `--no-namespaces` on every command that reads a
/// document, and `canon`, which always reads names as written.
@Suite("saxdispatch: namespaces")
struct NamespaceCommandTests {
    func saxdispatch(_ arguments: [String], input: String? = nil) throws -> CommandRunner.Result {
        try CommandRunner.run("saxdispatch", arguments, input: input.map { Data($0.utf8) })
    }

    // MARK: - Legacy documents

    /// Each command that reads a document and processes namespaces, with the arguments
    /// it needs besides FILE.
    static let readingCommands: [[String]] = [
        ["check"], ["stats"], ["paths"], ["events"], ["extract", "--record", "item", "--field", "sku:code"],
    ]

    @Test(
        "a prefix no declaration binds fails with its line and column and a note; --no-namespaces reads the document",
        arguments: readingCommands)
    func legacyDocument(_ command: [String]) throws {
        let path = TestPaths.fixture("legacy-prefixes.xml").path
        let failed = try saxdispatch([command[0], path] + command.dropFirst())
        #expect(failed.status == 1)
        #expect(
            failed.error == """
                \(path):4:5: error: unbound prefix (in catalog/item)
                \(path):4:5: note: no declaration binds this prefix; --no-namespaces reads the document with names as written

                """)
        let legacy = try saxdispatch([command[0], path] + command.dropFirst() + ["--no-namespaces"])
        #expect(legacy.status == 0, "\(legacy.error)")
        #expect(legacy.error.isEmpty)
    }

    @Test("--no-namespaces: names as written, in extract rows, paths and events")
    func legacyOutputs() throws {
        let path = TestPaths.fixture("legacy-prefixes.xml").path
        let rows = try saxdispatch(["extract", path, "--record", "item", "--field", "sku:code", "--no-namespaces"])
        #expect(rows.output == "{\"sku:code\":\"A-1\"}\n{\"sku:code\":\"B-2\"}\n")
        let paths = try saxdispatch(["paths", path, "--no-namespaces"])
        #expect(paths.output.contains("/catalog/item/sku:code "))
        #expect(!paths.output.contains("NAMESPACE"))
        // Without namespace processing, declarations are attributes like any other.
        let events = try saxdispatch(["events", "-", "--no-namespaces"], input: "<a xmlns:p='urn:p'><p:b/></a>")
        #expect(events.output.hasPrefix(#"{"event":"start","name":"a","depth":1,"line":1,"column":1,"attributes":{"xmlns:p":"urn:p"}}"#))
        let processed = try saxdispatch(["events", "-"], input: "<a xmlns:p='urn:p'><p:b/></a>")
        #expect(processed.output.hasPrefix(#"{"event":"start","name":"a","depth":1,"line":1,"column":1,"attributes":{}}"#))
    }

    @Test("canon reads names as written and takes no --no-namespaces; its help says how the modes differ")
    func canon() throws {
        let path = TestPaths.fixture("legacy-prefixes.xml").path
        let result = try saxdispatch(["canon", path])
        #expect(result.status == 0)
        #expect(result.output.contains("<sku:code>A-1</sku:code>"))
        let option = try saxdispatch(["canon", path, "--no-namespaces"])
        #expect(option.status == 2)
        let help = try saxdispatch(["canon", "--help"]).output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("Names are read as written, without namespace processing"))
        #expect(help.contains("process namespaces unless given --no-namespaces"))
    }
}

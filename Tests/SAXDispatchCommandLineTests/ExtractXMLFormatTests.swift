import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// `extract --format xml`: each record element whole, one per line, standing alone.
@Suite("saxdispatch extract --format xml")
struct ExtractXMLFormatTests {
    func saxdispatch(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.run("saxdispatch", arguments, input: nil)
    }

    @Test("each spelling's entries come out one per line, each a document of its own that reads as the same entry")
    func spellings() throws {
        var titlesBySpelling: [[String]] = []
        for fixture in NamespaceCommandTests.spellings {
            let result = try saxdispatch([
                "extract", TestPaths.fixture(fixture).path, "-N", "atom=\(NamespaceCommandTests.atom)",
                "--record", "atom:entry", "--format", "xml",
            ])
            #expect(result.status == 0, "\(result.error)")
            let lines = result.output.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(fixture): \(result.output)")
            var titles: [String] = []
            for line in lines {
                var dispatcher = Dispatcher()
                dispatcher.namespaces = ["atom": NamespaceCommandTests.atom]
                dispatcher.onEnd("/atom:entry/atom:title") { _, text in titles.append(text) }
                try dispatcher.parse(.string(line))
            }
            titlesBySpelling.append(titles)
        }
        #expect(titlesBySpelling.allSatisfy { $0 == ["One", "Two"] })
    }

    @Test("a line feed in text is a character reference, so a record stays on its line; --field is refused")
    func lineFeeds() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("xml-format-\(UUID().uuidString).xml")
        try Data("<r><item a=\"1\">two\nlines</item></r>".utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let result = try saxdispatch(["extract", path.path, "--record", "item", "--format", "xml"])
        #expect(result.output == "<item a=\"1\">two&#10;lines</item>\n")
        let refused = try saxdispatch(["extract", path.path, "--record", "item", "--field", "a=@a", "--format", "xml"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("--format xml writes each record element whole: leave out --field"))
    }

    @Test("nested records come out as they end, the inner before the one around it, in every format")
    func nestedRecordsInEndOrder() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("xml-format-\(UUID().uuidString).xml")
        try Data("<r><rec n=\"1\"><rec n=\"2\"/><rec n=\"3\"/></rec><rec n=\"4\"/></r>".utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let xml = try saxdispatch(["extract", path.path, "--record", "rec", "--format", "xml"])
        #expect(
            xml.output
                == "<rec n=\"2\"/>\n<rec n=\"3\"/>\n<rec n=\"1\"><rec n=\"2\"/><rec n=\"3\"/></rec>\n"
                + "<rec n=\"4\"/>\n")
        let rows = try saxdispatch(["extract", path.path, "--record", "rec", "--field", "n=@n:int"])
        #expect(rows.output == "{\"n\":2}\n{\"n\":3}\n{\"n\":1}\n{\"n\":4}\n")
    }
}

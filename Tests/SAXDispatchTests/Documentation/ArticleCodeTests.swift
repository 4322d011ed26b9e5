import Foundation
import Testing

/// The DocC catalog's articles and the test sources that run their code.
enum DocumentationCatalog {
    /// The package root, found from this file's location (Tests/SAXDispatchTests/Documentation/).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let catalog = packageRoot.appendingPathComponent("Sources/SAXDispatch/SAXDispatch.docc")
    static let testDirectory = packageRoot.appendingPathComponent("Tests/SAXDispatchTests/Documentation")

    /// The articles the landing page must link, each with a test file named after it.
    static let articles = [
        "GettingStarted", "ReadingInput", "CompressedInput", "HandlersAndAncestors", "RoutingAndPatterns", "TextAndWhitespace",
        "TypedRecords", "Codable", "AsyncStreams", "Errors", "SafetyProfiles", "Performance", "XMLNamespaces",
        "CommandLineTool", "EmptyValues", "OneDocumentOnManyCores", "WritingXML", "EncodingRecords", "TransformingDocuments",
    ]

    /// The text of a file in the catalog, such as `Errors.md`.
    static func text(of file: String) throws -> String {
        try String(contentsOf: catalog.appendingPathComponent(file), encoding: .utf8)
    }

    /// Every `.md` file in the catalog, by name.
    static func markdownFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }.sorted()
    }

    /// The fenced code blocks of `markdown` in `language` (```` ```swift ````), each as its lines.
    static func blocks(in markdown: String, language: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in markdown.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var lines = current {
                if trimmed == "```" {
                    blocks.append(lines)
                    current = nil
                } else {
                    lines.append(line)
                    current = lines
                }
            } else if trimmed == "```" + language {
                current = []
            }
        }
        return blocks
    }

    /// The ```` ```text ```` blocks of an article (rendered errors and messages), each as one string.
    static func textBlocks(of article: String) throws -> [String] {
        blocks(in: try text(of: article), language: "text").map { $0.joined(separator: "\n") }
    }

    /// Lines with their surrounding whitespace removed and blank lines dropped.
    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether `block` occurs as a contiguous run of lines in `lines`.
    static func contains(_ lines: [String], run block: [String]) -> Bool {
        guard !block.isEmpty else { return true }
        guard lines.count >= block.count else { return false }
        for start in 0...(lines.count - block.count) where lines[start] == block[0] {
            if Array(lines[start..<(start + block.count)]) == block { return true }
        }
        return false
    }

    /// The normalized lines of each `*ArticleTests.swift` file, by file name.
    static func articleTestSources() throws -> [String: [String]] {
        var sources: [String: [String]] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: testDirectory.path)
        where file.hasSuffix("ArticleTests.swift") {
            let text = try String(contentsOf: testDirectory.appendingPathComponent(file), encoding: .utf8)
            sources[file] = normalized(text.components(separatedBy: "\n"))
        }
        return sources
    }

    /// The `swift` blocks of `markdown` that no test source holds, each named by its first line.
    static func untestedBlocks(in markdown: String, sources: [String: [String]]) -> [String] {
        blocks(in: markdown, language: "swift").map(normalized).compactMap { block in
            sources.values.contains { contains($0, run: block) } ? nil : (block.first ?? "(an empty block)")
        }
    }
}

@Suite("Documentation: every article's Swift code runs in a test")
struct ArticleCodeTests {
    @Test("every ```swift block of every article appears verbatim in a Documentation test")
    func everyBlockIsTested() throws {
        let sources = try DocumentationCatalog.articleTestSources()
        #expect(!sources.isEmpty, "no *ArticleTests.swift files in \(DocumentationCatalog.testDirectory.path)")
        var blockCount = 0
        for file in try DocumentationCatalog.markdownFiles() {
            let markdown = try DocumentationCatalog.text(of: file)
            blockCount += DocumentationCatalog.blocks(in: markdown, language: "swift").count
            for firstLine in DocumentationCatalog.untestedBlocks(in: markdown, sources: sources) {
                Issue.record("\(file): the swift block starting \"\(firstLine)\" is not in any Documentation/*ArticleTests.swift")
            }
        }
        #expect(blockCount > 0, "the articles have no swift blocks to check")
    }

    @Test("the articles exist, each with its test file, and the landing page links every one")
    func articlesAreLinked() throws {
        let files = Set(try DocumentationCatalog.markdownFiles())
        let landing = try DocumentationCatalog.text(of: "SAXDispatch.md")
        let tests = Set(try FileManager.default.contentsOfDirectory(atPath: DocumentationCatalog.testDirectory.path))
        for article in DocumentationCatalog.articles {
            #expect(files.contains("\(article).md"), "\(article).md is missing from the catalog")
            #expect(landing.contains("<doc:\(article)>"), "SAXDispatch.md does not link <doc:\(article)>")
            #expect(tests.contains("\(article)ArticleTests.swift"), "Documentation/\(article)ArticleTests.swift is missing")
        }
    }

    @Test("the check notices a block that differs from its test by one line")
    func checkNoticesAnEditedBlock() throws {
        let sources = ["Example.swift": DocumentationCatalog.normalized(["let a = 1", "  let b = a + 1", "", "print(b)"])]
        let tested = "Text.\n\n```swift\nlet a = 1\nlet b = a + 1\n\nprint(b)\n```\n"
        let edited = "Text.\n\n```swift\nlet a = 1\nlet b = a + 2\nprint(b)\n```\n"
        #expect(DocumentationCatalog.untestedBlocks(in: tested, sources: sources).isEmpty)
        #expect(DocumentationCatalog.untestedBlocks(in: edited, sources: sources) == ["let a = 1"])
    }
}

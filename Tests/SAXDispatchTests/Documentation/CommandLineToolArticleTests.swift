import Foundation
import SAXDispatchTestSupport
import Testing

/// CommandLineTool.md has no Swift code: its ```console examples are run by
/// `SAXDispatchCommandLineTests/ReadmeCommandLineTests.swift`. These tests keep the rest of
/// the manual true of the tool: every option it names is one the tool takes, and every
/// command has its section.
@Suite("Article: Command-line tool")
struct CommandLineToolArticleTests {
    static let commands = ["stats", "paths", "extract", "check", "canon", "events", "split", "filter"]

    let article: String

    init() throws {
        article = try DocumentationCatalog.text(of: "CommandLineTool.md")
    }

    @Test("every option the manual names is in the tool's help")
    func options() throws {
        var help = try CommandRunner.run("saxdispatch", ["--help"]).output
        for command in Self.commands {
            help += try CommandRunner.run("saxdispatch", ["help", command]).output
        }
        let named = Set(article.matches(of: /--[a-z][a-z-]*/).map { String($0.output) })
        #expect(named.count >= 10, "the manual names only \(named.sorted())")
        for option in named.sorted() {
            #expect(help.contains(option), "the manual names \(option), which no command's help mentions")
        }
        #expect(article.contains("-N PREFIX=URI") && help.contains("-N"))
    }

    @Test("every command has a section, with a console example")
    func sections() {
        let headings = article.split(separator: "\n").filter { $0.hasPrefix("### ") }.joined(separator: "\n")
        for command in Self.commands {
            #expect(headings.contains(command), "no section for \(command)")
        }
        #expect(article.contains("```console"))
    }
}

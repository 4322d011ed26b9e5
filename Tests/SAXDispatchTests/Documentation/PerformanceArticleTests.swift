import Foundation
import Testing

/// Performance.md has no Swift code; these tests keep its figures equal to the README's
/// Performance section and its instructions true of the benchmark runner.
@Suite("Article: Performance")
struct PerformanceArticleTests {
    let article: String
    /// README.md followed by Benchmarks/RESULTS.md, where the README's detailed measurements live.
    let readme: String

    init() throws {
        article = try DocumentationCatalog.text(of: "Performance.md")
        let root = DocumentationCatalog.packageRoot
        readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8) + "\n"
            + String(contentsOf: root.appendingPathComponent("Benchmarks/RESULTS.md"), encoding: .utf8)
    }

    /// The rows of the Markdown tables in `text` (lines starting with `|`), headers and rules included.
    func tableRows(_ text: String) -> [String] {
        text.components(separatedBy: "\n").filter { $0.hasPrefix("|") }
    }

    @Test("every table row of the article is a row of the README, figure for figure")
    func figuresMatchTheReadme() {
        let readmeRows = Set(tableRows(readme))
        let rows = tableRows(article)
        #expect(rows.count == 19, "the results table (7 rows) and the instructions table (12 rows)")
        for row in rows {
            #expect(readmeRows.contains(row), "not in README.md: \(row)")
        }
    }

    /// `text` with every run of whitespace (line breaks included) made one space.
    func flowed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test("the figures quoted in prose are the README's")
    func proseFigures() {
        let readme = flowed(readme), article = flowed(article)
        for figure in [
            "1,472 on zoo extract", "189 on wiki extract", "11,800–44,500", "65,000–151,000", "97,000–795,000",
            "13.1 MiB on a 100 MiB zoo and 13.1 MiB on 1 GiB", "1.19 / 1.15 / 1.15×", "567M", "2.8%", "0–21%",
            "75% of the bytes", "saves 15% of the CPU time but only 2% of the instructions",
        ] {
            #expect(readme.contains(figure), "README.md and Benchmarks/RESULTS.md no longer say \(figure)")
        }
        for figure in [
            "1,472 on zoo extract", "189 on wiki extract", "11,800–44,500", "65,000–151,000", "97,000–795,000",
            "13.1 MiB on a 100 MiB zoo and 13.1 MiB on 1 GiB", "1.19, 1.15 and 1.15", "1.41, 1.70 and 1.23",
            "567M of the C program's 573M", "2.8%", "0–21%", "75% of the bytes", "saves 15% of the CPU time and 2% of the instructions",
        ] {
            #expect(article.contains(figure), "Performance.md no longer says \(figure)")
        }
    }

    @Test("the runner has every option the article names")
    func runnerOptions() throws {
        let runner = try String(
            contentsOf: DocumentationCatalog.packageRoot.appendingPathComponent("Benchmarks/run"), encoding: .utf8)
        for option in [
            "--rounds", "--size-mib", "--shapes", "--tasks", "--callgrind", "--memory", "--routing", "--smoke",
            "--contenders", "--streaming-only", "--no-build",
        ] {
            #expect(article.contains(option), "Performance.md does not mention \(option)")
            #expect(runner.contains("\"\(option)\""), "Benchmarks/run has no \(option)")
        }
        for variant in ["\"paths\"", "\"skip\"", "\"paths50\"", "\"object\"", "\"records\"", "\"decodable\"", "\"async\""] {
            #expect(runner.contains(variant), "Benchmarks/run has no routing variant \(variant)")
        }
    }
}

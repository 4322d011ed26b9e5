import Foundation
import SAXDispatch
import Testing

/// Performance.md's two handler forms run here word for word; these tests also keep its figures equal to the README's
/// one table and to Benchmarks/RESULTS.md with its pages, and its instructions true of the benchmark runner.
@Suite("Article: Performance")
struct PerformanceArticleTests {
    let article: String
    /// README.md alone: its one performance table.
    let readmeOnly: String
    /// Benchmarks/RESULTS.md followed by its pages in Benchmarks/Results/, where the detailed
    /// measurements live.
    let results: String
    /// README.md followed by Benchmarks/RESULTS.md and its pages.
    let readme: String

    init() throws {
        article = try DocumentationCatalog.text(of: "Performance.md")
        let root = DocumentationCatalog.packageRoot
        readmeOnly = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let pages = root.appendingPathComponent("Benchmarks/Results")
        let pageURLs = try FileManager.default.contentsOfDirectory(atPath: pages.path)
            .filter { $0.hasSuffix(".md") }.sorted().map { pages.appendingPathComponent($0) }
        results = try ([root.appendingPathComponent("Benchmarks/RESULTS.md")] + pageURLs)
            .map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
        readme = readmeOnly + "\n" + results
    }

    /// The Markdown tables of `text` (runs of lines starting with `|`), each as its rows,
    /// header and rule included.
    func tables(_ text: String) -> [[String]] {
        var tables: [[String]] = []
        var current: [String] = []
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("|") {
                current.append(line)
            } else if !current.isEmpty {
                tables.append(current)
                current = []
            }
        }
        if !current.isEmpty { tables.append(current) }
        return tables
    }

    @Test("the README has one table, and the article's results table is that table, row for row")
    func resultsTableIsTheReadmes() throws {
        let readmeTables = tables(readmeOnly)
        #expect(readmeTables.count == 1, "README.md should have one table, the performance table")
        let articleTables = tables(article)
        try #require(articleTables.count == 2, "the results table and the instructions table")
        #expect(articleTables[0].count == 7)
        #expect(articleTables[0] == readmeTables.first)
    }

    @Test("every row of the article's instructions table is a row of Benchmarks/RESULTS.md or its pages")
    func instructionsMatchTheResults() throws {
        let resultRows = Set(tables(results).joined())
        let articleTables = tables(article)
        try #require(articleTables.count == 2)
        #expect(articleTables[1].count == 12)
        for row in articleTables[1] {
            #expect(resultRows.contains(row), "not in Benchmarks/RESULTS.md or its pages: \(row)")
        }
    }

    /// `text` with every run of whitespace (line breaks included) made one space.
    func flowed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test("the figures quoted in prose are those of the README and Benchmarks/RESULTS.md")
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
        // The command line, and the module of each kind of run it imports.
        let benchmarks = DocumentationCatalog.packageRoot.appendingPathComponent("Benchmarks")
        let modules = benchmarks.appendingPathComponent("runner")
        let moduleURLs = try FileManager.default.contentsOfDirectory(atPath: modules.path)
            .filter { $0.hasSuffix(".py") }.sorted().map { modules.appendingPathComponent($0) }
        let runner = try ([benchmarks.appendingPathComponent("run")] + moduleURLs)
            .map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
        for option in [
            "--rounds", "--size-mib", "--shapes", "--tasks", "--callgrind", "--memory", "--routing", "--smoke",
            "--contenders", "--streaming-only", "--no-build",
        ] {
            #expect(article.contains(option), "Performance.md does not mention \(option)")
            #expect(runner.contains("\"\(option)\""), "Benchmarks/run and runner/ have no \(option)")
        }
        for variant in ["\"paths\"", "\"skip\"", "\"paths50\"", "\"object\"", "\"records\"", "\"decodable\"", "\"async\""] {
            #expect(runner.contains(variant), "Benchmarks/runner has no routing variant \(variant)")
        }
    }

    static let closuresDocument = "<zoo><animal><name>cat</name></animal><animal/></zoo>"

    @Test("the closure form of \"Closures or a handler object\" counts every element")
    func closureFormCounts() throws {
        var dispatcher = Dispatcher()
        var elements = 0
        dispatcher.onStart("*") { _ in elements += 1 }
        try dispatcher.parse(.string(Self.closuresDocument))
        #expect(elements == 4)
    }

    @Test("the handler type of \"Closures or a handler object\" counts every element")
    func handlerTypeCounts() throws {
        struct Counter: ElementHandlers {
            var elements = 0
            static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
                handlers.onStart("*") { counter, _ in counter.elements += 1 }
            }
        }
        var counter = Counter()
        try counter.parse(.string(Self.closuresDocument))
        #expect(counter.elements == 4)
    }
}

import Foundation
import SAXDispatchTestSupport
import SAXDispatchTools
import Testing

/// `check`, `stats`, `paths` and `extract` over many files: output in the order the files
/// were given whatever the job count, each failure named, the summary line and the exit
/// status, `--on-error continue` and `stop`.
@Suite("saxdispatch: many files")
struct ManyFilesCommandTests {
    /// A zoo of `animals` animals whose kinds say which file they come from: `f3-0`, `f3-1`…
    static func zoo(file: Int, animals: Int) -> String {
        "<zoo>\n" + (0..<animals).map { "<animal><kind>f\(file)-\($0)</kind></animal>\n" }.joined() + "</zoo>\n"
    }

    /// The set of files the tests read: a large one first (it finishes last), small ones,
    /// a malformed one, a gzip file, and an empty zoo; their animal counts.
    static let animals = [10_000, 2, -1, 5_000, 1, 0]
    static let directory: String = {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("saxdispatch-many-files-\(ProcessInfo.processInfo.processIdentifier)").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }()
    static let files: [String] = animals.enumerated().map { index, count in
        let path = "\(directory)/f\(index).xml"
        let text = count < 0 ? "<zoo>\n<animal><kind>f\(index)-0</kind>\n</zoo>\n" : zoo(file: index, animals: count)
        try? Data(text.utf8).write(to: URL(fileURLWithPath: path))
        guard index == 3 else { return path }
        return gzip(path)
    }
    static let bad = files[2]
    static let badError = "\(bad):3:3: error: mismatched tag (in zoo/animal)\n"

    /// Compresses `path` with the system's gzip, next to it.
    static func gzip(_ path: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-f", "-q", path]
        try? process.run()
        process.waitUntilExit()
        return path + ".gz"
    }

    /// The JSON Lines `extract --field kind` writes for file `index`.
    static func rows(_ index: Int) -> String {
        (0..<max(0, animals[index])).map { "{\"kind\":\"f\(index)-\($0)\"}\n" }.joined()
    }

    static let goodRecords = animals.filter { $0 > 0 }.reduce(0, +)

    func saxdispatch(_ arguments: [String], input: Data? = nil) throws -> CommandRunner.Result {
        try CommandRunner.run("saxdispatch", arguments, input: input)
    }

    @Test("extract: rows in file order whatever the job count, the failure named, the summary, exit 1", arguments: [1, 2, 8])
    func extractOrder(jobs: Int) throws {
        let result = try saxdispatch(
            ["extract"] + Self.files + ["--record", "animal", "--field", "kind", "--jobs", "\(jobs)"])
        #expect(result.status == 1)
        #expect(result.output == (0..<Self.files.count).map(Self.rows).joined())
        // The empty zoo's pattern that matched nothing is said; the failure decides the status.
        #expect(
            result.error
                == Self.badError + "\(Self.files[5]): warning: record pattern `animal` matched no element;"
                + " no element name in this document is close to `animal`\n"
                + "saxdispatch extract: 6 files read, 1 failed, \(ProgressMeter.grouped(Self.goodRecords)) records\n")
    }

    @Test("extract: the summary counts every row written, a failed file's rows before its error included", arguments: [1, 2])
    func extractCountsWrittenRows(jobs: Int) throws {
        // Two whole records, then a malformed element: the two rows are written before the error.
        let failing = FileManagerTemp.write(
            "<zoo>\n<animal><kind>x-0</kind></animal>\n<animal><kind>x-1</kind></animal>\n<oops></zoo>\n",
            name: "many-files-rows-then-error-\(jobs).xml")
        let result = try saxdispatch(
            ["extract", Self.files[1], failing, Self.files[4], "--record", "animal", "--field", "kind", "--jobs", "\(jobs)"])
        #expect(result.status == 1)
        let rows = result.output.split(separator: "\n")
        #expect(rows.count == 5)
        #expect(rows[2] == #"{"kind":"x-0"}"# && rows[3] == #"{"kind":"x-1"}"#)
        #expect(result.error.hasSuffix("saxdispatch extract: 3 files read, 1 failed, 5 records\n"))
    }

    @Test("extract: one CSV header for the rows of all the files")
    func extractHeader() throws {
        let good = [Self.files[1], Self.files[4], Self.files[3]]
        let result = try saxdispatch(["extract"] + good + ["--record", "animal", "--field", "kind", "--format", "csv"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.first == "kind")
        #expect(lines.count == 1 + 2 + 1 + 5_000)
        #expect(lines.filter { $0 == "kind" }.count == 1)
        #expect(lines[1...4] == ["f1-0", "f1-1", "f4-0", "f3-0"])
        #expect(result.error == "saxdispatch extract: 3 files read, 0 failed, 5,003 records\n")
    }

    @Test("check: --on-error continue reports every failure; stop starts no file after one", arguments: [1, 2])
    func checkPolicies(jobs: Int) throws {
        // A file of its own per case: the cases run at once.
        let worse = FileManagerTemp.write("<a>&x;</a>", name: "many-files-undefined-\(jobs).xml")
        let files = [Self.files[1], Self.bad, Self.files[4], worse, Self.files[5]]
        let continued = try saxdispatch(["check", "--jobs", "\(jobs)"] + files)
        #expect(continued.status == 1)
        #expect(continued.output.isEmpty)
        #expect(
            continued.error
                == Self.badError + "\(worse):1:4: error: undefined entity &x; (in a)\n"
                + "saxdispatch check: 5 files read, 2 failed\n")

        let stopped = try saxdispatch(["check", "--jobs", "1", "--on-error", "stop"] + files)
        #expect(stopped.status == 1)
        #expect(stopped.error == Self.badError + "saxdispatch check: 2 files read, 1 failed, 3 not started\n")

        let good = try saxdispatch(["check", "--jobs", "\(jobs)"] + [Self.files[0], Self.files[3], Self.files[5]])
        #expect(good.status == 0)
        #expect(good.output.isEmpty && good.error.isEmpty)
    }

    @Test("extract: --on-error stop with one job writes the files before the failure, then stops")
    func extractStop() throws {
        let result = try saxdispatch(
            ["extract"] + Self.files + ["--record", "animal", "--field", "kind", "--jobs", "1", "--on-error", "stop"])
        #expect(result.status == 1)
        #expect(result.output == Self.rows(0) + Self.rows(1))
        #expect(result.error == Self.badError + "saxdispatch extract: 3 files read, 1 failed, 3 not started, 10,002 records\n")

        // skip,stop: bad records are skipped, and a malformed file still stops the run.
        let skipping = try saxdispatch(
            [Self.files[1], Self.bad, Self.files[4]].reduce(["extract"]) { $0 + [$1] }
                + ["--record", "animal", "--field", "n:int", "--jobs", "1", "--on-error", "skip,stop"])
        #expect(skipping.status == 1)
        #expect(skipping.output.isEmpty)
        #expect(skipping.error.contains("saxdispatch: skipped 2 of 2 records that could not be built\n"))
        #expect(skipping.error.hasSuffix(Self.badError + "saxdispatch extract: 2 files read, 1 failed, 1 not started, 0 records\n"))
    }

    @Test("stats: a row per file in order, a total row, the summary; a failed file has no row", arguments: [1, 2, 8])
    func stats(jobs: Int) throws {
        let files = [Self.files[1], Self.bad, Self.files[3], Self.files[5]]
        let result = try saxdispatch(["stats", "--jobs", "\(jobs)"] + files)
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Each row holds what `stats FILE` reports for that file alone.
        let good = [files[0], files[2], files[3]]
        let alone = try good.map { file in
            let table = try saxdispatch(["stats", file]).output
            var values: [String: Int] = [:]
            for line in table.split(separator: "\n") {
                let label = String(line.prefix(16)).trimmingCharacters(in: .whitespaces)
                values[label] = Int(line.dropFirst(16).replacingOccurrences(of: ",", with: ""))
            }
            return values
        }
        func row(_ values: [String: Int], _ name: String) -> String {
            let cells = ["elements", "distinct names", "maximum depth", "attributes", "text bytes", "bytes read"].map {
                ProgressMeter.grouped(values[$0] ?? -1)
            }
            return zip(cells, [14, 7, 6, 13, 17, 17]).map { String(repeating: " ", count: $1 - $0.count) + $0 }
                .joined(separator: " ") + "  " + name
        }
        #expect(lines[0] == "      ELEMENTS   NAMES  DEPTH    ATTRIBUTES        TEXT BYTES        BYTES READ  FILE")
        #expect(Array(lines[1...3]) == zip(alone, good).map { row($0, $1) })
        var total: [String: Int] = [:]
        for values in alone { total.merge(values) { $0 + $1 } }
        total["distinct names"] = 3  // zoo, animal, kind: counted once over the files
        total["maximum depth"] = 3
        #expect(total["elements"] == 10_007)
        #expect(lines[4] == row(total, "total (3 files)"))
        #expect(lines[5].hasPrefix("elapsed "))
        #expect(lines[6].hasPrefix("throughput "))
        #expect(lines[7].hasPrefix("peak memory "))
        #expect(lines.count == 9 && lines[8].isEmpty)
        #expect(result.error == Self.badError + "saxdispatch stats: 4 files read, 1 failed, 10,007 elements\n")
    }

    @Test("paths: one census over the files, counts added up")
    func paths() throws {
        let files = [Self.files[1], Self.files[3], Self.bad]
        let result = try saxdispatch(["paths", "--jobs", "2"] + files)
        #expect(result.status == 1)
        #expect(
            result.output
                == """
                PATH              COUNT  DEPTH  BELOW  ATTRIBUTES
                /zoo                  3      1      2
                /zoo/animal       5,003      2      1
                /zoo/animal/kind  5,003      3      0

                """)
        #expect(result.error == Self.badError + "saxdispatch paths: 3 files read, 1 failed, 10,009 elements\n")
    }

    @Test("standard input at most once; --jobs at least 1")
    func usage() throws {
        let twice = try saxdispatch(["check", "-", Self.files[1], "-"])
        #expect(twice.status == 2)
        #expect(twice.error.contains("'-' (standard input) can be read only once"))
        let none = try saxdispatch(["paths", "--jobs", "0", Self.files[1]])
        #expect(none.status == 2)
        #expect(none.error.contains("--jobs must be at least 1"))
        let mixed = try saxdispatch(
            ["extract", Self.files[1], "-", "--record", "animal", "--field", "kind"], input: Data(Self.zoo(file: 9, animals: 1).utf8))
        #expect(mixed.status == 0)
        #expect(mixed.output == Self.rows(1) + "{\"kind\":\"f9-0\"}\n")
    }

    @Test("--progress always: files done of all, bytes of all, decompressed throughput for gzip")
    func progress() throws {
        let result = try saxdispatch(["check", "--progress", "always", "--jobs", "2", Self.files[0], Self.files[3]])
        #expect(result.status == 0)
        #expect(result.error.contains(" / 2 files  "))
        #expect(result.error.contains("2 / 2 files"))
        #expect(result.error.contains("MB/s decompressed)"))
        #expect(result.error.hasSuffix("\r\u{1B}[K"))
    }

    @Test("on one terminal, the rows of stats are written with the progress line erased first")
    func progressAndRowsOnOneTerminal() throws {
        let result = try PseudoTerminal.run(
            "saxdispatch", ["stats", "--progress", "always", "--jobs", "2", Self.files[0], Self.files[3]],
            standardOutputToo: true)
        #expect(result.status == 0)
        let text = result.terminal
        let header = try #require(text.range(of: "      ELEMENTS"))
        #expect(text[..<header.lowerBound].contains(" / 2 files  "), "the line was drawn before the table")
        #expect(text[..<header.lowerBound].hasSuffix("\r\u{1B}[K"))
        #expect(text.contains("total (2 files)"))
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = ProgressMeter.grouped(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    @Test("files parsed at once share the processors for bzip2's blocks: several threads only from four processors each")
    func decompressionShare() {
        #expect(ReadProgress.decompressionThreads(processors: 2, inputsAtOnce: 2) == 1)
        #expect(ReadProgress.decompressionThreads(processors: 8, inputsAtOnce: 8) == 1)
        #expect(ReadProgress.decompressionThreads(processors: 8, inputsAtOnce: 2) == 3)
        #expect(ReadProgress.decompressionThreads(processors: 64, inputsAtOnce: 4) == 8)
        #expect(ReadProgress.decompressionThreads(processors: 16, inputsAtOnce: 5) == 1)
    }
}

import Foundation
import SAXDispatchTestSupport
import Testing

/// `check`, `stats` and `paths` with `--jobs N` on one file read it in ranges on N threads:
/// their output is that of `--jobs 1` (apart from the times and memory `stats` measures),
/// their first error too.
@Suite("saxdispatch check, stats and paths --jobs on one file")
struct OneFileJobsTests {
    /// Writes a document of about 3.3 MB (several ranges): namespaced records with
    /// attributes, comments and CDATA, and `tail` before the root's end tag.
    static func document(_ name: String, tail: String = "", rootText: String = "") -> String {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE db [<!ENTITY e \"é\">]>\n<db xmlns=\"urn:db\" xmlns:g=\"urn:g\">\n"
        for index in 0..<60_000 {
            text += "  <row n=\"\(index)\" g:k=\"v\"><name>r&e;\(index)</name>"
            text += index % 17 == 0 ? "<!-- <row> --><![CDATA[<row n='x'>]]>" : ""
            text += index % 5000 == 0 ? "<g:deep><g:x><y a='1'/></g:x></g:deep>" : ""
            text += "</row>\(rootText)\n"
        }
        text += tail + "</db>\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("one-file-jobs-\(name)-\(text.utf8.count).xml").path
        // One file per content, written whole or not at all: runs at once share it, and none leaves one of its own.
        try? Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    static let wellFormed = document("ok")
    /// Malformed near its end, in the last range.
    static let malformed = document("bad", tail: "<row><name></row>\n")

    func run(_ arguments: [String], jobs: Int) throws -> CommandRunner.Result {
        try CommandRunner.run("saxdispatch", arguments + ["--jobs", "\(jobs)"])
    }

    /// `stats` without its measured lines: elapsed time, throughput, peak memory.
    func counts(_ output: String) -> String {
        output.split(separator: "\n").filter { !["elapsed", "throughput", "peak memory"].contains(where: $0.hasPrefix) }
            .joined(separator: "\n")
    }

    @Test(
        "the same output as --jobs 1",
        arguments: [
            ["paths"], ["paths", "--samples"], ["paths", "--sort", "count", "--format", "jsonl"], ["paths", "--no-namespaces"],
            ["check"], ["stats"],
        ])
    func sameOutput(_ command: [String]) throws {
        let arguments = [command[0], Self.wellFormed] + command.dropFirst()
        let one = try run(arguments, jobs: 1)
        #expect(one.status == 0)
        for jobs in [2, 3] {
            let many = try run(arguments, jobs: jobs)
            #expect(many.status == one.status)
            #expect(many.error == one.error)
            if command[0] == "stats" {
                #expect(counts(many.output) == counts(one.output))
                #expect(counts(one.output).contains("elements        120,037"))
            } else {
                #expect(many.output == one.output)
            }
        }
    }

    @Test("a malformed file: the same first error, and the paths before it", arguments: ["check", "stats", "paths"])
    func sameError(_ command: String) throws {
        let one = try run([command, Self.malformed], jobs: 1)
        let two = try run([command, Self.malformed], jobs: 2)
        #expect(one.status == 1)
        #expect(one.error.contains("mismatched tag"))
        #expect(two.status == one.status)
        #expect(two.error == one.error)
        #expect(two.output == one.output)
    }

    @Test("limits that only the whole document breaks: the root's text, and more paths than --max-entries")
    func wholeDocumentLimits() throws {
        // Each range of the root's text is under the limit; all of it is not.
        let path = Self.document("text", rootText: "some text of the root ")
        for command in ["check"] {
            let one = try run([command, path, "--limit", "text-bytes=400K"], jobs: 1)
            let two = try run([command, path, "--limit", "text-bytes=400K"], jobs: 2)
            #expect(one.status == 1 && one.error.contains("text"), "\(command): \(one.error)")
            #expect(two.status == 1)
            #expect(two.error == one.error)
        }
        let samples = try run(["paths", path, "--samples"], jobs: 1)
        #expect(try run(["paths", path, "--samples"], jobs: 2).output == samples.output)
        let one = try run(["paths", Self.wellFormed, "--max-entries", "8"], jobs: 1)
        let two = try run(["paths", Self.wellFormed, "--max-entries", "8"], jobs: 2)
        #expect(one.status == 1)
        #expect(two.status == 1 && two.error == one.error && two.output == one.output)
    }

    /// Records that each bring attribute and element names no record before had: the
    /// names fill expat's memory budget only over the whole file.
    static let manyNames: String = {
        var text = "<db>\n"
        for index in 0..<20_000 { text += "  <row n=\"\(index)\" a\(index)=\"v\"><c\(index)/></row>\n" }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("one-file-jobs-names-\(text.utf8.count).xml").path
        // One file per content, written whole or not at all: runs at once share it, and none leaves one of its own.
        try? Data((text + "</db>\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }()

    @Test(
        "names that break expat's memory budget only over the whole file: the same output and first error as --jobs 1",
        arguments: ["1M", "2M", "64M"])
    func memoryBudgetOverTheWholeFile(_ limit: String) throws {
        let commands = [
            ["check"], ["stats"], ["paths"], ["extract", "--record", "row", "--field", "n=@n:int"],
        ]
        var failed = 0
        for command in commands {
            let arguments = [command[0], Self.manyNames] + command.dropFirst() + ["--limit", "memory-bytes=\(limit)"]
            let one = try run(arguments, jobs: 1)
            let two = try run(arguments, jobs: 2)
            #expect(two.status == one.status, "\(command) \(limit)")
            #expect(two.error == one.error, "\(command) \(limit)")
            if command[0] == "stats" {
                #expect(counts(two.output) == counts(one.output), "\(command) \(limit)")
            } else {
                #expect(two.output == one.output, "\(command) \(limit)")
            }
            if one.error.contains("maximumParserMemoryBytes") { failed += 1 }
        }
        // The small limits end every command mid-file; the default holds the whole file.
        #expect(failed == (limit == "64M" ? 0 : commands.count), "\(limit)")
    }

    @Test(
        "a compressed file, decompressed as the framing pass reads it: the same output as --jobs 1",
        arguments: ["gzip", "bzip2", "xz", "zstd"])
    func compressed(_ compressor: String) throws {
        let tool = ["/usr/bin", "/bin", "/usr/local/bin"].map { "\($0)/\(compressor)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let tool else {
            print("skipped: no \(compressor) command to make the compressed file")
            return
        }
        let path = Self.wellFormed + "." + compressor
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-c", "-q", Self.wellFormed]
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        try output.close()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(process.terminationStatus == 0)
        for command in [["extract", path, "--record", "row", "--field", "n=@n:int", "--field", "name"], ["paths", path], ["check", path]] {
            let one = try run(command, jobs: 1)
            let two = try run(command, jobs: 2)
            #expect(one.status == 0, "\(command): \(one.error)")
            #expect(two.output == one.output && two.error == one.error && two.status == one.status, "\(command)")
        }
        #expect(try run(["extract", path, "--record", "row", "--field", "n=@n:int"], jobs: 1).output.split(separator: "\n").count == 60_000)
    }
}

import Foundation
import SAXDispatchTools
import Testing

/// What every document-reading command shares: standard input for `-`, exit codes, the
/// error format, the safety options and the progress display.
@Suite("saxdispatch: every command's conventions")
struct CommandConventionsTests {
    /// Each command that reads one document, with the arguments it needs besides FILE.
    static let commands: [[String]] = [
        ["stats"], ["paths"], ["extract", "--record", "animal", "--field", "kind"], ["check"], ["canon"], ["events"],
    ]

    func run(_ command: [String], _ file: String, _ options: [String] = [], input: String? = nil) throws
        -> CommandRunner.Result
    {
        try CommandRunner.run(
            "saxdispatch", [command[0], file] + command.dropFirst() + options, input: input.map { Data($0.utf8) })
    }

    /// A zoo document of about 5 MB (more than the 4 MB before `auto` draws), written once.
    static let largeDocument: String = {
        var bytes: [UInt8] = []
        ZooSample(targetSize: 5_000_000).generate { bytes += $0 }
        return FileManagerTemp.write(Data(bytes), name: "large-zoo.xml")
    }()

    @Test("a malformed document on standard input: exit 1 and FILE:LINE:COLUMN: error: message", arguments: commands)
    func malformedInput(_ command: [String]) throws {
        let result = try run(command, "-", input: "<zoo>\n  <animal></zoo>")
        #expect(result.status == 1)
        #expect(result.error == "-:2:13: error: mismatched tag (in zoo/animal)\n")
    }

    @Test("a file that cannot be opened: exit 1 and a message naming it", arguments: commands)
    func missingFile(_ command: [String]) throws {
        let result = try run(command, "/nonexistent/zoo.xml")
        #expect(result.status == 1)
        #expect(result.error == "/nonexistent/zoo.xml: error: cannot open file: No such file or directory\n")
        #expect(result.output.isEmpty)
    }

    @Test("a usage error: exit 2, the problem and the usage line", arguments: commands)
    func usageError(_ command: [String]) throws {
        let unknown = try run(command, "-", ["--no-such-option"], input: "<zoo/>")
        #expect(unknown.status == 2)
        #expect(unknown.error.hasPrefix("Error: Unknown option '--no-such-option'\nUsage: saxdispatch \(command[0]) "))
        let badLimit = try run(command, "-", ["--limit", "depth=lots"], input: "<zoo/>")
        #expect(badLimit.status == 2)
        #expect(badLimit.error.contains("--limit: 'lots' is not a count, a size such as 16M, or 'unlimited'"))
        let badChunk = try run(command, "-", ["--chunk-size", "0"], input: "<zoo/>")
        #expect(badChunk.status == 2)
        #expect(badChunk.error.contains("--chunk-size must be at least 1"))
    }

    @Test("the safety options apply: --limit and --strict", arguments: commands)
    func safetyOptions(_ command: [String]) throws {
        let deep = try run(command, TestPaths.fixture("zoo.xml").path, ["--limit", "depth=3"])
        #expect(deep.status == 1)
        #expect(
            deep.error == "\(TestPaths.fixture("zoo.xml").path):4:13: error: elements nest deeper than maximumDepth (3) "
                + "(in zoo/animals/animal)\n")
        let subset = "<!DOCTYPE zoo [<!ENTITY e 'x'>]><zoo>&e;</zoo>"
        #expect(try run(command, "-", input: subset).status == 0)
        let strict = try run(command, "-", ["--strict"], input: subset)
        #expect(strict.status == 1)
        #expect(strict.error.hasPrefix("-:1:"))
    }

    @Test("--chunk-size changes how the input is fed, not the output", arguments: commands)
    func chunkSize(_ command: [String]) throws {
        guard command[0] != "stats" else { return }  // stats prints timings
        let path = TestPaths.fixture("zoo.xml").path
        let whole = try run(command, path)
        let bytewise = try run(command, path, ["--chunk-size", "1"])
        #expect(whole.status == 0 && bytewise.status == 0)
        #expect(whole.output == bytewise.output)
    }

    @Test("progress: --progress always draws on standard error and erases it; auto draws nothing on a pipe",
          arguments: commands)
    func progressOnPipes(_ command: [String]) throws {
        let always = try run(command, TestPaths.fixture("zoo.xml").path, ["--progress", "always"])
        #expect(always.status == 0)
        #expect(always.error.hasPrefix("\r\u{1B}[K["))
        #expect(always.error.contains(" MB/s  "))
        #expect(always.error.contains(command[0] == "extract" ? " records  " : " elements  "))
        #expect(always.error.hasSuffix("\r\u{1B}[K"))
        #expect(always.error.contains("%  "), "a file's size is known: a bar and a percentage")
        let auto = try run(command, Self.largeDocument)
        #expect(auto.status == 0)
        #expect(auto.error.isEmpty)
        let piped = try run(command, "-", ["--progress", "always"], input: "<zoo><animal><kind>cat</kind></animal></zoo>")
        #expect(!piped.error.contains("%"), "a pipe's size is unknown: no bar, no percentage")
        #expect(piped.error.contains(" MB/s  "))
    }

    @Test("progress on a terminal: drawn for a large file, with a bar and the time left; nothing for a small one",
          arguments: commands)
    func progressOnTerminal(_ command: [String]) throws {
        let large = try PseudoTerminal.run("saxdispatch", [command[0], Self.largeDocument] + command.dropFirst())
        #expect(large.status == 0)
        #expect(large.terminal.hasPrefix("\r\u{1B}[K["))
        #expect(large.terminal.contains("%  "))
        #expect(large.terminal.contains(" / 5.0 MB  "))
        #expect(large.terminal.contains(" left"))
        #expect(large.terminal.hasSuffix("\r\u{1B}[K"))
        let small = try PseudoTerminal.run("saxdispatch", [command[0], TestPaths.fixture("zoo.xml").path] + command.dropFirst())
        #expect(small.status == 0)
        #expect(small.terminal.isEmpty)
    }

    @Test("--progress never draws nothing, even on a terminal and for a large file")
    func progressNever() throws {
        let never = try PseudoTerminal.run("saxdispatch", ["check", Self.largeDocument, "--progress", "never"])
        #expect(never.status == 0)
        #expect(never.terminal.isEmpty)
    }
}

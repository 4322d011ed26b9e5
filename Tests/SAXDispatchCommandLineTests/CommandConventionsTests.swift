import Foundation
import SAXDispatchTools
import SAXDispatchTestSupport
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
        let subset = "<!DOCTYPE zoo [<!ENTITY e 'x'>]><zoo><animal><kind>&e;</kind></animal></zoo>"
        #expect(try run(command, "-", input: subset).status == 0)
        let strict = try run(command, "-", ["--strict"], input: subset)
        #expect(strict.status == 1)
        #expect(strict.error.hasPrefix("-:1:"))
        #expect(strict.error.hasSuffix(" error: the DOCTYPE has an internal subset, which this profile forbids (allowsInternalSubset)\n"))
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

/// Review findings, kept as tests: what broke on real documents and terminals.
@Suite("saxdispatch: indentation, partial output, terminals and write errors")
struct CommandRobustnessTests {
    /// A root whose own text is 60 KB of indentation, with a text limit of 100 bytes.
    static let indented = "<r>" + String(repeating: "\n" + String(repeating: " ", count: 24) + "<a>t</a>", count: 2000) + "\n</r>"

    @Test("a container's indentation does not count towards the text limit", arguments: [
        ["paths", "--samples"], ["events"], ["check"], ["stats"], ["canon"], ["extract", "--record", "a", "--field", "."],
    ])
    func indentationIsNotText(_ command: [String]) throws {
        let result = try CommandRunner.run(
            "saxdispatch", [command[0], "-", "--limit", "text-bytes=100"] + command.dropFirst(), input: Data(Self.indented.utf8))
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
    }

    @Test("paths prints the paths seen before an error, then the error")
    func pathsPartial() throws {
        let result = try CommandRunner.run("saxdispatch", ["paths", "-", "--format", "jsonl"], input: Data("<r><a x='1'/><b>".utf8))
        #expect(result.status == 1)
        #expect(
            result.output == """
                {"path":"/r","count":1,"depth":1,"levelsBelow":1,"attributes":[],"namespaceURIs":[]}
                {"path":"/r/a","count":1,"depth":2,"levelsBelow":0,"attributes":["x"],"namespaceURIs":[]}
                {"path":"/r/b","count":1,"depth":2,"levelsBelow":0,"attributes":[],"namespaceURIs":[]}

                """)
        #expect(result.error == "-:1:17: error: the input ends before the root element is closed (in r/b)\n")
    }

    @Test("too many distinct paths: a document error at the element, with the paths before it")
    func tooManyPaths() throws {
        let result = try CommandRunner.run(
            "saxdispatch", ["paths", "-", "--max-entries", "3"], input: Data("<r>\n  <a/><b/>\n  <c x='1'/></r>".utf8))
        #expect(result.status == 1)
        #expect(result.error == "-:3:3: error: more than 3 distinct paths and attribute names (in r/c)\n")
        #expect(result.output.hasPrefix("PATH  COUNT  DEPTH  BELOW  ATTRIBUTES\n/r        1      1"))
    }

    @Test("canon writes everything before an error, however far it is past a 64 KiB flush")
    func canonPartial() throws {
        let body = String(repeating: "<a>x</a>", count: 10_000)
        let result = try CommandRunner.run("saxdispatch", ["canon", "-"], input: Data(("<r>" + body + "<b></c></r>").utf8))
        #expect(result.status == 1)
        #expect(result.output == "<r>" + body + "<b>")
    }

    @Test("canon hands its output on in pieces of about 64 KiB, inside long text and between many instructions too")
    func canonPieces() throws {
        // 1 MB of quotes (each escaped to six bytes) in one element, then 20,000 instructions.
        let document = "<r>" + String(repeating: "\"", count: 1 << 20) + "</r>" + String(repeating: "<?p?>", count: 20_000)
        let path = FileManagerTemp.write(Data(document.utf8), name: "canon-pieces.xml")
        var pieces: [Int] = []
        var total = 0
        try CanonicalXML().write(.file(path)) { piece in
            pieces.append(piece.count)
            total += piece.count
        }
        #expect(total == "<r></r>".utf8.count + 6 << 20 + "<?p ?>".utf8.count * 20_000)
        #expect(pieces.count > 50)
        #expect(pieces.allSatisfy { $0 <= (1 << 16) + 6 * (1 << 13) }, "largest piece \(pieces.max() ?? 0)")
    }

    @Test("values that would exhaust memory or overflow are usage errors")
    func optionBounds() throws {
        let chunk = try CommandRunner.run("saxdispatch", ["paths", "-", "--chunk-size", "100000000000000"], input: Data("<r/>".utf8))
        #expect(chunk.status == 2)
        #expect(chunk.error.contains("--chunk-size must be at least 1 and at most 1073741824 (1 GiB)"))
        let sample = try CommandRunner.run("saxdispatch", ["stats", "--sample-size", "99999999999999"])
        #expect(sample.status == 2)
        #expect(sample.error.contains("--sample-size must be at least 1 and at most 1000000"))
    }

    @Test("an error among 50,000-byte names 257 levels deep is one short line that names their start and says they were cut")
    func longNames() throws {
        let name = "averyveryverylongelementname_abcdefghijkl" + String(repeating: "x", count: 50_000 - 41)
        let deep = FileManagerTemp.write(String(repeating: "<\(name)>", count: 257), name: "long-names.xml")
        let record = FileManagerTemp.write(
            String(repeating: "<\(name)>", count: 250) + "<v>abc</v>" + String(repeating: "</\(name)>", count: 250),
            name: "long-names-record.xml")
        let runs = [
            ["check", deep], ["check", deep, "--limit", "depth=300"], ["paths", deep],
            ["extract", record, "--record", "v", "--field", ".:int", "--limit", "depth=300"],
        ]
        for arguments in runs {
            let result = try CommandRunner.run("saxdispatch", arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.error.utf8.count <= 1_000, "\(arguments): \(result.error.utf8.count) bytes")
            #expect(result.error.contains("/averyveryverylongelementname_abcdefghijk… (50000 bytes)/…/"), "\(arguments)")
        }
    }

    #if os(Linux)
    /// Every command that writes to standard output, with its FILE, and the texts the
    /// argument parser prints (help, version).
    static let writingCommands: [[String]] = CommandConventionsTests.commands.filter { $0[0] != "check" }.map {
        [$0[0], TestPaths.fixture("zoo.xml").path] + $0.dropFirst()
    } + [["stats", "--sample-size", "1"], ["paths", TestPaths.fixture("zoo.xml").path, "--format", "jsonl"],
         ["--help"], ["extract", "--help"], ["--version"]]

    @Test("standard output that cannot be written: exit 1 and a message, not silence", arguments: writingCommands)
    func writeError(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = TestPaths.productsDirectory.appendingPathComponent("saxdispatch")
        process.arguments = arguments
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let error = Pipe()
        process.standardError = error
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(message == "saxdispatch: error: cannot write standard output: No space left on device\n")
    }
    #endif

    @Test("on a terminal that shows the output too, a command that streams output draws no progress; one that does not, does")
    func progressBesideOutput() throws {
        let streaming = try PseudoTerminal.run(
            "saxdispatch", ["events", CommandConventionsTests.largeDocument], standardOutputToo: true)
        #expect(streaming.status == 0)
        #expect(!streaming.terminal.contains(" MB/s  "))
        #expect(streaming.terminal.contains(#"{"event":"end","name":"zoo""#))
        let checking = try PseudoTerminal.run("saxdispatch", ["check", CommandConventionsTests.largeDocument], standardOutputToo: true)
        #expect(checking.status == 0)
        #expect(checking.terminal.contains(" MB/s  "))
        #expect(checking.terminal.hasSuffix("\r\u{1B}[K"))
    }
}

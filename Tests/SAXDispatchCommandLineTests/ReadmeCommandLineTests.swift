import Foundation
import SAXDispatchTestSupport
import Testing

/// The documented command-line examples, in the README and in the DocC catalog's articles
/// (the manual is `CommandLineTool.md`): each `$ command` of a ```console block runs, from
/// the package root with the built `saxdispatch` first on the PATH, and must print
/// exactly the lines shown under it (standard output and error together; an example whose
/// exit status matters shows it with `; echo "exit status $?"`).
@Suite("Documented command-line examples")
struct ReadmeCommandLineTests {
    struct Example: CustomTestStringConvertible, Sendable {
        /// The file that shows it, relative to the package root.
        var file: String
        var command: String
        var expected: String
        var testDescription: String { file + ": " + String(command.prefix(80)) }
    }

    /// The files whose console blocks are run: the README and every article of the catalog.
    static let documents: [String] = {
        let catalog = "Sources/SAXDispatch/SAXDispatch.docc"
        let articles = (try? FileManager.default.contentsOfDirectory(
            atPath: TestPaths.packageRoot.appendingPathComponent(catalog).path)) ?? []
        return ["README.md"] + articles.filter { $0.hasSuffix(".md") }.sorted().map { catalog + "/" + $0 }
    }()

    /// Every example of `documents`, in order.
    static let examples: [Example] = documents.flatMap { consoleExamples(in: $0) }

    /// The examples of the ```console blocks of one file.
    static func consoleExamples(in file: String) -> [Example] {
        let text = (try? String(contentsOf: TestPaths.packageRoot.appendingPathComponent(file), encoding: .utf8)) ?? ""
        var examples: [Example] = []
        var inConsole = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inConsole = line == "```console"
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ ") {
                examples.append(Example(file: file, command: String(line.dropFirst(2)), expected: ""))
            } else if !examples.isEmpty {
                examples[examples.count - 1].expected += line + "\n"
            }
        }
        return examples
    }

    static let samplesMissing: Comment = "skipped: the samples are not in ../shared/corpus/real beside the package"

    @Test("the command-line manual has examples of every command")
    func found() {
        let manual = Self.consoleExamples(in: "Sources/SAXDispatch/SAXDispatch.docc/CommandLineTool.md")
        #expect(manual.count >= 8)
        for command in ["paths", "extract", "events", "check", "canon"] {
            #expect(manual.contains { $0.command.contains("saxdispatch \(command) ") }, "no example of \(command)")
        }
    }

    @Test(
        "a documented command prints what its document shows",
        .enabled(if: FileManager.default.fileExists(atPath: TestPaths.packageRoot.path + "/../shared/corpus/real"), samplesMissing),
        arguments: examples)
    func example(_ example: Example) throws {
        let build = TestPaths.productsDirectory.path
        try #require(FileManager.default.isExecutableFile(atPath: build + "/saxdispatch"), "build the package first")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The whole pipeline's standard error, not only its last command's.
        process.arguments = ["-c", "{ " + example.command + "\n} 2>&1"]
        process.currentDirectoryURL = TestPaths.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = build + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var printed = String(decoding: data, as: UTF8.self)
        if !printed.isEmpty && !printed.hasSuffix("\n") { printed += "\n" }  // canon ends without one
        #expect(printed == example.expected)
    }
}

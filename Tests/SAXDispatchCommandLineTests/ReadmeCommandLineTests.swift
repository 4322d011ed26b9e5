import Foundation
import SAXDispatchTestSupport
import Testing

/// The README's command-line examples: each `$ command` of a ```console block runs, from
/// the package root with the built `saxdispatch` first on the PATH, and must print
/// exactly the lines shown under it (standard output and error together; an example whose
/// exit status matters shows it with `; echo "exit status $?"`).
@Suite("README command-line examples")
struct ReadmeCommandLineTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var command: String
        var expected: String
        var testDescription: String { String(command.prefix(80)) }
    }

    /// Every example of the README, in order.
    static let examples: [Example] = {
        let readme = (try? String(contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
        var examples: [Example] = []
        var inConsole = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inConsole = line == "```console"
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ ") {
                examples.append(Example(command: String(line.dropFirst(2)), expected: ""))
            } else if !examples.isEmpty {
                examples[examples.count - 1].expected += line + "\n"
            }
        }
        return examples
    }()

    static let samplesMissing: Comment = "skipped: the samples are not in ../shared/corpus/real beside the package"

    @Test("the README has command-line examples")
    func found() {
        #expect(Self.examples.count >= 8)
    }

    @Test(
        "a README command prints what the README shows",
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

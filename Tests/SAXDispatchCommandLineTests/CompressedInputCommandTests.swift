import Foundation
import SAXDispatchTestSupport
import SAXDispatchTools
import Testing

/// Every command reads gzip, bzip2, xz and zstd files and standard input as the document
/// they hold, told by their first bytes; a damaged one is a document error.
@Suite("saxdispatch: compressed input")
struct CompressedInputCommandTests {
    static let commands: [[String]] = [
        ["paths"], ["extract", "--record", "animal", "--field", "kind"], ["check"], ["canon"], ["events"],
        ["filter", "--drop", "animal"],
    ]
    static let extensions = ["gz", "bz2", "xz", "zst"]

    static func fixture(_ name: String) -> String {
        TestPaths.packageRoot.appendingPathComponent("Tests/SAXDispatchCompressionTests/Fixtures/\(name)").path
    }

    func run(_ command: [String], _ file: String, _ options: [String] = [], input: Data? = nil) throws
        -> CommandRunner.Result
    {
        try CommandRunner.run("saxdispatch", [command[0], file] + command.dropFirst() + options, input: input)
    }

    @Test("a compressed file gives the output of the document itself", arguments: commands)
    func compressedFile(_ command: [String]) throws {
        let expected = try run(command, TestPaths.fixture("zoo.xml").path)
        #expect(expected.status == 0)
        for fileExtension in Self.extensions {
            for stem in ["zoo.xml", "zoo-parts.xml"] {
                let result = try run(command, Self.fixture("\(stem).\(fileExtension)"))
                #expect(result.status == 0, "\(stem).\(fileExtension): \(result.error)")
                #expect(result.output == expected.output, "\(stem).\(fileExtension)")
            }
        }
    }

    @Test("compressed standard input gives the output of the document itself", arguments: commands)
    func compressedStandardInput(_ command: [String]) throws {
        let expected = try run(command, "-", input: try Data(contentsOf: TestPaths.fixture("zoo.xml")))
        for fileExtension in Self.extensions {
            let compressed = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("zoo-parts.xml.\(fileExtension)")))
            let result = try run(command, "-", input: compressed)
            #expect(result.status == 0, "\(fileExtension): \(result.error)")
            #expect(result.output == expected.output, "\(fileExtension)")
        }
    }

    @Test("stats counts the decompressed document")
    func stats() throws {
        for fileExtension in Self.extensions {
            let result = try CommandRunner.run("saxdispatch", ["stats", Self.fixture("zoo.xml.\(fileExtension)")])
            #expect(result.status == 0)
            #expect(result.output.contains("elements        19\n"))
            let size = try FileManager.default.attributesOfItem(atPath: TestPaths.fixture("zoo.xml").path)[.size] as? Int
            #expect(result.output.contains("bytes read      \(size ?? 0)\n"), "\(result.output)")
        }
    }

    @Test("a truncated file: exit 1, what was decoded before, and an error with the compressed offset")
    func truncated() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("zoo-parts.xml.bz2")))
        let cut = whole.prefix(whole.count - 10)
        let path = FileManagerTemp.write(cut, name: "cut-zoo.xml.bz2")
        let result = try CommandRunner.run("saxdispatch", ["events", path])
        #expect(result.status == 1)
        #expect(result.error == "\(path): error: truncated bzip2 input: it ends inside a stream (compressed byte \(cut.count))\n")
        #expect(result.output.contains(#"{"event":"end","name":"kind","depth":4,"text":"cat"}"#))
        let piped = try CommandRunner.run("saxdispatch", ["check", "-"], input: cut)
        #expect(piped.status == 1)
        #expect(piped.error == "-: error: truncated bzip2 input: it ends inside a stream (compressed byte \(cut.count))\n")
    }

    @Test("zstd input without libzstd: exit 1 and a message that names the library; other formats still read")
    func libzstdMissing() throws {
        let missing = ["SAXDISPATCH_LIBZSTD": "/nonexistent/libzstd.so.1"]
        let result = try CommandRunner.run("saxdispatch", ["check", Self.fixture("zoo.xml.zst")], environment: missing)
        #expect(result.status == 1)
        #expect(result.error.contains("zstd input needs libzstd (the libzstd1 package, or the library's path in SAXDISPATCH_LIBZSTD)"))
        #expect(result.error.hasPrefix(Self.fixture("zoo.xml.zst") + ": error: "))
        let gzip = try CommandRunner.run("saxdispatch", ["check", Self.fixture("zoo.xml.gz")], environment: missing)
        #expect(gzip.status == 0)
    }

    @Test("a compression bomb ends in the text limit, like the document it expands to")
    func bomb() throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("text-start.zst")))
        let piece = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("mebibyte-of-a.zst")))
        for _ in 0..<1024 { bytes += piece }
        let result = try CommandRunner.run("saxdispatch", ["check", "-"], input: bytes)
        #expect(result.status == 1)
        #expect(result.error.hasSuffix("error: the text of <r> is longer than maximumTextBytes (10485760) (in r)\n"), "\(result.error)")
    }

    @Test("the progress meter counts compressed bytes read of the file's size")
    func progress() throws {
        let result = try CommandRunner.run(
            "saxdispatch", ["check", Self.fixture("zoo-parts.xml.xz"), "--progress", "always"])
        #expect(result.status == 0)
        #expect(result.error.contains("100%"))
        #expect(result.error.contains(" MB/s decompressed)"))
        let percentages = result.error.split(separator: "%").compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
        #expect(!percentages.isEmpty && percentages.allSatisfy { $0 <= 100 })
    }
}

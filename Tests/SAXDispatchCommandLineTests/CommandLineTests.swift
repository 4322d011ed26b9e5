import Foundation
import SAXDispatchTools
import SAXDispatchTestSupport
import Testing

@Suite("The saxdispatch command")
struct CommandLineTests {
    func value(_ label: String, in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix(label + " ") }.map {
            $0.dropFirst(label.count).trimmingCharacters(in: .whitespaces)
        }
    }

    @Test("stats FILE counts what the document holds")
    func statsOnFile() throws {
        let result = try CommandRunner.run("saxdispatch", ["stats", TestPaths.fixture("zoo.xml").path])
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        #expect(value("elements", in: result.output) == "19")
        #expect(value("distinct names", in: result.output) == "14")
        #expect(value("maximum depth", in: result.output) == "5")
        #expect(value("attributes", in: result.output) == "0")
        let size = try FileManager.default.attributesOfItem(atPath: TestPaths.fixture("zoo.xml").path)[.size] as? Int
        #expect(value("bytes read", in: result.output) == size.map(String.init))
        for label in ["text bytes", "elapsed", "throughput", "peak memory"] {
            #expect(value(label, in: result.output) != nil, "\(label) missing")
        }
    }

    @Test("stats - reads standard input")
    func statsOnStandardInput() throws {
        let result = try CommandRunner.run("saxdispatch", ["stats", "-"], input: Data("<a x='1'><b>hé</b></a>".utf8))
        #expect(result.status == 0)
        #expect(value("elements", in: result.output) == "2")
        #expect(value("attributes", in: result.output) == "1")
        #expect(value("text bytes", in: result.output) == "3")
    }

    @Test("stats - reads standard input to its end over many reads, in any chunk size, as it reads the file")
    func statsOnLargeStandardInput() throws {
        var bytes: [UInt8] = []
        ZooSample(targetSize: 300_000).generate { bytes += $0 }
        let path = FileManagerTemp.write(Data(bytes), name: "stdin-zoo.xml")
        let fromFile = try CommandRunner.run("saxdispatch", ["stats", path])
        for chunkSize in ["65536", "1000", "7"] {
            let piped = try CommandRunner.run("saxdispatch", ["stats", "-", "--chunk-size", chunkSize], input: Data(bytes))
            #expect(piped.status == 0)
            #expect(value("bytes read", in: piped.output) == ProgressMeter.grouped(bytes.count), "chunks of \(chunkSize)")
            #expect(value("elements", in: piped.output) == value("elements", in: fromFile.output), "chunks of \(chunkSize)")
            #expect(value("text bytes", in: piped.output) == value("text bytes", in: fromFile.output), "chunks of \(chunkSize)")
        }
    }

    @Test("stats with no file streams the built-in sample")
    func statsOnSample() throws {
        let result = try CommandRunner.run("saxdispatch", ["stats", "--sample-size", "2"])
        #expect(result.status == 0)
        #expect(value("source", in: result.output) == "built-in zoo sample (2 MB, generated on the fly)")
        let bytes = Int(value("bytes read", in: result.output)?.replacingOccurrences(of: ",", with: "") ?? "") ?? 0
        #expect(bytes >= 2_000_000 && bytes < 2_010_000)
        #expect(value("maximum depth", in: result.output) == "5")
    }

    @Test("the generated sample is deterministic and well-formed")
    func sampleIsDeterministic() throws {
        var first: [UInt8] = []
        var second: [UInt8] = []
        ZooSample(targetSize: 100_000).generate(chunkSize: 1000) { first += $0 }
        ZooSample(targetSize: 100_000).generate(chunkSize: 7777) { second += $0 }
        #expect(first == second)
        let statistics = try DocumentStatistics.collect { parser, _ in
            try parser.feed(first)
            try parser.finish()
        }
        #expect(statistics.bytesRead == first.count)
        #expect(statistics.maximumDepth == 5)
    }

    @Test("canon prints the canonical form, whole or fed byte by byte")
    func canon() throws {
        let path = TestPaths.fixture("mixed.xml").path
        let whole = try CommandRunner.run("saxdispatch", ["canon", path])
        let bytewise = try CommandRunner.run("saxdispatch", ["canon", path, "--chunk-size", "1"])
        #expect(whole.status == 0)
        #expect(whole.output == bytewise.output)
        #expect(whole.output.hasPrefix("<?style href=\"a.css\"?><doc>&#10;  <p>a <b>b</b> c</p>"))
        #expect(whole.output.contains("<p>Fish &amp; chips &lt;hot&gt; AB &lt;raw&gt; &amp;  tail</p>"))
        #expect(whole.output.contains("<p>before<?pi data?>after</p>"))
        #expect(whole.output.hasSuffix("</doc>"))
    }

    @Test(
        "canon on a conformance test reproduces its out/ file",
        .enabled(if: TestPaths.conformanceSuite != nil, TestPaths.conformanceSuiteMissing))
    func canonConformance() throws {
        let suite = try #require(TestPaths.conformanceSuite)
        for name in ["069.xml", "031.xml", "100.xml"] {
            let input = suite.appendingPathComponent("xmltest/valid/sa/\(name)").path
            let expected = try String(contentsOf: suite.appendingPathComponent("xmltest/valid/sa/out/\(name)"), encoding: .utf8)
            let result = try CommandRunner.run("saxdispatch", ["canon", "--chunk-size", "1", input])
            #expect(result.status == 0)
            #expect(result.output == expected, "\(name)")
        }
    }

    @Test("malformed input exits 1 with FILE:LINE:COLUMN: message")
    func documentErrors() throws {
        let path = FileManagerTemp.write("<zoo>\n  <animal></zoo>", name: "broken.xml")
        let canon = try CommandRunner.run("saxdispatch", ["canon", path])
        #expect(canon.status == 1)
        #expect(canon.error == "\(path):2:13: error: mismatched tag (in zoo/animal)\n")
        let stats = try CommandRunner.run("saxdispatch", ["stats", path])
        #expect(stats.status == 1)
        #expect(stats.output.isEmpty)
        #expect(stats.error == "\(path):2:13: error: mismatched tag (in zoo/animal)\n")
        let missing = try CommandRunner.run("saxdispatch", ["canon", "/nonexistent/file.xml"])
        #expect(missing.status == 1)
        #expect(missing.error == "/nonexistent/file.xml: error: cannot open file: No such file or directory\n")
    }

    @Test("check exits 0 for a document within the profile, 1 naming the violation otherwise")
    func check() throws {
        let xxe = FileManagerTemp.write(
            "<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<r>&x;</r>", name: "check-xxe.xml")
        let deep = FileManagerTemp.write("<a><b><c/></b></a>", name: "check-deep.xml")
        let subset = FileManagerTemp.write("<!DOCTYPE r [<!ENTITY e \"hi\">]><r>&e;</r>", name: "check-subset.xml")

        let fine = try CommandRunner.run("saxdispatch", ["check", deep, subset])
        #expect(fine.status == 0)
        #expect(fine.output.isEmpty && fine.error.isEmpty)

        let external = try CommandRunner.run("saxdispatch", ["check", deep, xxe])
        #expect(external.status == 1)
        #expect(
            external.error
                == "\(xxe):2:4: error: reference to external entity &x; (SYSTEM \"file:///etc/passwd\"): "
                + "external entities are never read (in r)\n"
                + "saxdispatch check: 2 files read, 1 failed\n")

        let strict = try CommandRunner.run("saxdispatch", ["check", "--strict", subset, deep])
        #expect(strict.status == 1)
        #expect(strict.error.hasPrefix("\(subset):1:13: error: the DOCTYPE has an internal subset"))
        #expect(strict.error.split(separator: "\n").count == 2, "only the failing document is reported, then the summary")
        #expect(strict.error.hasSuffix("\nsaxdispatch check: 2 files read, 1 failed\n"))
        let bothBad = try CommandRunner.run("saxdispatch", ["check", "--limit", "depth=2", deep, xxe, subset])
        #expect(bothBad.status == 1)
        #expect(bothBad.error.hasSuffix("\nsaxdispatch check: 3 files read, 2 failed\n"))

        let limited = try CommandRunner.run("saxdispatch", ["check", "--limit", "depth=2", deep])
        #expect(limited.status == 1)
        #expect(limited.error == "\(deep):1:7: error: elements nest deeper than maximumDepth (2) (in a/b)\n")
        let unlimited = try CommandRunner.run("saxdispatch", ["check", "--limit", "depth=unlimited", "--chunk-size", "1", deep])
        #expect(unlimited.status == 0)

        let piped = try CommandRunner.run("saxdispatch", ["check", "-"], input: Data("<a>&x;</a>".utf8))
        #expect(piped.status == 1)
        #expect(piped.error.hasPrefix("-:1:4: error: undefined entity"))

        let badLimit = try CommandRunner.run("saxdispatch", ["check", "--limit", "deep=2", deep])
        #expect(badLimit.status == 2)
        #expect(badLimit.error.contains("'deep=2' is not NAME=VALUE"))
        let badSize = try CommandRunner.run("saxdispatch", ["check", "--limit", "text-bytes=lots", deep])
        #expect(badSize.status == 2)
        let noFile = try CommandRunner.run("saxdispatch", ["check"])
        #expect(noFile.status == 2)
    }

    @Test("usage errors exit 2; help describes every subcommand")
    func usage() throws {
        let noFile = try CommandRunner.run("saxdispatch", ["canon"])
        #expect(noFile.status == 2)
        #expect(noFile.error.contains("Missing expected argument '<file>'"))
        let badChunk = try CommandRunner.run("saxdispatch", ["canon", "x.xml", "--chunk-size", "0"])
        #expect(badChunk.status == 2)
        let unknown = try CommandRunner.run("saxdispatch", ["frobnicate"])
        #expect(unknown.status == 2)

        let help = try CommandRunner.run("saxdispatch", ["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: saxdispatch <subcommand>"))
        #expect(help.output.contains("stats"))
        #expect(help.output.contains("canon"))
        let statsHelp = try CommandRunner.run("saxdispatch", ["help", "stats"])
        #expect(statsHelp.output.contains("built-in sample"))
        #expect(statsHelp.output.contains("--sample-size"))
    }
}

import Foundation
import SAXDispatchTestSupport
import Testing

/// `extract --range` and `--with-offset`: tasks given byte ranges of one file write every
/// record once, and a stopped job resumes after its last row.
@Suite("saxdispatch extract --range and --with-offset")
struct ExtractRangeCommandTests {
    /// Documents of the three kinds of the benchmarks, small: pages with a siteinfo before
    /// them, nodes then ways, and records around records, with CRLF, comments and CDATA.
    static let documents: [(name: String, text: String, record: String, fields: [String])] = [
        (
            "wiki",
            "<?xml version=\"1.0\"?>\n<mediawiki xmlns=\"http://www.mediawiki.org/xml/export-0.10/\">\n<siteinfo><sitename>W</sitename></siteinfo>\n"
                + (0..<120).map { "  <page>\n    <title>T\($0) é</title>\n    <id>\($0)</id>\n    <!-- <page> -->\n    <text><![CDATA[<page>\($0)</page>]]></text>\n  </page>\n" }.joined()
                + "</mediawiki>\n",
            "page", ["title", "id:int"]
        ),
        (
            "osm",
            "<osm version=\"0.6\">\r\n"
                + (0..<80).map { "<node id=\"\($0)\" lat=\"1.5\" lon=\"2\"><tag k=\"name\" v=\"n\($0)\"/></node>\r\n" }.joined()
                + (0..<40).map { "<way id=\"\($0)\"><nd ref=\"\($0)\"/></way>\r\n" }.joined() + "</osm>\r\n",
            "node", ["id=@id:int", "lat=@lat:double"]
        ),
        (
            "nested",
            "<feed><a><item n='x'/></a>" + (0..<60).map { "<item n='\($0)'><item n='in\($0)'/></item>" }.joined() + "</feed>",
            "item", ["n=@n"]
        ),
    ]

    func withDocument<T>(_ text: String, _ body: (String) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("range-\(UUID().uuidString).xml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    func extract(_ path: String, _ record: String, _ fields: [String], _ more: [String]) throws -> CommandRunner.Result {
        try CommandRunner.run("saxdispatch", ["extract", path, "--record", record] + fields.flatMap { ["--field", $0] } + more)
    }

    @Test("random cuts of each kind of document: the ranges' rows, joined, are the whole file's, each once")
    func randomCuts() throws {
        var generator = SplitMix(seed: 47)
        for document in Self.documents {
            try withDocument(document.text) { (path: String) throws in
                let whole = try extract(path, document.record, document.fields, ["--with-offset"])
                #expect(whole.status == 0)
                #expect(whole.output.split(separator: "\n").count > 50)
                let size = document.text.utf8.count
                for round in 0..<4 {
                    let cuts = (0..<(1 + round * 2)).map { _ in Int(generator.next() % UInt64(size)) }.sorted()
                    let bounds = [0] + cuts
                    var joined = ""
                    for (index, start) in bounds.enumerated() {
                        let range = index + 1 < bounds.count ? "\(start)-\(bounds[index + 1])" : "\(start)-"
                        let part = try extract(path, document.record, document.fields, ["--with-offset", "--range", range])
                        #expect(part.status == 0, "\(document.name) \(range): \(part.error)")
                        joined += part.output
                    }
                    #expect(joined == whole.output, "\(document.name) cuts \(cuts)")
                }
            }
        }
    }

    @Test("with split's ranges as checkpoints, tasks frame from the last one before their range: the same rows")
    func checkpoints() throws {
        var generator = SplitMix(seed: 4747)
        for document in Self.documents {
            try withDocument(document.text) { (path: String) throws in
                let split = try CommandRunner.run("saxdispatch", ["split", path, "--record", document.record, "--parts", "5"])
                #expect(split.status == 0)
                let checkpoints = path + ".ranges"
                try Data(split.output.utf8).write(to: URL(fileURLWithPath: checkpoints))
                defer { try? FileManager.default.removeItem(atPath: checkpoints) }
                let whole = try extract(path, document.record, document.fields, ["--with-offset"])
                let size = document.text.utf8.count
                let cuts = (0..<6).map { _ in Int(generator.next() % UInt64(size)) }.sorted()
                let bounds = [0] + cuts
                var joined = ""
                for (index, start) in bounds.enumerated() {
                    let range = index + 1 < bounds.count ? "\(start)-\(bounds[index + 1])" : "\(start)-"
                    let part = try extract(
                        path, document.record, document.fields, ["--with-offset", "--range", range, "--checkpoints", checkpoints])
                    #expect(part.status == 0, "\(document.name) \(range): \(part.error)")
                    joined += part.output
                }
                #expect(joined == whole.output, "\(document.name) cuts \(cuts)")
                try Data("{\"start\":12}\n".utf8).write(to: URL(fileURLWithPath: checkpoints))
                let bad = try extract(path, document.record, document.fields, ["--range", "5-", "--checkpoints", checkpoints])
                #expect(bad.status == 2 && bad.error.contains("not a range as saxdispatch split prints one"), "\(bad.error)")
            }
        }
    }

    @Test("a stopped job resumes after the offset of its last whole row")
    func resume() throws {
        let document = Self.documents[0]
        try withDocument(document.text) { (path: String) throws in
            let whole = try extract(path, document.record, document.fields, ["--with-offset", "--format", "csv"]).output
            // Stopped in the middle of a row: the partial row is dropped, and the offset of
            // the last whole one says where to resume.
            let stopped = String(whole.prefix(whole.count / 3))
            let kept = String(stopped[...(try #require(stopped.lastIndex(of: "\n")))])
            let lastRow = try #require(kept.split(separator: "\n").last)
            let offset = try #require(Int(lastRow.prefix { $0 != "," }))
            let rest = try extract(
                path, document.record, document.fields, ["--with-offset", "--format", "csv", "--range", "\(offset + 1)-"])
            let restRows = rest.output.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
            #expect(kept + restRows == whole)
        }
    }

    @Test("the offset is a column of JSON Lines, CSV and TSV, and goes before a tab in XML")
    func offsetColumn() throws {
        try withDocument("<r>\n<p id='1'>a</p><p id='2'>b</p></r>") { (path: String) throws in
            #expect(try extract(path, "p", ["."], ["--with-offset"]).output == "{\"offset\":4,\".\":\"a\"}\n{\"offset\":19,\".\":\"b\"}\n")
            #expect(try extract(path, "p", ["x=."], ["--with-offset", "--format", "tsv"]).output == "offset\tx\n4\ta\n19\tb\n")
            #expect(try extract(path, "p", [], ["--with-offset", "--format", "xml"]).output == "4\t<p id=\"1\">a</p>\n19\t<p id=\"2\">b</p>\n")
            #expect(try extract(path, "p", ["x=."], ["--range", "5-"]).output == "{\"x\":\"b\"}\n")
            #expect(try extract(path, "p", ["x=."], ["--range", "5-19"]).output == "")
        }
    }

    @Test("usage errors: a malformed range, a range of many files, a field named offset")
    func usageErrors() throws {
        try withDocument("<r><p/></r>") { (path: String) throws in
            for bad in ["5", "-5", "9-3", "a-b", "1-2-3"] {
                let result = try extract(path, "p", ["."], ["--range=\(bad)"])
                #expect(result.status == 2)
                #expect(result.error.contains("--range takes START-END or START-"), "\(bad): \(result.error)")
            }
            let two = try CommandRunner.run("saxdispatch", ["extract", path, path, "--record", "p", "--field", ".", "--range", "0-"])
            #expect(two.status == 2 && two.error.contains("--range reads a range of one FILE"))
            let standardInput = try CommandRunner.run("saxdispatch", ["extract", "-", "--record", "p", "--field", ".", "--range", "0-"])
            #expect(standardInput.status == 2 && standardInput.error.contains("not standard input"))
            let named = try extract(path, "p", ["offset=."], ["--with-offset"])
            #expect(named.status == 2 && named.error.contains("--with-offset adds a column named offset"))
        }
    }

    @Test("a range's error has the line and column the whole file has there")
    func errorPosition() throws {
        let text = "<r>\n" + (0..<30).map { "<p>\($0)</p>\n" }.joined() + "<p><x></p>\n<p>z</p></r>\n"
        try withDocument(text) { (path: String) throws in
            let whole = try extract(path, "p", ["."], [])
            let tail = try extract(path, "p", ["."], ["--range", "200-"])
            #expect(whole.status == 1 && tail.status == 1)
            let message = { (error: String) in error.split(separator: "\n").first { $0.contains("error:") }.map(String.init) }
            #expect(message(tail.error) != nil)
            #expect(message(tail.error) == message(whole.error))
        }
    }
}

/// A small deterministic generator for the cuts.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

import Foundation
import SAXDispatchTestSupport
import Testing

/// `extract --jobs N` on one file reads it in ranges on N threads: the output is the same,
/// byte for byte, as `--jobs 1`.
@Suite("saxdispatch extract --jobs on one file")
struct ExtractJobsOneFileTests {
    /// About 4 MiB: 30,000 records, a few with a field that does not convert.
    static let path: String = {
        var text = "<?xml version=\"1.0\"?>\n<osm xmlns:x=\"urn:x\">\n"
        for index in 0..<30_000 {
            let id = index % 997 == 0 ? "n\(index)" : "\(index)"
            text += "  <node id=\"\(id)\" x:lat=\"\(Double(index) / 7)\"><tag k=\"name\" v=\"é \(index) &amp; co\"/>"
            text += index % 13 == 0 ? "<!-- <node id=\"fake\"/> -->" : ""
            text += "</node>\n"
        }
        text += "</osm>\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jobs-one-file-\(text.utf8.count).xml").path
        // One file per content, written whole or not at all: runs at once share it, and none leaves one of its own.
        try? Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }()

    func extract(_ jobs: Int, _ options: [String]) throws -> CommandRunner.Result {
        try CommandRunner.run(
            "saxdispatch",
            ["extract", Self.path, "--record", "node", "--field", "id=@id:int", "--field", "lat=@x:lat:double",
             "--field", "name=tag[@k='name']/@v", "-N", "x=urn:x", "--jobs", "\(jobs)"] + options)
    }

    @Test("rows, skipped records and the exit status are those of --jobs 1", arguments: [["--on-error", "skip"], ["--format", "csv", "--on-error", "skip"]])
    func sameOutput(_ options: [String]) throws {
        let one = try extract(1, options)
        let two = try extract(2, options)
        let three = try extract(3, options)
        #expect(one.status == 0)
        #expect(one.output.split(separator: "\n").count > 29_000)
        #expect(two.output == one.output)
        #expect(three.output == one.output)
        #expect(two.error == one.error)
        #expect(two.status == one.status)
    }

    @Test("a record that fails the file fails it at the same row, with the same error")
    func sameFailure() throws {
        let one = try extract(1, [])
        let two = try extract(2, [])
        #expect(one.status == 1)
        #expect(two.status == one.status)
        #expect(two.output == one.output)
        #expect(two.error == one.error)
    }
}

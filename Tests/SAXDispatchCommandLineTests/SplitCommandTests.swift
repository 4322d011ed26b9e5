import Foundation
import SAXDispatchTestSupport
import Testing

@Suite("saxdispatch split")
struct SplitCommandTests {
    static let document: String = {
        var text = "<?xml version=\"1.0\"?>\n<m xmlns=\"urn:m\">\n"
        for index in 0..<40 { text += "  <page id=\"\(index)\"><t>é</t></page>\n" }
        return text + "</m>\n"
    }()

    func split(_ arguments: [String], document: String = Self.document) throws -> (CommandRunner.Result, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("split-\(UUID().uuidString).xml").path
        try Data(document.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return (try CommandRunner.run("saxdispatch", ["split", path] + arguments), path)
    }

    @Test("ranges as JSON Lines that cover the document once, each beginning at a record, with its context")
    func ranges() throws {
        let (result, _) = try split(["--record", "page", "--parts", "4"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        let starts = objects.map { $0["start"] as? Int ?? -1 }
        let ends = objects.map { $0["end"] as? Int }
        #expect(starts.first == 0)
        #expect(ends.last == .some(nil))
        #expect(Array(ends.dropLast()) == starts.dropFirst().map { Optional($0) })
        let bytes = Array(Self.document.utf8)
        for start in starts.dropFirst() {
            #expect(String(decoding: bytes[start..<(start + 5)], as: UTF8.self) == "<page")
        }
        #expect(objects.map { $0["records"] as? Int ?? 0 }.reduce(0, +) == 40)
        #expect(objects[1]["context"] as? String == "<?xml version=\"1.0\"?>\n<m xmlns=\"urn:m\">")
        #expect(objects[0]["closing"] as? String == "</m>")
        for (object, start) in zip(objects, starts).dropFirst() {
            #expect(object["line"] as? Int == 1 + bytes[..<start].filter { $0 == 0x0A }.count)
            #expect(object["column"] as? Int == 3)
        }
    }

    @Test("a context that is not UTF-8 comes in base64")
    func latin1Context() throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><m a=\"".utf8) + [0xE9]
        bytes += Array("\"><page/><page/></m>".utf8)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("split-\(UUID().uuidString).xml").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CommandRunner.run("saxdispatch", ["split", path, "--record", "page", "--parts", "8"])
        let last = try #require(result.output.split(separator: "\n").last)
        let object = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any] ?? [:]
        let context = try #require(object["context_base64"] as? String)
        #expect(Data(base64Encoded: context).map { [UInt8]($0) } == Array(bytes[..<52]))
        #expect(object["start"] as? Int == 52)
        #expect(object["column"] as? Int == 53)
    }

    @Test("usage errors: standard input, a path as the record, no parts")
    func usage() throws {
        #expect(try CommandRunner.run("saxdispatch", ["split", "-", "--record", "page"]).status == 2)
        #expect(try split(["--record", "m/page"]).0.status == 2)
        #expect(try split(["--record", "page", "--parts", "0"]).0.status == 2)
    }
}

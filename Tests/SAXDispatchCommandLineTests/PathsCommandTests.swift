import Foundation
import SAXDispatchTools
import SAXDispatchTestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("saxdispatch paths")
struct PathsCommandTests {
    /// The OpenStreetMap sample in ../shared/corpus/real, or nil when it is absent.
    static let osmSample: String? = {
        let path = TestPaths.packageRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/corpus/real/Robinlovelace+osm-tutorial/data/map.osm").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }()

    func paths(_ arguments: [String], input: Data? = nil) throws -> CommandRunner.Result {
        try CommandRunner.run("saxdispatch", ["paths"] + arguments, input: input)
    }

    /// Each line of JSON Lines output as a dictionary.
    func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("the table lists every path of the zoo in document order, with counts, depths and samples")
    func zooTable() throws {
        let result = try paths([TestPaths.fixture("zoo.xml").path, "--samples"])
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        #expect(
            result.output == """
                PATH                                               COUNT  DEPTH  BELOW  ATTRIBUTES  SAMPLE
                /zoo                                                   1      1      4
                /zoo/animals                                           1      2      3
                /zoo/animals/animal                                    2      3      2
                /zoo/animals/animal/kind                               2      4      0              cat
                /zoo/animals/animal/nested_nonsense                    2      4      1
                /zoo/animals/animal/nested_nonsense/name               2      5      0              grumpy
                /zoo/animals/animal/url                                2      4      0              http://en.wikipedia.org/wiki/Grumpy_Cat
                /zoo/facilities                                        1      2      3
                /zoo/facilities/toilet                                 1      3      0              42
                /zoo/facilities/disabled_parking                       1      3      0              true
                /zoo/facilities/a_random_assortment_of_characters      1      3      0              sdfdf821n9sfa
                /zoo/facilities/seriously                              1      3      2
                /zoo/facilities/seriously/crazy_nested                 1      4      1
                /zoo/facilities/seriously/crazy_nested/drainage        1      5      0              Good

                """)
    }

    @Test("--sort count puts the most frequent first; --format jsonl writes one object per path")
    func sortedJSONLines() throws {
        let document = """
            <r a="1"><x/><y id="1" k="v"/><y id="2" z="3"><w>  some
              text  </w></y><x/><x/></r>
            """
        let result = try paths(["-", "--sort", "count", "--format", "jsonl", "--samples"], input: Data(document.utf8))
        #expect(result.status == 0)
        #expect(
            result.output == """
                {"path":"/r/x","count":3,"depth":2,"levelsBelow":0,"attributes":[],"namespaceURIs":[],"sample":null}
                {"path":"/r/y","count":2,"depth":2,"levelsBelow":1,"attributes":["id","k","z"],"namespaceURIs":[],"sample":null}
                {"path":"/r","count":1,"depth":1,"levelsBelow":2,"attributes":["a"],"namespaceURIs":[],"sample":null}
                {"path":"/r/y/w","count":1,"depth":3,"levelsBelow":0,"attributes":[],"namespaceURIs":[],"sample":"some text"}

                """)
    }

    @Test("a long sample is shortened to 60 characters")
    func longSample() throws {
        let text = String(repeating: "abcdefghij", count: 10)
        let result = try paths(["-", "--samples", "--format", "jsonl"], input: Data("<r>\(text)</r>".utf8))
        let sample = try #require(try objects(result.output).first?["sample"] as? String)
        #expect(sample == String(text.prefix(59)) + "…")
    }

    @Test(
        "the paths, counts, depths and attribute names agree with an independent count (Foundation's XMLParser)",
        arguments: [
            "zoo.xml", "catalog.xml", "attributes.xml", "mixed.xml", "deep.xml", "crlf.xml", "atom-default.xml",
            "atom-prefixed.xml", "atom-unusual.xml",
        ])
    func agreesWithIndependentCount(_ name: String) throws {
        try expectAgreement(TestPaths.fixture(name).path)
    }

    @Test(
        "on the OpenStreetMap sample too",
        .enabled(if: Self.osmSample != nil, "skipped: the OpenStreetMap sample is not in ../shared/corpus/real beside the package"))
    func agreesOnOpenStreetMap() throws {
        try expectAgreement(try #require(Self.osmSample))
    }

    func expectAgreement(_ path: String) throws {
        let expected = try IndependentPathCount.count(contentsOf: URL(fileURLWithPath: path))
        let result = try paths([path, "--format", "jsonl"])
        #expect(result.status == 0, "\(result.error)")
        let lines = try objects(result.output)
        let found = lines.filter { $0["path"] != nil }.map { object in
            IndependentPathCount.Path(
                path: object["path"] as? String ?? "", count: object["count"] as? Int ?? -1,
                depth: object["depth"] as? Int ?? -1, levelsBelow: object["levelsBelow"] as? Int ?? -1,
                attributes: Set(object["attributes"] as? [String] ?? []),
                namespaceURIs: object["namespaceURIs"] as? [String] ?? ["missing"])
        }
        #expect(found == expected.paths)
        #expect(found.count > 1)
        // The legend comes first, when there is one, and lists the same bindings.
        let legend = lines.first?["namespaces"] as? [[String: Any]] ?? []
        let bindings = legend.map { IndependentPathCount.Binding(prefix: $0["prefix"] as? String, uri: $0["uri"] as? String ?? "") }
        #expect(Set(bindings) == expected.namespaces)
        #expect(bindings.count == expected.namespaces.count)
        #expect(lines.dropFirst().allSatisfy { $0["namespaces"] == nil })
    }

    @Test("standard input gives what the file gives")
    func standardInput() throws {
        let path = TestPaths.fixture("catalog.xml").path
        let fromFile = try paths([path])
        let fromInput = try paths(["-"], input: try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(fromFile.status == 0 && fromInput.status == 0)
        #expect(fromFile.output == fromInput.output)
        #expect(fromFile.output.contains("/catalog/item/dc:date "))
    }

    @Test("more distinct paths than --max-entries stop the census with an error at the element")
    func tooManyEntries() throws {
        let result = try paths(["-", "--max-entries", "3"], input: Data("<r>\n  <a/><b/>\n  <c x='1'/></r>".utf8))
        #expect(result.status == 1)
        #expect(result.error == "-:3:3: error: more than 3 distinct paths and attribute names (in r/c)\n")
    }

    @Test("a malformed document: exit 1, FILE:LINE:COLUMN on standard error, the paths before it on standard output")
    func malformed() throws {
        let result = try paths(["-"], input: Data("<r>\n<a></b></r>".utf8))
        #expect(result.status == 1)
        #expect(result.output == "PATH  COUNT  DEPTH  BELOW  ATTRIBUTES\n/r        1      1      1\n/r/a      1      2      0\n")
        #expect(result.error == "-:2:6: error: mismatched tag (in r/a)\n")
    }
}

/// Counts element paths with Foundation's XMLParser, a parser independent of ours, with
/// namespace processing on: paths of names as written, and the URIs of elements and
/// prefixed attributes (resolved through the declarations the parser reports).
enum IndependentPathCount {
    struct Path: Hashable {
        var path: String
        var count: Int
        var depth: Int
        var levelsBelow: Int
        var attributes: Set<String>
        var namespaceURIs: [String]
    }

    /// A prefix (`nil`: the default namespace) and a URI it stood for.
    struct Binding: Hashable {
        var prefix: String?
        var uri: String
    }

    static func count(contentsOf url: URL) throws -> (paths: [Path], namespaces: Set<Binding>) {
        let parser = try #require(XMLParser(contentsOf: url))
        let delegate = Counter()
        parser.delegate = delegate
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        try #require(parser.parse(), "XMLParser: \(String(describing: parser.parserError))")
        let paths = delegate.order.map { path in
            let entry = delegate.entries[path]!
            return Path(
                path: path, count: entry.count, depth: path.split(separator: "/").count,
                levelsBelow: entry.levelsBelow, attributes: entry.attributes, namespaceURIs: entry.namespaceURIs)
        }
        return (paths, delegate.namespaces)
    }

    final class Counter: NSObject, XMLParserDelegate {
        struct Entry {
            var count = 0
            var levelsBelow = 0
            var attributes: Set<String> = []
            var namespaceURIs: [String] = []
        }

        var entries: [String: Entry] = [:]
        var order: [String] = []
        var stack: [(path: String, deepest: Int)] = []
        var namespaces: Set<Binding> = []
        /// The declarations in scope, innermost last.
        var declarations: [(prefix: String, uri: String)] = [("xml", "http://www.w3.org/XML/1998/namespace")]

        func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
            declarations.append((prefix, namespaceURI))
        }

        func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String) {
            if let index = declarations.lastIndex(where: { $0.prefix == prefix }) { declarations.remove(at: index) }
        }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let written = qualifiedName ?? name
            let path = (stack.last?.path ?? "") + "/" + written
            if entries[path] == nil { order.append(path) }
            entries[path, default: Entry()].count += 1
            if let namespaceURI, !namespaceURI.isEmpty {
                if !entries[path]!.namespaceURIs.contains(namespaceURI) { entries[path]!.namespaceURIs.append(namespaceURI) }
                let colon = written.firstIndex(of: ":")
                namespaces.insert(Binding(prefix: colon.map { String(written[..<$0]) }, uri: namespaceURI))
            }
            // Namespace declarations are not attributes once namespaces are processed.
            let names = attributes.keys.filter { $0 != "xmlns" && !$0.hasPrefix("xmlns:") }
            entries[path]!.attributes.formUnion(names)
            for name in names {
                guard let colon = name.firstIndex(of: ":") else { continue }
                let prefix = String(name[..<colon])
                if let uri = declarations.last(where: { $0.prefix == prefix })?.uri {
                    namespaces.insert(Binding(prefix: prefix, uri: uri))
                }
            }
            stack.append((path, stack.count + 1))
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let (path, deepest) = stack.removeLast()
            entries[path]!.levelsBelow = max(entries[path]!.levelsBelow, deepest - (stack.count + 1))
            if !stack.isEmpty { stack[stack.count - 1].deepest = max(stack[stack.count - 1].deepest, deepest) }
        }
    }
}

@Suite("PathCensus: bounded however the document is shaped")
struct PathCensusBoundsTests {
    @Test("deep paths of long names fail at maximumBytes, each path counted whole, keeping the paths before")
    func deepLongPaths() throws {
        // 40 levels of 100-byte names: the paths alone would take 40 × 41 / 2 × 101 bytes.
        let names = (0..<40).map { String(repeating: Character(UnicodeScalar(UInt8(97 + $0 % 26))), count: 100) }
        let xml = names.map { "<\($0)>" }.joined() + names.reversed().map { "</\($0)>" }.joined()
        let path = FileManagerTemp.write(Data(xml.utf8), name: "deep-long-paths.xml")
        let outcome = PathCensus(maximumBytes: 20_000).run(.file(path))
        let failure = try #require(outcome.failure as? PathCensus.TooManyPaths)
        #expect(failure.maximumBytes == 20_000)
        #expect(failure.description.contains("error: distinct paths and attribute names take more than 20,000 bytes"))
        // 1 + 2 + … + 19 paths of 101 bytes each come to 19,190 bytes; the 20th would pass 20,000.
        #expect(outcome.entries.count == 19)
        #expect(outcome.entries.last?.path.utf8.count == 19 * 101)
        #expect(PathCensus().run(.file(path)).failure == nil)
    }
}

import Foundation
import SAXDispatch
import SAXDispatchTools
import SAXDispatchTestSupport
import Testing

/// One test of the W3C XML conformance suite, read from a collection's catalogue.
struct ConformanceCase: CustomStringConvertible, Sendable {
    var id: String
    var type: String
    var entities: String
    var input: URL
    var output: URL?
    var version: String?
    var edition: String?
    var namespace: String?

    var description: String { id }
}

enum ConformanceCatalogue {
    /// Reads a collection's catalogue (itself XML) with SAXDispatch.
    static func cases(_ catalogue: String, base: String? = nil) throws -> [ConformanceCase] {
        guard let suite = TestPaths.conformanceSuite else { return [] }
        let catalogueURL = suite.appendingPathComponent(catalogue)
        let directory = base.map { suite.appendingPathComponent($0) } ?? catalogueURL.deletingLastPathComponent()
        var cases: [ConformanceCase] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("TEST") { element in
            let attributes = element.attributes
            guard let id = attributes["ID"], let type = attributes["TYPE"], let uri = attributes["URI"] else { return }
            cases.append(
                ConformanceCase(
                    id: id, type: type, entities: attributes["ENTITIES"] ?? "none",
                    input: directory.appendingPathComponent(uri),
                    output: attributes["OUTPUT"].map { directory.appendingPathComponent($0) },
                    version: attributes["VERSION"], edition: attributes["EDITION"],
                    namespace: attributes["NAMESPACE"]))
        }
        // Some catalogues are fragments (several top-level TEST elements): wrap them.
        var text = try String(contentsOf: catalogueURL, encoding: .utf8)
        if text.hasPrefix("<?xml"), let end = text.range(of: "?>") { text = String(text[end.upperBound...]) }
        try dispatcher.parse(.string("<catalogue>" + text + "</catalogue>"))
        return cases
    }

    static let xmltest: [ConformanceCase] = (try? cases("xmltest/xmltest.xml")) ?? []
}

@Suite("W3C XML conformance: xmltest", .enabled(if: TestPaths.conformanceSuite != nil, TestPaths.conformanceSuiteMissing))
struct XMLTestConformanceTests {
    static let validStandalone = ConformanceCatalogue.xmltest.filter {
        $0.type == "valid" && $0.input.path.contains("/valid/sa/")
    }
    static let notWellFormedStandalone = ConformanceCatalogue.xmltest.filter {
        $0.type == "not-wf" && $0.input.path.contains("/not-wf/sa/")
    }

    @Test("the catalogue lists the expected collections")
    func catalogueSizes() throws {
        #expect(Self.validStandalone.count == 120)
        #expect(Self.validStandalone.allSatisfy { $0.output != nil })
        #expect(Self.notWellFormedStandalone.count == 186)
    }

    @Test("valid/sa reproduces out/ byte for byte, fed whole", arguments: validStandalone)
    func validWhole(_ test: ConformanceCase) throws {
        let expected = try [UInt8](Data(contentsOf: try #require(test.output)))
        let actual = try CanonicalXML().canonicalize(.file(test.input.path))
        #expect(String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(actual == expected)
    }

    @Test("valid/sa reproduces out/ byte for byte, fed one byte at a time", arguments: validStandalone)
    func validByteByByte(_ test: ConformanceCase) throws {
        let expected = try [UInt8](Data(contentsOf: try #require(test.output)))
        let actual = try CanonicalXML(chunkSize: 1).canonicalize(.file(test.input.path))
        #expect(actual == expected)
    }

    @Test("not-wf/sa is rejected with a line and column", arguments: notWellFormedStandalone)
    func notWellFormed(_ test: ConformanceCase) throws {
        for chunkSize in [nil, 1] as [Int?] {
            let error = #expect(throws: XMLParseError.self) {
                _ = try CanonicalXML(chunkSize: chunkSize).canonicalize(.file(test.input.path))
            }
            if let error {
                #expect(error.line >= 1 && error.column >= 1)
                #expect(error.source == test.input.path)
            }
        }
    }
}

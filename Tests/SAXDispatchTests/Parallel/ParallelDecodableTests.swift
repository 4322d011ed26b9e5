import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// `Decodable` values read on workers are the values, and the first error, of one
/// sequential decoding, on the fixtures, the W3C suite and the adversarial corpus.
@Suite("Parallel Decodable values: the corpora on 2, 3 and 8 workers")
struct ParallelDecodableTests {
    /// Each value's whole text as decoded at `name`, then the error, if one ended the read.
    static func decoded(_ bytes: [UInt8], name: String, workers: Int?) -> [String] {
        var events: [String] = []
        let input = XMLInput.forWorkers(workers ?? 1, bytes, named: "document")
        do {
            if let workers {
                try XMLRecordDecoder().forEach(XMLStringValue.self, at: ElementPattern(name: name), in: input, workers: workers, rangeBytes: 1) {
                    events.append($0.text)
                }
            } else {
                try XMLRecordDecoder().forEach(XMLStringValue.self, at: ElementPattern(name: name), in: input) { events.append($0.text) }
            }
        } catch {
            events.append("error \(error)")
        }
        return events
    }

    static func disagreements(_ documents: [(String, [UInt8])], names: Int) -> (found: [String], compared: Int) {
        var found: [String] = []
        var compared = 0
        for (file, bytes) in documents {
            for name in DocumentRangeTests.names(bytes, limit: names) {
                let sequential = decoded(bytes, name: name, workers: nil)
                for workers in [2, 3, 8] {
                    let parallel = decoded(bytes, name: name, workers: workers)
                    compared += 1
                    if parallel != sequential {
                        found.append("\(file) \(name) workers \(workers): \(parallel.count) events against \(sequential.count), last \(parallel.last ?? "-") / \(sequential.last ?? "-")")
                    }
                }
            }
        }
        return (found, compared)
    }

    @Test("the fixtures")
    func fixtures() {
        let (found, compared) = Self.disagreements(DocumentFramerTests.documents(under: TestPaths.fixtures), names: 4)
        #expect(compared > 100)
        #expect(found.isEmpty, "\(found.prefix(10).joined(separator: "\n"))")
        let zoo = try? [UInt8](Data(contentsOf: TestPaths.fixture("zoo.xml")))
        #expect(Self.decoded(zoo ?? [], name: "kind", workers: 2) == ["cat", "dog"])
    }

    @Test("the W3C suite", .enabled(if: TestPaths.conformanceSuite != nil, TestPaths.conformanceSuiteMissing))
    func conformanceSuite() throws {
        let suite = try #require(TestPaths.conformanceSuite)
        let (found, compared) = Self.disagreements(DocumentFramerTests.documents(under: suite, limit: 16 * 1024), names: 2)
        #expect(compared > 1000)
        #expect(found.isEmpty, "\(found.count):\n\(found.prefix(10).joined(separator: "\n"))")
    }

    @Test("the adversarial corpus", .enabled(if: AdversarialCorpus.shared != nil, TestPaths.adversarialGeneratorMissing))
    func adversarialCorpus() throws {
        let corpus = try #require(AdversarialCorpus.shared)
        let documents = corpus.cases.compactMap { test -> (String, [UInt8])? in
            guard let data = try? Data(contentsOf: test.url), data.count <= 1 << 20 else { return nil }
            return (test.file, [UInt8](data))
        }
        let (found, _) = Self.disagreements(documents, names: 2)
        #expect(found.isEmpty, "\(found.count):\n\(found.prefix(10).joined(separator: "\n"))")
    }
}

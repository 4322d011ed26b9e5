import Foundation
import SAXDispatchTestSupport
import SAXDispatchTools
import Testing

@testable import SAXDispatch

/// A transform with no rules copies every valid document of the W3C suite and of the
/// adversarial corpus to the original's canonical form: with namespace processing where
/// the document is namespace-well-formed (declarations as written), and as written.
@Suite("Transforming: round trips of real documents")
struct TransformRoundTripTests {
    /// Checks the copies of `paths`; returns how many were compared with namespaces.
    static func checkCopies(_ paths: [String]) throws -> Int {
        var withNamespaces = 0
        for path in paths {
            let original = try CanonicalXML().canonicalize(.file(path))
            // The Sun form lists notations in a DOCTYPE, which the transform does not write.
            guard !original.starts(with: Array("<!DOCTYPE".utf8)) else { continue }
            var namespaced = Dispatcher()
            namespaced.processesNamespaces = true
            let isNamespaceWellFormed = (try? namespaced.parse(.file(path))) != nil
            for processesNamespaces in [false, true] {
                if processesNamespaces {
                    guard isNamespaceWellFormed else { continue }
                    withNamespaces += 1
                }
                let collected = XMLWriterTests.Collected()
                var transform = XMLTransform()
                transform.processesNamespaces = processesNamespaces
                do {
                    try transform.run(.file(path), to: .writer(name: path) { collected })
                } catch let error as HandlerError where error.underlying is XMLWriterError {
                    // The writer writes XML with namespaces: only a document that is not
                    // namespace-well-formed, read as written, is refused.
                    #expect(!processesNamespaces && !isNamespaceWellFormed, "\(path): \(error)")
                    continue
                }
                let copy = try CanonicalXML().canonicalize(collected.bytes)
                #expect(copy == original, "\(path), namespaces \(processesNamespaces)")
            }
        }
        return withNamespaces
    }

    @Test(
        "every valid standalone document of xmltest copies to its canonical form",
        .enabled(if: TestPaths.conformanceSuite != nil, TestPaths.conformanceSuiteMissing))
    func conformanceSuite() throws {
        let suite = try #require(TestPaths.conformanceSuite)
        let directory = suite.appendingPathComponent("xmltest/valid/sa")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".xml") }.sorted()
        #expect(try Self.checkCopies(files.map { directory.appendingPathComponent($0).path }) > 100)
    }

    @Test(
        "the adversarial corpus's well-formed documents copy to their canonical forms",
        .enabled(if: AdversarialCorpus.shared != nil, TestPaths.adversarialGeneratorMissing))
    func adversarialCorpus() throws {
        let corpus = try #require(AdversarialCorpus.shared)
        let paths = corpus.cases.filter { $0.expectedDefault == .ok }.map(\.url.path).filter {
            ((try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) ?? .max) <= 2 << 20
        }
        #expect(try Self.checkCopies(paths) > 10)
    }
}

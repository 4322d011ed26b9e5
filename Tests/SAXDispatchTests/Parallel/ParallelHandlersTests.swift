import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// Handler sets read on workers (``Dispatcher/parse(_:workers:rangeBytes:handlers:merge:)``):
/// each range's handlers see their own elements once, the merged result is one parse's, and
/// the first error is one parse's.
@Suite("Parallel handlers: a handler set per range, merged in document order")
struct ParallelHandlersTests {
    /// What a range's handlers saw: each element it owns (path, offset, line, column,
    /// attributes) and its text, in order.
    struct Seen: Sendable, Equatable {
        var starts: [String] = []
        var text = ""
    }

    final class Collector: @unchecked Sendable {
        var seen = Seen()
    }

    /// Everything handlers see of `bytes`, merged from `workers` (one parse when `nil`), then
    /// the error, if one ended the read.
    static func read(_ bytes: [UInt8], workers: Int?, rangeBytes: Int) -> (Seen, String?, Int) {
        var merged = Seen()
        let handlers: @Sendable (XMLParseRange, inout Dispatcher) -> () -> Seen = { range, dispatcher in
            let collector = Collector()
            dispatcher.onAnyStart { element in
                guard range.owns(element) else { return }
                collector.seen.starts.append(
                    "\(element.path)@\(element.byteOffset) \(element.line):\(element.column) \(element.attributes.count)")
            }
            dispatcher.onAnyText { _, chunk in collector.seen.text += chunk.string }
            return { collector.seen }
        }
        do {
            let input = XMLInput.forWorkers(workers ?? 1, bytes, named: "<bytes>")
            let summary = try Dispatcher.parse(input, workers: workers ?? 1, rangeBytes: rangeBytes, handlers: handlers) {
                merged.starts += $0.starts
                merged.text += $0.text
            }
            return (merged, nil, summary.rangesReadInParallel)
        } catch let error as XMLParseError {
            return (merged, "\(error.code) \(error.line):\(error.column)@\(error.byteOffset)", 0)
        } catch {
            return (merged, "\(error)", 0)
        }
    }

    static func disagreements(_ bytes: [UInt8], file: String, parallelRanges: inout Int) -> [String] {
        let (whole, wholeError, _) = read(bytes, workers: nil, rangeBytes: 1)
        var found: [String] = []
        for workers in [2, 3, 8] {
            for rangeBytes in [1, 64, 4096] {
                let (merged, error, ranges) = read(bytes, workers: workers, rangeBytes: rangeBytes)
                parallelRanges += ranges
                // A failed read has merged the ranges before its error, which the whole
                // parse's handlers saw too.
                let starts = wholeError == nil ? merged.starts : Array(merged.starts.prefix(whole.starts.count))
                if error != wholeError || starts != (wholeError == nil ? whole.starts : Array(whole.starts.prefix(starts.count)))
                    || (wholeError == nil && merged.text != whole.text)
                {
                    let index = zip(merged.starts, whole.starts).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    found.append(
                        "\(file) workers \(workers) ranges \(rangeBytes): error \(error ?? "none") against \(wholeError ?? "none"), "
                            + "\(merged.starts.count) starts against \(whole.starts.count), first difference at \(index.map(String.init) ?? "-")")
                }
            }
        }
        return found
    }

    @Test("the fixtures and documents built to fool a framer: the merged handlers see one parse's events")
    func fixtures() {
        var found: [String] = []
        var parallel = 0
        for (file, bytes) in DocumentFramerTests.documents(under: TestPaths.fixtures) {
            found += Self.disagreements(bytes, file: file, parallelRanges: &parallel)
        }
        for (index, text) in ParallelRecordTests.foolingDocumentTexts.enumerated() {
            found += Self.disagreements(Array(text.utf8), file: "fooling \(index)", parallelRanges: &parallel)
        }
        #expect(found.isEmpty, "\(found.prefix(10).joined(separator: "\n"))")
        #expect(parallel > 200)
    }

    @Test(
        "the W3C suite on 2, 3 and 8 workers: the merged handlers see one parse's events, the first error at its place",
        .enabled(if: TestPaths.conformanceSuite != nil, TestPaths.conformanceSuiteMissing))
    func conformanceSuite() throws {
        let suite = try #require(TestPaths.conformanceSuite)
        var found: [String] = []
        var parallel = 0
        for (file, bytes) in DocumentFramerTests.documents(under: suite, limit: 16 * 1024) {
            let (whole, wholeError, _) = Self.read(bytes, workers: nil, rangeBytes: 1)
            for workers in [2, 3, 8] {
                let (merged, error, ranges) = Self.read(bytes, workers: workers, rangeBytes: 1)
                parallel += ranges
                if error != wholeError || (wholeError == nil && merged != whole) {
                    found.append("\(file) workers \(workers): error \(error ?? "none") against \(wholeError ?? "none")")
                }
            }
        }
        #expect(found.isEmpty, "\(found.count):\n\(found.prefix(10).joined(separator: "\n"))")
        #expect(parallel > 500)
    }

    @Test(
        "the adversarial corpus on 2, 3 and 8 workers: the same first error, the same events before it",
        .enabled(if: AdversarialCorpus.shared != nil, TestPaths.adversarialGeneratorMissing))
    func adversarialCorpus() throws {
        let corpus = try #require(AdversarialCorpus.shared)
        var found: [String] = []
        var parallel = 0
        for test in corpus.cases {
            guard let data = try? Data(contentsOf: test.url), data.count <= 1 << 20 else { continue }
            let bytes = [UInt8](data)
            let (whole, wholeError, _) = Self.read(bytes, workers: nil, rangeBytes: 1)
            for (workers, rangeBytes) in [(2, 1), (3, 1), (8, 1), (2, 4096)] {
                let (merged, error, ranges) = Self.read(bytes, workers: workers, rangeBytes: rangeBytes)
                parallel += ranges
                let starts = Array(merged.starts.prefix(whole.starts.count))
                if error != wholeError || starts != Array(whole.starts.prefix(starts.count)) {
                    found.append("\(test.file) workers \(workers) ranges \(rangeBytes): error \(error ?? "none") against \(wholeError ?? "none")")
                }
            }
        }
        #expect(found.isEmpty, "\(found.count):\n\(found.prefix(10).joined(separator: "\n"))")
    }

    @Test("a generated document of records is read in ranges by the workers, with no sequential parse")
    func generated() {
        let text = "<?xml version='1.0'?>\n<db xmlns='urn:x'>\n" + (0..<3000).map { "  <row n='\($0)'><v>\($0 * 7)</v><w/></row>\n" }.joined() + "</db>\n"
        let (whole, _, _) = Self.read(Array(text.utf8), workers: nil, rangeBytes: 1)
        let (merged, error, ranges) = Self.read(Array(text.utf8), workers: 2, rangeBytes: 8 * 1024)
        #expect(error == nil)
        #expect(merged == whole)
        #expect(whole.starts.count == 1 + 3000 * 3)
        #expect(ranges > 5)
    }

    @Test("a handler that throws ends the read with its error, after the ranges before it were merged")
    func handlerError() {
        struct Stop: Error {}
        let text = "<r>" + (0..<200).map { "<p n='\($0)'/>" }.joined() + "</r>"
        var merged = 0
        #expect(throws: HandlerError.self) {
            try Dispatcher.parse(.string(text), workers: 2, rangeBytes: 16) { range, dispatcher in
                let collector = Collector()
                dispatcher.onStart("p") { element in
                    if element.attributes["n"] == "150" { throw Stop() }
                    if range.owns(element) { collector.seen.starts.append("p") }
                }
                return { collector.seen.starts.count }
            } merge: { merged += $0 }
        }
        #expect(merged == 150)
    }
}

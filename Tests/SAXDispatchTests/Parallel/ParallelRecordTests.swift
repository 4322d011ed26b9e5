import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// Records read on many workers are the records one sequential parse delivers: the same
/// models in the same order, the same records set aside, the same first error at the same
/// position, for every document.
@Suite("Parallel records: one document read range by range on worker threads")
struct ParallelRecordTests {
    /// What a record read gives: every model and diagnostic in order, then the error.
    struct Transcript: Equatable, CustomStringConvertible {
        var events: [String] = []
        var error: String?
        /// The models and the records set aside, apart.
        var models: [String] = []
        var skipped: [String] = []
        /// How many ranges the workers read (not compared: a sequential read has none).
        var rangesReadInParallel = 0
        var description: String { "\(events.count) events, error \(error ?? "none")" }

        static func == (a: Transcript, b: Transcript) -> Bool { a.events == b.events && a.error == b.error }

        mutating func deliver(_ model: String) {
            events.append(model)
            models.append(model)
        }

        mutating func skip(_ error: XMLRecordError) {
            events.append("skipped \(error.description)")
            skipped.append(error.description)
        }
    }

    /// How many ranges the workers read in the runs of a test: some must be.

    static func transcript(_ record: XMLRecord<String>, _ input: XMLInput, workers: Int?, rangeBytes: Int = 1) -> Transcript {
        var transcript = Transcript()
        do {
            if let workers {
                let summary = try record.forEach(
                    in: input, workers: workers, rangeBytes: rangeBytes,
                    diagnostics: { transcript.skip($0) }
                ) { transcript.deliver($0) }
                transcript.rangesReadInParallel = summary.rangesReadInParallel
            } else {
                try record.forEach(in: input, diagnostics: { transcript.skip($0) }) { transcript.deliver($0) }
            }
        } catch {
            transcript.error = "\(error)"
        }
        return transcript
    }

    /// What a read in completion order gives: the models put in order by their numbers
    /// (which must be 0, 1, 2… each once), the records set aside, the error.
    static func completionTranscript(_ record: XMLRecord<String>, _ input: XMLInput, workers: Int, rangeBytes: Int) -> Transcript {
        var transcript = Transcript()
        let numbered = LockedValue<[(Int, String)]>([])
        do {
            let summary = try record.forEachAsCompleted(
                in: input, workers: workers, rangeBytes: rangeBytes, diagnostics: { transcript.skip($0) }
            ) { number, model in numbered.withLock { $0.append((number, model)) } }
            transcript.rangesReadInParallel = summary.rangesReadInParallel
            if summary.delivered != numbered.withLock({ $0.count }) { transcript.error = "delivered \(summary.delivered)" }
        } catch {
            transcript.error = (transcript.error ?? "") + "\(error)"
        }
        let sorted = numbered.withLock { $0 }.sorted { $0.0 < $1.0 }
        if sorted.map(\.0) != Array(sorted.indices) { transcript.error = (transcript.error ?? "") + " numbers \(sorted.map(\.0))" }
        transcript.models = sorted.map(\.1)
        return transcript
    }

    /// The record of the elements named `name`: each one's position and inner markup.
    static func record(_ name: String, skips: Bool = false) -> XMLRecord<String> {
        let record = XMLRecord(ElementPattern(name: name), .markup(".", whitespace: .preserve), .text("@id", whitespace: .preserve)) {
            "\($0)|\($1)"
        }
        return skips ? record.onFailure(.skip) : record
    }

    /// What differs between reading `bytes` sequentially and on workers; `parallelRanges`
    /// counts the ranges the workers read.
    static func disagreements(
        _ bytes: [UInt8], file: String, names: [String], workers: [Int], rangeBytes: [Int], parallelRanges: inout Int
    ) -> [String] {
        var found: [String] = []
        // On 3 workers the document is a file; on others bytes in memory or read in pieces.
        let path = FileManagerTemp.write(Data(bytes), name: "parallel-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(atPath: path) }
        func input(_ count: Int) -> XMLInput {
            count == 3 ? XMLInput.file(path).named(file) : .forWorkers(count, bytes, named: file)
        }
        for name in names {
            for skips in [false, true] {
                let record = Self.record(name, skips: skips)
                let sequential = transcript(record, .bytes(bytes).named(file), workers: nil)
                for count in workers {
                    for size in rangeBytes {
                        let parallel = transcript(record, input(count), workers: count, rangeBytes: size)
                        parallelRanges += parallel.rangesReadInParallel
                        let completed = completionTranscript(record, input(count), workers: count, rangeBytes: size)
                        if completed.models != sequential.models || completed.skipped != sequential.skipped
                            || completed.error != sequential.error
                        {
                            found.append(
                                "\(file) \(name) skips \(skips) workers \(count) ranges \(size), in completion order: "
                                    + "\(completed.models.count) models, \(completed.skipped.count) set aside, error \(completed.error ?? "none") "
                                    + "against \(sequential.models.count), \(sequential.skipped.count), \(sequential.error ?? "none")")
                        }
                        if parallel != sequential {
                            let index = zip(parallel.events, sequential.events).enumerated()
                                .first { $0.element.0 != $0.element.1 }?.offset ?? min(parallel.events.count, sequential.events.count)
                            found.append(
                                "\(file) \(name) skips \(skips) workers \(count) ranges \(size): \(parallel) against \(sequential); "
                                    + "first difference at event \(index): "
                                    + "\(index < parallel.events.count ? parallel.events[index] : "-") / \(index < sequential.events.count ? sequential.events[index] : "-")")
                        }
                    }
                }
            }
        }
        return found
    }

    @Test("the fixtures: every name as the record, 2, 3 and 8 workers, ranges of 1 byte to 4 KiB")
    func fixtures() {
        var found: [String] = []
        var parallel = 0
        for (file, bytes) in DocumentFramerTests.documents(under: TestPaths.fixtures) {
            found += Self.disagreements(
                bytes, file: file, names: DocumentRangeTests.names(bytes, limit: 6), workers: [2, 3, 8], rangeBytes: [1, 200, 4096], parallelRanges: &parallel)
        }
        #expect(found.count == 0, "\(found.prefix(10).joined(separator: "\n"))")
        #expect(parallel > 500)
    }

    @Test(
        "the W3C suite: its first names as records, 2, 3 and 8 workers, a range per record",
        .enabled(if: TestPaths.conformanceSuite != nil, TestPaths.conformanceSuiteMissing))
    func conformanceSuite() throws {
        let suite = try #require(TestPaths.conformanceSuite)
        var found: [String] = []
        var parallel = 0
        for (file, bytes) in DocumentFramerTests.documents(under: suite, limit: 32 * 1024) {
            found += Self.disagreements(
                bytes, file: file, names: DocumentRangeTests.names(bytes, limit: 3), workers: [2, 3, 8], rangeBytes: [1], parallelRanges: &parallel)
        }
        #expect(found.count == 0, "\(found.count):\n\(found.prefix(10).joined(separator: "\n"))")
        #expect(parallel > 1000)
    }

    @Test(
        "the adversarial corpus on 2, 3 and 8 workers: the same records, records set aside and first error",
        .enabled(if: AdversarialCorpus.shared != nil, TestPaths.adversarialGeneratorMissing))
    func adversarialCorpus() throws {
        let corpus = try #require(AdversarialCorpus.shared)
        var found: [String] = []
        var parallel = 0
        for test in corpus.cases {
            guard let data = try? Data(contentsOf: test.url), data.count <= 1 << 20 else { continue }
            let bytes = [UInt8](data)
            found += Self.disagreements(
                bytes, file: test.file, names: DocumentRangeTests.names(bytes, limit: 2), workers: [2, 3, 8], rangeBytes: [1, 4096], parallelRanges: &parallel)
        }
        #expect(found.count == 0, "\(found.count):\n\(found.prefix(10).joined(separator: "\n"))")
    }

    /// Documents built to fool a framer.
    static let foolingDocumentTexts = [
        // The record's tag in a comment, CDATA, an attribute value, a PI.
        #"<r><!-- <page id="c"> --><page id="1" a="<page>"/><![CDATA[<page id="d">]]><?pi <page id="p">?><page id="2"/></r>"#,
        // Records from entity references; the tag in the internal subset.
        #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "<page id='e'>x</page>"><!-- <page> --><!ATTLIST page id CDATA "dflt">]><r>&e;<page/>&e;<page id='2'/></r>"#,
        // Namespaces rebound between records, a default namespace, xml:space on an ancestor.
        #"<r xmlns="urn:a" xml:space="preserve"><page id="1"/><s xmlns="urn:b"><page id="2"> x </page></s><page xmlns:p="urn:c" id="3"><p:x/></page></r>"#,
        // A record open around a boundary: the outer page holds a page.
        "<r><a><page id='1'/></a><page id='2'><page id='3'/></page><page id='4'/></r>",
        // Malformed after some records.
        "<r><page id='1'/><page id='2'><x></page><page id='3'/></r>",
        // An error inside the root's start tag, and text between records.
        "<r>t1<page id='1'/>t2<page id='2'>&amp;&lt;</page>t3</r>",
        "\u{FEFF}<r>\r\n<page id='1'>é</page>\r<page id='2'>東</page>\n</r>",
    ]

    @Test("documents built to fool a framer give the sequential records")
    func foolingDocuments() {
        var parallel = 0
        let documents = Self.foolingDocumentTexts
        var found: [String] = []
        for (index, text) in documents.enumerated() {
            found += Self.disagreements(
                Array(text.utf8), file: "fooling \(index)", names: ["page"], workers: [2, 3], rangeBytes: [1, 5, 30], parallelRanges: &parallel)
        }
        #expect(found.count == 0, "\(found.joined(separator: "\n"))")
        #expect(parallel > 20)
    }

    @Test("a large generated document: the same records on 2 and 4 workers, with ranges of 1 KiB to 256 KiB")
    func generated() {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<osm xmlns:x='urn:x'>\n"
        for index in 0..<3000 {
            text += "  <node id='\(index)' x:lat='\(index % 90)'>\n    <tag k='name' v='n\(index) é'/>\n"
            if index % 7 == 0 { text += "    <!-- <node id='fake'/> -->\n" }
            if index % 11 == 0 { text += "    <![CDATA[</node><node id='fake'>]]>\n" }
            text += "  </node>\n"
        }
        text += "</osm>\n"
        var parallel = 0
        let found = Self.disagreements(
            Array(text.utf8), file: "generated", names: ["node"], workers: [2, 4],
            rangeBytes: [1024, 16 * 1024, 256 * 1024], parallelRanges: &parallel)
        #expect(found.count == 0, "\(found.joined(separator: "\n"))")
        #expect(parallel > 100)
    }
}

extension ParallelRecordTests {
    static let osm: String = {
        var text = "<osm>\n"
        for index in 0..<2000 { text += "  <node id='\(index)'><tag k='a' v='\(index)'/></node>\n" }
        return text + "</osm>\n"
    }()

    @Test("a well-formed document is read by the workers, range by range, with no sequential parse")
    func readInParallel() throws {
        let record = XMLRecord("node", .text("@id")) { Int($0) ?? -1 }
        var ids: [Int] = []
        let summary = try record.forEach(in: .string(Self.osm), workers: 2, rangeBytes: 2048) { ids.append($0) }
        #expect(ids == Array(0..<2000))
        #expect(summary.sequentialFrom == nil)
        #expect(summary.rangesReadInParallel > 20)
        #expect(summary.delivered == 2000)
    }

    @Test("records around records read in parallel; a malformed range and an unframed encoding read sequentially from there")
    func fallsBack() throws {
        let record = XMLRecord("page", .text("@id")) { $0 }
        let straddling = "<r><a><page id='1'/></a>" + String(repeating: " ", count: 100) + "<page id='2'><page id='3'/></page><page id='4'/></r>"
        var ids: [String] = []
        let summary = try record.forEach(in: .string(straddling), workers: 2, rangeBytes: 10) { ids.append($0) }
        #expect(ids == (try record.all(in: .string(straddling))))
        // No range begins inside the outer page: read in parallel all the same.
        #expect(summary.sequentialFrom == nil)

        let malformed = "<r>" + (1...50).map { "<page id='\($0)'/>" }.joined() + "<page id='x'><b></page>" + "<page id='y'/></r>"
        var before: [String] = []
        let error = #expect(throws: XMLParseError.self) {
            try record.forEach(in: .string(malformed), workers: 2, rangeBytes: 64) { before.append($0) }
        }
        #expect(before == (1...50).map(String.init))
        let sequentialError = #expect(throws: XMLParseError.self) { try record.forEach(in: .string(malformed)) { _ in } }
        #expect(error?.description == sequentialError?.description)

        let latin2 = Array(#"<?xml version="1.0" encoding="ISO-8859-2"?><r><page id='1'/><page id='2'/></r>"#.utf8)
        let unframed = try record.forEach(in: .bytes(latin2), workers: 2, rangeBytes: 1) { _ in }
        #expect(unframed.sequentialFrom == 0)
        #expect(unframed.delivered == 2)
    }

    /// Hands over the first `count` bytes of a document, then fails.
    struct FailingReader: XMLInputReader {
        struct ReadFailure: Error, CustomStringConvertible {
            var description: String { "the disk went away" }
        }
        var bytes: ArraySlice<UInt8>

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            guard !bytes.isEmpty else { throw ReadFailure() }
            let count = min(buffer.count, bytes.count, 1000)
            buffer.copyBytes(from: bytes.prefix(count))
            bytes = bytes.dropFirst(count)
            return count
        }
    }

    @Test("a read that fails: the records before it are delivered, then its error, as a sequential parse does")
    func readFailure() {
        let bytes = Array(Self.osm.utf8)[..<30_000]
        let input = XMLInput.reader(name: "failing") { FailingReader(bytes: bytes) }
        let record = Self.record("node")
        let sequential = Self.transcript(record, input, workers: nil)
        #expect(sequential.error == "the disk went away")
        #expect(sequential.events.count > 100)
        for rangeBytes in [1, 700, 4096] {
            #expect(Self.transcript(record, input, workers: 2, rangeBytes: rangeBytes) == sequential)
        }
    }

    @Test("ancestors whose start tags are larger than the range size: no range repeats them, the records are the same")
    func largeContext() throws {
        let wide = String(repeating: "x", count: 600_000)
        let text = "<osm note='\(wide)'><nodes note='\(wide)'>" + (0..<300).map { "<node id='\($0)'/>" }.joined()
            + "</nodes></osm>"
        let record = XMLRecord("node", .text("@id")) { $0 }
        var ids: [String] = []
        let summary = try record.forEach(in: .string(text), workers: 2, rangeBytes: 100) { ids.append($0) }
        #expect(ids == (0..<300).map(String.init))
        #expect(summary.rangesReadInParallel == 1, "sequential from \(String(describing: summary.sequentialFrom))")
    }

    @Test("once forEach returns, no worker parses: a body that throws stops every range")
    func workersStopWithTheCaller() throws {
        let built = LockedValue(0)
        let record = XMLRecord("node", .text("@id")) { id -> Int in
            built.withLock { $0 += 1 }
            return Int(id) ?? -1
        }
        struct Enough: Error {}
        #expect(throws: Enough.self) {
            try record.forEach(in: .string(Self.osm), workers: 4, rangeBytes: 64) { _ in throw Enough() }
        }
        let afterReturn = built.withLock { $0 }
        usleep(200_000)
        #expect(built.withLock { $0 } == afterReturn)
    }

    @Test("warnings: a pattern or field that matched nothing is said once, as one parse says it")
    func warnings() throws {
        let record = XMLRecord("node", .text("@id"), .optional(.text("missing"))) { "\($0)\($1 ?? "")" }
        let sequential = try record.forEach(in: .string(Self.osm)) { _ in }
        let parallel = try record.forEach(in: .string(Self.osm), workers: 3, rangeBytes: 4096) { _ in }
        #expect(parallel.warnings.map(\.code) == sequential.warnings.map(\.code))
        #expect(parallel.warnings.map(\.pattern) == sequential.warnings.map(\.pattern))
        #expect(!sequential.warnings.isEmpty)
    }
}

/// A node as `Decodable` reads it.
private struct DecodedNode: Decodable, Equatable, Sendable {
    let id: Int
    let tag: [Tag]

    struct Tag: Decodable, Equatable, Sendable {
        let k: String
        let v: String
    }
}

extension ParallelRecordTests {
    fileprivate static func decoded(_ text: String, workers: Int?, rangeBytes: Int) -> (values: [DecodedNode], error: String?, warnings: [String]) {
        var values: [DecodedNode] = []
        var warnings: [String] = []
        let decoder = XMLRecordDecoder()
        do {
            if let workers {
                try decoder.forEach(
                    DecodedNode.self, at: "node", in: .bytes(Array(text.utf8)).named("nodes"), workers: workers,
                    rangeBytes: rangeBytes, onWarning: { warnings.append($0.description) }
                ) { values.append($0) }
            } else {
                try decoder.forEach(
                    DecodedNode.self, at: "node", in: .bytes(Array(text.utf8)).named("nodes"),
                    onWarning: { warnings.append($0.description) }
                ) { values.append($0) }
            }
            return (values, nil, warnings)
        } catch {
            return (values, "\(error)", warnings)
        }
    }

    @Test("Decodable values read on workers are the sequential values, and a value that does not decode fails at the same place")
    func decodable() {
        var text = "<osm>\n"
        for index in 0..<1500 {
            text += "  <node id='\(index)'><tag k='a' v='\(index)'/><tag k='b' v='é\(index)'/></node>\n"
        }
        let good = text + "</osm>\n"
        let bad = text + "  <node id='x'/>\n" + "  <node id='7'/>\n</osm>\n"
        for document in [good, bad] {
            let sequential = Self.decoded(document, workers: nil, rangeBytes: 0)
            for workers in [2, 3] {
                for rangeBytes in [512, 8192] {
                    let parallel = Self.decoded(document, workers: workers, rangeBytes: rangeBytes)
                    #expect(parallel.values == sequential.values, "workers \(workers) ranges \(rangeBytes)")
                    #expect(parallel.error == sequential.error)
                    #expect(parallel.warnings == sequential.warnings)
                }
            }
        }
        #expect(Self.decoded(good, workers: nil, rangeBytes: 0).values.count == 1500)
        #expect(Self.decoded(bad, workers: nil, rangeBytes: 0).error != nil)
    }
}

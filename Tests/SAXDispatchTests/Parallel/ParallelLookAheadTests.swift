import Foundation
import Testing

@testable import SAXDispatch

/// Cuts found by looking ahead for a start tag rather than by the framing pass: what the
/// parse of the range before each verifies, and where looking ahead gives way to a framer.
@Suite("Parallel reads: cuts found by looking ahead")
struct ParallelLookAheadTests {
    /// How the reader cut `text`, read 97 bytes at a time, for records named `name`, its
    /// ranges parsed and verified with no handlers.
    static func report(_ text: String, record name: String, rangeBytes: Int) throws -> ParallelRangeParse.Report {
        let parallel = try #require(
            ParallelRangeParse(input: .pieces(Array(text.utf8), of: 97, named: "text"), pattern: ElementPattern(name: name), workers: 2, rangeBytes: rangeBytes))
        return try parallel.run(
            parse: { job in job.parseVerifying(with: Dispatcher(), delivered: { 0 }) ? 1 : nil }, deliver: { _ in },
            sequential: { _ in Dispatcher() })
    }

    static func flat(records: Int, extra: (Int) -> String = { _ in "" }) -> String {
        var text = "<?xml version=\"1.0\"?>\n<zoo>\n <animals>\n"
        for index in 0..<records { text += "  <animal id=\"\(index)\"><name>n\(index) é</name></animal>\n" + extra(index) }
        return text + " </animals>\n</zoo>\n"
    }

    @Test("records one after another: the cuts after the first are found ahead, and every range verifies")
    func flatRecords() throws {
        let report = try Self.report(Self.flat(records: 400), record: "animal", rangeBytes: 512)
        #expect(report.sequentialFrom == nil)
        #expect(report.rangesReadInParallel > 20)
        #expect(report.cutsFoundAhead >= report.rangesReadInParallel - 2)
        var parallel = 0
        let found = ParallelRecordTests.disagreements(
            Array(Self.flat(records: 400).utf8), file: "flat", names: ["animal", "name"], workers: [2, 3],
            rangeBytes: [1, 100, 512, 4096], parallelRanges: &parallel)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("tags inside comments, CDATA sections and processing instructions are passed over, and the ranges still verify")
    func markupBetweenRecords() throws {
        let text = Self.flat(records: 300) { index in
            switch index % 4 {
            case 0: "  <!-- <animal id=\"c\"> -->\n"
            case 1: "  <?pi <animal id=\"p\">?>\n"
            case 2: "  <!-- a comment that holds <![CDATA[ and <animal id=\"x\"> -->\n"
            default: ""
            }
        }
        let report = try Self.report(text, record: "animal", rangeBytes: 700)
        #expect(report.sequentialFrom == nil)
        #expect(report.cutsFoundAhead > 10)
        // Each tag inside one was read back from and passed over: no guess failed.
        #expect(report.framedAgain == 0)
        var parallel = 0
        let found = ParallelRecordTests.disagreements(
            Array(text.utf8), file: "markup", names: ["animal"], workers: [2, 3], rangeBytes: [1, 64, 700, 4096],
            parallelRanges: &parallel)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("record tags in a comment opened farther back than the look back: the guess fails, is framed again, and the records are one parse's")
    func tagsFarInsideAComment() throws {
        let lookBack = MarkupReadBack().lookBack
        let text = Self.flat(records: 400) { index in
            guard index % 100 == 50 else { return "" }
            // Text longer than the look back, then record tags still inside the comment.
            return "  <!-- " + String(repeating: "old records follow. ", count: lookBack / 20 + 1)
                + (0..<40).map { "<animal id=\"old\(index)-\($0)\"><name>gone</name></animal>" }.joined(separator: "\n") + " -->\n"
        }
        let report = try Self.report(text, record: "animal", rangeBytes: 700)
        #expect(report.sequentialFrom == nil)
        #expect(report.framedAgain > 0)
        let record = XMLRecord("animal", .text("@id")) { $0 }
        let sequential = try record.all(in: .string(text))
        #expect(sequential.count == 400)
        for (workers, rangeBytes) in [(2, 700), (3, 300), (8, 2000)] {
            var parallel: [String] = []
            try record.forEach(in: .pieces(Array(text.utf8), of: 97, named: "comments"), workers: workers, rangeBytes: rangeBytes) {
                parallel.append($0)
            }
            #expect(parallel == sequential, "ranges of \(rangeBytes) bytes on \(workers) workers")
        }
    }

    /// Two `animals` elements that bind the prefix `p` to other namespaces: a range whose
    /// context were the first one's after the second began would read the second group's
    /// records as the first's.
    static let reopenedAncestor: String = {
        var text = "<zoo>\n<animals xmlns:p=\"urn:a\">\n"
        for index in 0..<60 { text += "<p:animal id=\"a\(index)\"><p:name>first</p:name></p:animal>\n" }
        text += "</animals>\n<animals xmlns:p=\"urn:b\">\n"
        for index in 0..<60 { text += "<p:animal id=\"b\(index)\"><p:name>second</p:name></p:animal>\n" }
        return text + "</animals>\n</zoo>\n"
    }()

    @Test("an ancestor closed and opened again with other namespaces between two cuts: the records of one parse")
    func reopenedAncestor() throws {
        let record = XMLRecord("p:animal", .text("@id")) { $0 }.namespaces(["p": "urn:a"])
        let sequential = try record.all(in: .string(Self.reopenedAncestor))
        #expect(sequential.count == 60)
        #expect(sequential.last == "a59")
        for rangeBytes in [1, 100, 300, 1000, 2000] {
            for workers in [2, 3] {
                var parallel: [String] = []
                let input = XMLInput.pieces(Array(Self.reopenedAncestor.utf8), of: 61, named: "zoo")
                try record.forEach(in: input, workers: workers, rangeBytes: rangeBytes) {
                    parallel.append($0)
                }
                #expect(parallel == sequential, "ranges of \(rangeBytes) bytes on \(workers) workers")
            }
        }
        // The range across the second start tag does not verify when its end was found ahead.
        let report = try Self.report(Self.reopenedAncestor, record: "animal", rangeBytes: 1000)
        #expect(report.cutsFoundAhead > 0)
    }

    /// Each record in an element of its own, as a dump's revisions are each in a page: the
    /// elements around one record are never those around the next.
    static func pages(_ records: Int, record: String = "revision", text: String = "text") -> String {
        var pages = ""
        for index in 0..<records {
            pages += " <page id=\"p\(index)\"><title>t\(index)</title>\n"
            pages += "  <\(record)><id>\(index)</id><\(text)>é \(index)</\(text)></\(record)>\n </page>\n"
        }
        return pages
    }

    @Test("records each in an element of its own: the ranges are framed rather than looked ahead for, and all verify")
    func recordsInElementsOfTheirOwn() throws {
        let text = "<mediawiki>\n" + Self.pages(400) + "</mediawiki>\n"
        for rangeBytes in [512, 2048] {
            let report = try Self.report(text, record: "revision", rangeBytes: rangeBytes)
            #expect(report.sequentialFrom == nil, "ranges of \(rangeBytes) bytes")
            #expect(report.rangesReadInParallel > 10, "ranges of \(rangeBytes) bytes")
        }
        var parallel = 0
        let found = ParallelRecordTests.disagreements(
            Array(text.utf8), file: "wrapped", names: ["revision", "text"], workers: [2, 3], rangeBytes: [1, 100, 512, 4096],
            parallelRanges: &parallel)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("records side by side, then each in an element of its own: the records of one parse")
    func wrappedAfterFlat() throws {
        let closing = " </animals>\n</zoo>\n"
        let text = Self.flat(records: 300).dropLast(closing.count) + Self.pages(300, record: "animal", text: "name") + closing
        let sequential = try XMLRecord("animal", .text("name")) { $0 }.all(in: .string(text))
        var parallel: [String] = []
        try XMLRecord("animal", .text("name")) { $0 }.forEach(
            in: .pieces(Array(text.utf8), of: 97, named: "mixed"), workers: 2, rangeBytes: 700
        ) { parallel.append($0) }
        #expect(parallel == sequential)
        #expect(sequential.count == 600)
    }

    /// Records side by side in groups of `records`, each group binding the prefix `p` to a
    /// namespace of its own (`urn:a` for even groups, `urn:b` for odd ones): the elements
    /// around the records change every few ranges, where a cut found ahead fails.
    static func groups(_ groups: Int, records: Int) -> String {
        var text = "<?xml version=\"1.0\"?>\n<catalog>\n"
        for group in 0..<groups {
            text += " <group n=\"\(group)\" xmlns:p=\"urn:\(group % 2 == 0 ? "a" : "b")\">\n"
            for index in 0..<records { text += "  <p:item id=\"\(group)-\(index)\"><p:name>é \(index)</p:name></p:item>\n" }
            text += " </group>\n"
        }
        return text + "</catalog>\n"
    }

    @Test("groups of records, each several ranges long: a failed guess is framed again, and no range is read by one parse")
    func groupsLongerThanRanges() throws {
        let text = Self.groups(12, records: 60)
        for rangeBytes in [512, 1024] {
            let report = try Self.report(text, record: "item", rangeBytes: rangeBytes)
            #expect(report.sequentialFrom == nil, "ranges of \(rangeBytes) bytes")
            #expect(report.framedAgain > 0, "ranges of \(rangeBytes) bytes")
            #expect(report.cutsFoundAhead > 0, "ranges of \(rangeBytes) bytes")
            #expect(report.rangesReadInParallel > text.utf8.count / rangeBytes / 2, "ranges of \(rangeBytes) bytes")
        }
        var parallel = 0
        let found = ParallelRecordTests.disagreements(
            Array(text.utf8), file: "groups", names: ["item", "name"], workers: [2, 3, 8], rangeBytes: [1, 100, 512, 4096],
            parallelRanges: &parallel)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("a failed guess framed again near the document's end, and a malformed record soon after it: the records before the error, then its error")
    func errorSoonAfterAFailedGuess() throws {
        let record = XMLRecord("item", .text("@id")) { $0 }
        let records = { (group: Int, count: Int, malformed: Int) in
            (0..<count).map { index in
                let again = index == malformed ? " id=\"again\"" : ""
                return "  <item id=\"\(group)-\(index)\"\(again)><name>é \(index)</name></item>\n"
            }.joined()
        }
        // The second group's start (where a guess fails) and the error come among the last
        // ranges handed in, so that the ranges framed again fill the workers' room, and the
        // one with the error is delivered while they are handed in. With ranges of about a
        // record (60 bytes) and reads of thousands, a read's bytes framed again make more
        // ranges than the workers have room for: the framed range with the error does not
        // verify while the others are handed in, and the rest goes to one parse from there.
        var runs = 0
        for secondGroup in stride(from: 10, through: 70, by: 4) {
            for malformed in [0, 2, 5, 9] where malformed < secondGroup {
                let text = "<catalog>\n <group n=\"0\">\n" + records(0, 200, -1) + " </group>\n <group n=\"1\">\n"
                    + records(1, secondGroup, malformed) + " </group>\n</catalog>\n"
                var sequential: [String] = []
                var sequentialError: String?
                do {
                    try record.forEach(in: .pieces(Array(text.utf8), of: 97, named: "text")) { sequential.append($0) }
                } catch {
                    sequentialError = "\(error)"
                }
                #expect(sequentialError != nil)
                for (rangeBytes, piece) in [(100, 97), (100, 400), (100, 1500), (200, 400), (200, 4000), (60, 4000), (60, 8000)] {
                    var parallel: [String] = []
                    var parallelError: String?
                    do {
                        try record.forEach(in: .pieces(Array(text.utf8), of: piece, named: "text"), workers: 2, rangeBytes: rangeBytes) {
                            parallel.append($0)
                        }
                    } catch {
                        parallelError = "\(error)"
                    }
                    let run = "\(secondGroup) records, malformed at \(malformed), ranges of \(rangeBytes), read \(piece) at a time"
                    #expect(parallel == sequential, "\(run)")
                    #expect(parallelError == sequentialError, "\(run)")
                    runs += 1
                }
            }
        }
        #expect(runs > 100)
    }

    @Test("one failed guess: the ranges after it are framed for a while, then looked ahead for again")
    func lookingAheadResumesAfterAFailedGuess() throws {
        let records = { (group: Int, count: Int) in
            (0..<count).map { "  <item id=\"\(group)-\($0)\"><name>é \($0)</name></item>\n" }.joined()
        }
        let text = "<catalog>\n <group n=\"0\">\n" + records(0, 40) + " </group>\n <group n=\"1\">\n" + records(1, 4000)
            + " </group>\n</catalog>\n"
        let rangeBytes = 512
        let report = try Self.report(text, record: "item", rangeBytes: rangeBytes)
        // The documented pause: 64 ranges' worth of bytes after the first failure.
        let pause = 64
        #expect(ParallelRangeParse.framedAfterFailedGuesses(1) == pause)
        #expect(report.sequentialFrom == nil)
        #expect(report.framedAgain == 1)
        #expect(report.rangesReadInParallel > 3 * pause)
        // Framed for the pause's bytes (ranges a little longer than their size, as each ends
        // at the next record), then found ahead to the end. Without the pause, only the
        // ranges before the guess and those held when it failed (at most the 32 in flight)
        // would be framed.
        let framed = report.rangesReadInParallel - report.cutsFoundAhead
        #expect(framed > pause * 3 / 4 && framed < pause + 20, "\(framed) ranges framed")
        #expect(ParallelRangeParse.framedAfterFailedGuesses(2) == 2 * ParallelRangeParse.framedAfterFailedGuesses(1))
        #expect(ParallelRangeParse.framedAfterFailedGuesses(100) == 1024)
    }

    @Test("groups that bind a prefix to other namespaces: the records of one parse, in order and in completion order")
    func groupsWithOtherNamespaces() throws {
        let text = Self.groups(16, records: 50)
        let record = XMLRecord("p:item", .text("@id")) { $0 }.namespaces(["p": "urn:a"])
        let sequential = try record.all(in: .string(text))
        #expect(sequential.count == 8 * 50)
        for rangeBytes in [300, 700, 2000] {
            for workers in [2, 3] {
                let input = XMLInput.pieces(Array(text.utf8), of: 61, named: "groups")
                var parallel: [String] = []
                let summary = try record.forEach(in: input, workers: workers, rangeBytes: rangeBytes) { parallel.append($0) }
                #expect(parallel == sequential, "ranges of \(rangeBytes) bytes on \(workers) workers")
                #expect(summary.sequentialFrom == nil, "ranges of \(rangeBytes) bytes on \(workers) workers")
                let completed = LockedValue<[(Int, String)]>([])
                let again = try record.forEachAsCompleted(in: input, workers: workers, rangeBytes: rangeBytes) { number, id in
                    completed.withLock { $0.append((number, id)) }
                }
                let numbered = completed.withLock { $0 }.sorted { $0.0 < $1.0 }
                #expect(numbered.map(\.0) == Array(0..<sequential.count), "ranges of \(rangeBytes) bytes on \(workers) workers")
                #expect(numbered.map(\.1) == sequential, "ranges of \(rangeBytes) bytes on \(workers) workers")
                #expect(again.sequentialFrom == nil, "ranges of \(rangeBytes) bytes on \(workers) workers")
            }
        }
    }

    @Test("records of another name for longer than the look ahead: a framer reads on, and looking ahead resumes after")
    func siblingsOfAnotherName() throws {
        var text = "<osm>\n"
        for index in 0..<3000 { text += " <node id=\"\(index)\"><tag k=\"a\" v=\"\(index)\"/></node>\n" }
        for index in 0..<12000 { text += " <way id=\"\(index)\"><nd ref=\"\(index)\"/></way>\n" }
        for index in 0..<3000 { text += " <node id=\"n\(index)\"/>\n" }
        text += "</osm>\n"
        let report = try Self.report(text, record: "node", rangeBytes: 16 << 10)
        #expect(report.sequentialFrom == nil)
        #expect(report.cutsFoundAhead > 10)
        var parallel = 0
        let found = ParallelRecordTests.disagreements(
            Array(text.utf8), file: "siblings", names: ["node", "way"], workers: [2], rangeBytes: [16 << 10],
            parallelRanges: &parallel)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}

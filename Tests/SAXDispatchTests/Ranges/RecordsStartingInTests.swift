import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// Records read by byte ranges (``XMLRecord/forEach(in:startingIn:safety:diagnostics:_:)``):
/// ranges that together cover a document, cut at any bytes, read every record of one
/// sequential parse exactly once, in order, each at its own offset.
@Suite("Byte ranges: the records whose start tags begin in a range, cut at every byte")
struct RecordsStartingInTests {
    /// Each record's offset and markup, or the error that ended the read.
    static func read(_ record: XMLRecord<String>, _ input: XMLInput, _ offsets: Range<Int>?) -> [String] {
        var events: [String] = []
        do {
            if let offsets {
                try record.forEach(in: input, startingIn: offsets) { events.append($0) }
            } else {
                try record.forEach(in: input) { events.append($0) }
            }
        } catch let error as XMLParseError {
            events.append("error \(error.code) \(error.line):\(error.column)@\(error.byteOffset)")
        } catch {
            events.append("error \(error)")
        }
        return events
    }

    static func record(_ pattern: ElementPattern) -> XMLRecord<String> {
        XMLRecord(pattern, .byteOffset, .markup(".", whitespace: .preserve)) { "\($0)|\($1)" }
    }

    /// What differs, for every cut `k` of `text`, between one parse and the ranges `..<k`
    /// and `k...` (and, every few bytes, a third cut), as lines to report.
    static func disagreements(_ text: String, name: String, pattern: ElementPattern) -> [String] {
        let input = XMLInput.string(text)
        let record = Self.record(pattern)
        let whole = read(record, input, nil)
        let wellFormed = !(whole.last?.hasPrefix("error") ?? false)
        let size = text.utf8.count
        var found: [String] = []
        for cut in 0...size {
            var cuts = [0, cut, Int.max]
            if cut % 7 == 3 { cuts.insert(min(size, cut + 11), at: 2) }
            var joined: [String] = []
            for (low, high) in zip(cuts, cuts.dropFirst()) where low < high {
                let part = read(record, input, low..<high)
                joined += part
                if part.last?.hasPrefix("error") ?? false { break }
            }
            // A malformed document: some range fails, and every record before the first
            // error is read once.
            let compared = wellFormed ? joined : Array(joined.prefix(whole.count - 1))
            if compared != (wellFormed ? whole : Array(whole.dropLast())) {
                found.append("\(name) cuts \(cuts): \(joined) against \(whole)")
            }
            if !wellFormed && !joined.contains(where: { $0.hasPrefix("error") }) {
                found.append("\(name) cuts \(cuts): no range failed, the whole parse did")
            }
        }
        return found
    }

    @Test("each record's byte offset is its start tag's, sequential, in a range and on workers")
    func byteOffsets() throws {
        let text = "<?xml version='1.0'?>\n<r>\n  <p>é</p><p/>\n  <q><p>x</p></q>\n</r>"
        let record = XMLRecord("p", .byteOffset, .text(".")) { "\($0):\($1)" }
        let expected = ["28:é", "37:", "47:x"]
        #expect(try record.all(in: .string(text)) == expected)
        var parallel: [String] = []
        try record.forEach(in: .string(text), workers: 2, rangeBytes: 1) { parallel.append($0) }
        #expect(parallel == expected)
        let ranges = try XMLDocumentRange.split(.string(text), record: "p", parts: 3)
        #expect(ranges.count > 1)
        #expect(try ranges.flatMap { try record.all(in: .range($0, of: .string(text))) } == expected)
    }

    @Test("documents built to fool a framer, cut at every byte into two and three ranges")
    func everyByte() {
        let documents = ParallelRecordTests.foolingDocumentTexts + [
            "<feed><a><item n='1'/></a><item n='2'><item n='3'/><item n='4'/></item><item n='5'/></feed>",
            "<page id='root'/>",
            "<?xml version='1.0'?><!-- c --><r><s/><page id='1'/><s/><page/><t><page id='n'/></t></r><!-- after -->",
        ]
        var found: [String] = []
        for (index, text) in documents.enumerated() {
            for pattern: ElementPattern in ["page", "item", "//page", "r/page"] {
                found += Self.disagreements(text, name: "document \(index) \(pattern)", pattern: pattern)
            }
        }
        #expect(found.isEmpty, "\(found.prefix(10).joined(separator: "\n"))")
    }

    @Test("the fixtures, cut at every 61st byte, every name as the record")
    func fixtures() throws {
        var found: [String] = []
        var checked = 0
        for (file, bytes) in DocumentFramerTests.documents(under: TestPaths.fixtures) where bytes.count < 64 * 1024 {
            for name in DocumentRangeTests.names(bytes, limit: 3) {
                let input = XMLInput.bytes(bytes).named(file)
                let record = Self.record(ElementPattern(name: name))
                let whole = Self.read(record, input, nil)
                guard !(whole.last?.hasPrefix("error") ?? false) else { continue }
                for cut in stride(from: 0, through: bytes.count, by: 61) {
                    let joined = Self.read(record, input, 0..<cut) + Self.read(record, input, cut..<Int.max)
                    if joined != whole { found.append("\(file) \(name) cut \(cut): \(joined.count) against \(whole.count) records") }
                    checked += 1
                }
            }
        }
        #expect(checked > 200)
        #expect(found.isEmpty, "\(found.prefix(10).joined(separator: "\n"))")
    }

    @Test("each record is read by the range its start tag is in, also inside an element that is not a record")
    func recordsByTheirOwnOffset() throws {
        let text = "<root><r n='1'/><g><r n='2'/><r n='3'/></g><r n='4'><r n='5'/></r><h><r n='6'/></h></root>"
        let record = Self.record("r")
        let whole = Self.read(record, .string(text), nil)
        #expect(whole.count == 6)
        func offset(_ event: String) -> Int { Int(event.prefix { $0 != "|" }) ?? -1 }
        // The outermost record of its kind around each record, by offset: 5 goes with 4.
        func at(_ tag: String) -> Int { text.utf8.count - text[text.range(of: tag)!.lowerBound...].utf8.count }
        var owner = Dictionary(uniqueKeysWithValues: (1...6).map { (at("<r n='\($0)'"), at("<r n='\($0)'")) })
        owner[at("<r n='5'")] = at("<r n='4'")
        for cut in 0...text.utf8.count {
            let before = Self.read(record, .string(text), 0..<cut)
            let after = Self.read(record, .string(text), cut..<Int.max)
            #expect(before + after == whole, "cut \(cut)")
            #expect(before.allSatisfy { (owner[offset($0)] ?? -1) < cut } && after.allSatisfy { (owner[offset($0)] ?? -1) >= cut }, "cut \(cut): \(before) | \(after)")
        }
    }

    @Test("a read resumed after the last record written gives the rest, once")
    func resume() throws {
        let text = "<r>" + (1...50).map { "<page id='\($0)'><t>\($0)</t></page>" }.joined() + "</r>"
        let record = Self.record("page")
        let whole = Self.read(record, .string(text), nil)
        // A job killed after its 17th record resumes after that record's offset.
        let written = Array(whole.prefix(17))
        let lastOffset = try #require(written.last.flatMap { Int($0.prefix { $0 != "|" }) })
        let rest = Self.read(record, .string(text), (lastOffset + 1)..<Int.max)
        #expect(written + rest == whole)
    }

    @Test("patterns and inputs the framing pass does not read: the whole parse, records filtered by offset")
    func unframed() {
        // `*` names no element to frame; UTF-16 is not read by the framing pass.
        let text = "<r><a id='1'/><b id='2'><c/></b><a id='3'/></r>"
        #expect(Self.disagreements(text, name: "any", pattern: "r/*").isEmpty)
        let utf16 = "<?xml version='1.0' encoding='UTF-16'?><r><a id='1'/><a id='2'/></r>"
        let bytes: [UInt8] = [0xFF, 0xFE] + Array(utf16.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let record = Self.record("a")
        let whole = Self.read(record, .bytes(bytes), nil)
        #expect(whole.count == 2)
        for cut in 0...bytes.count {
            #expect(Self.read(record, .bytes(bytes), 0..<cut) + Self.read(record, .bytes(bytes), cut..<Int.max) == whole)
        }
    }

    @Test("unframed input: a record inside another of its kind is read with the outer one, in one parse's order")
    func unframedNestedRecords() {
        // Found by the fuzzer: UTF-16 (not framed), records of the root's own name nested in it.
        let text = "<foo><foo/>&#32;<foo/></foo>\n"
        let bytes = Array(text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let record = Self.record("foo")
        let whole = Self.read(record, .bytes(bytes), nil)
        #expect(whole.count == 3)
        for cut in 0...bytes.count {
            let joined = Self.read(record, .bytes(bytes), 0..<cut) + Self.read(record, .bytes(bytes), cut..<Int.max)
            #expect(joined == whole, "cut \(cut)")
        }
    }

    @Test("a task that begins its framing pass at a checkpoint (a stored range of split's) reads what it reads from the start")
    func checkpoints() throws {
        let latin1: [UInt8] = Array("<?xml version='1.0' encoding='ISO-8859-1'?>\n<r a='".utf8) + [0xE9]
            + Array("'>\n".utf8) + (0..<40).flatMap { Array("<page n='\($0)'>".utf8) + [0xE9] + Array("</page>\n".utf8) }
            + Array("<page><x></page>\n</r>".utf8)
        let texts = ParallelRecordTests.foolingDocumentTexts.map { Array($0.utf8) } + [
            Array(("<?xml version='1.0'?>\n<osm>\r\n" + (0..<30).map { "<node id='\($0)'/>\r\n" }.joined()
                + (0..<20).map { "<way id='\($0)'><nd/></way>\n" }.joined() + "</osm>").utf8),
            latin1,
        ]
        var found: [String] = []
        for (index, bytes) in texts.enumerated() {
            let name = index == texts.count - 2 ? "node" : "page"
            let record = Self.record(ElementPattern(name: name))
            let input = XMLInput.bytes(bytes)
            let whole = Self.read(record, input, nil)
            for checkpoint in try XMLDocumentRange.split(input, record: name, parts: 6).dropFirst() {
                // Stored and read back, as a task gets it.
                let stored = XMLDocumentRange(
                    start: checkpoint.start, end: checkpoint.end, line: checkpoint.line, column: checkpoint.column,
                    context: checkpoint.context, closing: checkpoint.closing, records: checkpoint.records)
                #expect(stored == checkpoint)
                for cut in checkpoint.start...bytes.count {
                    var joined = Self.read(record, input, 0..<cut)
                    var resumed: [String] = []
                    do {
                        try record.forEach(in: input, startingIn: cut..<Int.max, framingFrom: stored) { resumed.append($0) }
                    } catch let error as XMLParseError {
                        resumed.append("error \(error.code) \(error.line):\(error.column)@\(error.byteOffset)")
                    }
                    joined += resumed
                    let wellFormed = !(whole.last?.hasPrefix("error") ?? false)
                    if wellFormed ? joined != whole : !joined.starts(with: whole) {
                        found.append("document \(index) checkpoint \(checkpoint.start) cut \(cut): \(joined) against \(whole)")
                    }
                }
            }
        }
        #expect(found.isEmpty, "\(found.prefix(5).joined(separator: "\n"))")
    }

    @Test("from a checkpoint, the bytes before it are not framed: garbage there changes nothing")
    func checkpointSkipsWhatComesBefore() throws {
        let text = "<r>" + (0..<50).map { "<page n='\($0)'/>" }.joined() + "</r>"
        let record = Self.record("page")
        let checkpoint = try #require(try XMLDocumentRange.split(.string(text), record: "page", parts: 2).last)
        var bytes = Array(text.utf8)
        // What a framing pass from the start would take for a comment never closed.
        for index in 3..<(checkpoint.start - 10) { bytes[index] = UInt8(ascii: "-") }
        bytes.replaceSubrange(3..<7, with: Array("<!--".utf8))
        var resumed: [String] = []
        try record.forEach(in: .bytes(bytes), startingIn: checkpoint.start..<Int.max, framingFrom: checkpoint) { resumed.append($0) }
        let expected = Self.read(record, .string(text), checkpoint.start..<Int.max)
        #expect(resumed == expected)
        #expect(resumed.count == checkpoint.records)
        #expect(Self.read(record, .bytes(bytes), checkpoint.start..<Int.max) != expected)
    }

    @Test("a range that holds no record says nothing; a pattern that matches nothing in the whole document still warns")
    func warnings() throws {
        let text = "<r><head/><page/><page/></r>"
        let summary = try Self.record("page").forEach(in: .string(text), startingIn: 15..<Int.max) { _ in }
        #expect(summary.delivered == 1)
        let empty = try Self.record("page").forEach(in: .string(text), startingIn: 0..<5) { _ in }
        #expect(empty.delivered == 0 && empty.warnings.isEmpty)
        let typo = try Self.record("pgae").forEach(in: .string(text), startingIn: 0..<Int.max) { _ in }
        #expect(typo.warnings.map(\.code) == [.unmatchedPattern])
    }
}

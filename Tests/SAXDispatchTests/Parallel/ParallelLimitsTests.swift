import Foundation
import Testing

@testable import SAXDispatch

/// The limits that count over the whole document hold over the whole document when it is
/// read on workers: the amplification ratios, which a range's parse would count from the
/// range's own start.
@Suite("Parallel reads: limits counted over the whole document")
struct ParallelLimitsTests {
    /// A profile whose amplification check starts early, so that small documents reach it.
    static var earlyAmplification: SafetyProfile {
        var safety = SafetyProfile.default
        safety.amplificationActivationBytes = 64 << 10
        return safety
    }

    /// Records of ten references each to an entity of `replacement` bytes, after a prolog
    /// that declares it: about 250 bytes out per byte in, 64 KiB out after a few records,
    /// but far less than that in any one record.
    static func amplifying(records: Int, declaration: String? = nil) -> [UInt8] {
        let replacement = String(repeating: "x", count: 1000)
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n"
        text += declaration ?? "<!ENTITY a \"\(replacement)\">"
        text += "\n]>\n<r>\n"
        for index in 0..<records {
            text += "<x id=\"\(index)\">" + String(repeating: "&a;", count: 10) + "</x>\n"
        }
        text += "</r>\n"
        return Array(text.utf8)
    }

    static func records(_ bytes: [UInt8], workers: Int?, rangeBytes: Int = 1, safety: SafetyProfile) -> (ids: [String], error: String?) {
        let record = XMLRecord(ElementPattern(name: "x"), .text("@id")) { $0 }
        var ids: [String] = []
        do {
            if let workers {
                try record.forEach(in: .bytes(bytes), workers: workers, rangeBytes: rangeBytes, safety: safety) { ids.append($0) }
            } else {
                try record.forEach(in: .bytes(bytes), safety: safety) { ids.append($0) }
            }
        } catch {
            return (ids, "\(error)")
        }
        return (ids, nil)
    }

    @Test("an entity that amplifies across many small ranges: the whole document's ratio ends the parse where one parse ends it")
    func amplificationAcrossRanges() throws {
        let bytes = Self.amplifying(records: 40)
        let sequential = Self.records(bytes, workers: nil, safety: Self.earlyAmplification)
        let error = try #require(sequential.error)
        #expect(error.contains("amplification"))
        #expect(sequential.ids.count > 0 && sequential.ids.count < 40)
        for workers in [2, 3, 8] {
            for rangeBytes in [1, 200, 4096] {
                let parallel = Self.records(bytes, workers: workers, rangeBytes: rangeBytes, safety: Self.earlyAmplification)
                #expect(parallel.ids == sequential.ids, "workers \(workers), ranges of \(rangeBytes) bytes")
                #expect(parallel.error == sequential.error, "workers \(workers), ranges of \(rangeBytes) bytes")
            }
        }
    }

    @Test("the same amplification within one parse's limit: every record on workers too, read by one parse")
    func amplificationWithinLimit() throws {
        var safety = Self.earlyAmplification
        safety.maximumAmplification = 1000
        let bytes = Self.amplifying(records: 40)
        let sequential = Self.records(bytes, workers: nil, safety: safety)
        #expect(sequential.error == nil)
        #expect(sequential.ids.count == 40)
        let record = XMLRecord(ElementPattern(name: "x"), .text("@id")) { $0 }
        var ids: [String] = []
        let summary = try record.forEach(in: .bytes(bytes), workers: 2, rangeBytes: 1, safety: safety) { ids.append($0) }
        #expect(ids == sequential.ids)
        #expect(summary.rangesReadInParallel == 0)
        #expect(summary.sequentialFrom == 0)
    }

    @Test("attribute defaults from the DTD that amplify across ranges: the same first error as one parse")
    func defaultedAttributesAcrossRanges() throws {
        let value = String(repeating: "d", count: 4000)
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ATTLIST x d CDATA \"\(value)\">]>\n<r>\n"
        // 4,000 bytes out per element of 20 in: a ratio over 100 from the 200th element on.
        for index in 0..<300 { text += "<x id=\"\(index)\"/>\n" }
        text += "</r>\n"
        let bytes = Array(text.utf8)
        let sequential = Self.records(bytes, workers: nil, safety: Self.earlyAmplification)
        let error = try #require(sequential.error)
        #expect(error.contains("amplification"))
        for workers in [2, 8] {
            let parallel = Self.records(bytes, workers: workers, safety: Self.earlyAmplification)
            #expect(parallel.ids == sequential.ids)
            #expect(parallel.error == sequential.error)
        }
    }

    @Test("handler sets: the whole document's amplification ends the parse where one parse ends it")
    func handlerSets() throws {
        let bytes = Self.amplifying(records: 40)
        func run(workers: Int) -> (count: Int, error: String?) {
            var count = 0
            do {
                try Dispatcher.parse(.bytes(bytes), workers: workers, rangeBytes: 1) { range, handlers in
                    handlers.safety = Self.earlyAmplification
                    final class Count: @unchecked Sendable { var value = 0 }
                    let seen = Count()
                    handlers.onEnd("x") { element in if range.owns(element) { seen.value += 1 } }
                    return { seen.value }
                } merge: { count += $0 }
            } catch {
                return (count, "\(error)")
            }
            return (count, nil)
        }
        let sequential = run(workers: 1)
        #expect(sequential.error?.contains("amplification") == true)
        for workers in [2, 8] {
            let parallel = run(workers: workers)
            #expect(parallel.count == sequential.count)
            #expect(parallel.error == sequential.error)
        }
    }

    @Test(
        "declarations that add no bytes leave the document to the workers",
        arguments: [
            "<!ENTITY e SYSTEM \"e.xml\">", "<!ENTITY logo SYSTEM \"logo.png\" NDATA png><!NOTATION png SYSTEM \"png\">",
            "<!ATTLIST x id CDATA #IMPLIED>", "<!ELEMENT x (#PCDATA)>", "<!-- <!ENTITY a \"aaaa\"> -->",
            "<?pi <!ENTITY a \"aaaa\">?>",
        ])
    func declarationsThatAddNothing(_ declaration: String) throws {
        let bytes = Self.amplifying(records: 0, declaration: declaration) .dropLast(6) + Array("<x id=\"1\">y</x><x id=\"2\">z</x></r>\n".utf8)
        var framer = DocumentFramer(recordName: Array("x".utf8))
        var boundaries = 0
        Array(bytes).withUnsafeBytes { framer.scan($0) { _ in boundaries += 1 } }
        #expect(framer.stop == nil)
        #expect(!framer.declaresAmplification)
        #expect(boundaries == 2)
    }

    @Test(
        "declarations that add bytes are found, read in any pieces",
        arguments: [
            "<!ENTITY a \"aaaa\">", "<!ENTITY a 'aaaa'>", "<!ENTITY % p \"<!ENTITY a 'aaaa'>\">",
            "<!ATTLIST x d CDATA \"v\">", "<!ATTLIST x d CDATA #FIXED 'v'>", "<!ENTITY\n\ta\n\"aaaa\">",
        ])
    func declarationsThatAddBytes(_ declaration: String) throws {
        let bytes = Self.amplifying(records: 3, declaration: declaration)
        var framer = DocumentFramer(recordName: Array("x".utf8))
        var boundaries = 0
        // In pieces of 7 bytes: a declaration across reads is still read whole.
        for start in stride(from: 0, to: bytes.count, by: 7) {
            Array(bytes[start..<min(bytes.count, start + 7)]).withUnsafeBytes { framer.scan($0) { _ in boundaries += 1 } }
        }
        #expect(framer.declaresAmplification)
        #expect(framer.stop == nil)
        #expect(boundaries == 3)
    }
}

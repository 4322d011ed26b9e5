import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// The events a dispatcher delivers must not depend on how the input is split.
@Suite("Chunking invariance of event transcripts")
struct TranscriptTests {
    static let fixtures = [
        "zoo.xml", "mixed.xml", "attributes.xml", "doctype.xml", "crlf.xml", "utf16le.xml", "latin1.xml", "deep.xml",
        "soap-billing.xml", "xhtml-entities.xml",
    ]

    /// Malformed documents: the error, its position and everything before it must not depend on splitting either.
    static let malformed: [String] = [
        "<zoo><animal><kind>cat</kind></animal></zo>",
        "<a><b>text &undefined; more</b></a>",
        "<a x='1' x='2'/>",
        "<a>\n  <b>é</b>\n  <c>unclosed\n</a>",
        "<a><![CDATA[never closed</a>",
        "<?xml version='1.0'?>\n<a/>\n<b/>",
        // Rules that hold in attribute values and whatever the encoding (issue 44).
        "<!DOCTYPE r SYSTEM \"x.dtd\">\n<r a=\"(&copy;)\"/>",
        "<!DOCTYPE r [<!ENTITY % pe SYSTEM 'x.ent'> %pe; <!ENTITY lang 'en'>]>\n<r><s a=\"x&lang;y\"/></r>",
        "\u{FEFF}<?xml version=\"1.0\" encoding=\"EUC-JP\"?><d>é</d>",
        "<?xml version=\"1.0\" encoding=\"UTF-7\"?><r>+ADw-evil/+AD4-</r>",
    ]

    static let primes = [2, 3, 5, 7, 11, 13, 17, 31, 61, 127, 251, 509, 1021, 4093]

    @Test("fed whole, one byte at a time and in prime-sized chunks", arguments: fixtures)
    func chunkings(_ name: String) throws {
        let bytes = try TestPaths.fixtureBytes(name)
        let whole = Transcript.record(bytes, splits: [bytes.count])
        #expect(whole.last == "outcome completed")
        #expect(whole.count > 3)
        #expect(Transcript.record(bytes, splits: repeatElement(1, count: bytes.count)) == whole)
        for prime in Self.primes {
            #expect(Transcript.record(bytes, splits: repeatElement(prime, count: bytes.count)) == whole, "chunk size \(prime)")
        }
    }

    @Test("split in two at every offset", arguments: fixtures)
    func everyOffset(_ name: String) throws {
        let bytes = try TestPaths.fixtureBytes(name)
        let whole = Transcript.record(bytes, splits: [bytes.count])
        for offset in 0...bytes.count {
            let split = Transcript.record(bytes, splits: [offset, bytes.count - offset])
            #expect(split == whole, "split at \(offset)")
            if split != whole { break }
        }
    }

    @Test("with patterns, a mounted set, retained attributes and skips: whole, by 1 byte, and split at every offset", arguments: fixtures)
    func routedChunkings(_ name: String) throws {
        let bytes = try TestPaths.fixtureBytes(name)
        let whole = Transcript.record(bytes, splits: [bytes.count], routed: true)
        #expect(whole != Transcript.record(bytes, splits: [bytes.count]) || bytes.count < 8, "the routes add events")
        #expect(Transcript.record(bytes, splits: repeatElement(1, count: bytes.count), routed: true) == whole)
        for offset in stride(from: 1, to: bytes.count, by: max(1, bytes.count / 200)) {
            let split = Transcript.record(bytes, splits: [offset, bytes.count - offset], routed: true)
            #expect(split == whole, "split at \(offset)")
            if split != whole { break }
        }
    }

    @Test("the routed zoo transcript shows every route at work")
    func routedZooTranscript() throws {
        let lines = Transcript.record(try TestPaths.fixtureBytes("zoo.xml"), splits: [7], routed: true)
        for expected in ["start[mounted .] zoo/animals/animal", "end[mounted /kind] kind", "end[mounted any] zoo/animals/animal/nested_nonsense",
                         "end[/*//name] name", "end[*/*] kind inherits"] {
            #expect(lines.contains { $0.hasPrefix(expected) }, "\(expected)")
        }
        #expect(!lines.contains { $0.contains("toilet") }, "facilities are skipped")
    }

    @Test("malformed input: same events and same error however it is split", arguments: malformed)
    func malformedChunkings(_ document: String) {
        let bytes = Array(document.utf8)
        let whole = Transcript.record(bytes, splits: [bytes.count])
        #expect(whole.last?.hasPrefix("error ") == true)
        for size in [1, 7, 4096] {
            #expect(Transcript.record(bytes, splits: repeatElement(size, count: bytes.count)) == whole, "pieces of \(size)")
        }
        for offset in 0...bytes.count {
            #expect(Transcript.record(bytes, splits: [offset, bytes.count - offset]) == whole, "split at \(offset)")
        }
    }

    @Test("the zoo transcript is what the document says")
    func zooTranscript() throws {
        let lines = Transcript.record(try TestPaths.fixtureBytes("zoo.xml"), splits: [7])
        #expect(lines.first == "start[any] zoo depth=1 at 1:1+0 []")
        #expect(lines.contains("start[named] zoo/animals/animal/nested_nonsense/name depth=5 at 5:30+95 []"))
        #expect(lines.contains("end[named] name text=\"grumpy\" parent=nested_nonsense"))
        #expect(lines.contains("collapsed \"i have no idea what i\\'m doing\""))
        #expect(lines.contains("end[any] toilet text=\"42\" parent=facilities"))
        #expect(lines.last == "outcome completed")
        #expect(lines.filter { $0.hasPrefix("start") }.count == 19)
        #expect(lines.filter { $0.hasPrefix("end") }.count == 19)
    }
}

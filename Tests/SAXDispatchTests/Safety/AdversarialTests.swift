import Foundation
import SAXDispatch
import Synchronization
import SAXDispatchTestSupport
import Testing

/// The hostile and malformed documents of `../shared/adversarial/gen.py`, each checked
/// against its manifest: how it must end under the default and the strict profile,
/// that nothing is delivered after an error, that chunking changes nothing, and the
/// content each must (or must not) deliver. Time and memory bounds are measured in
/// child processes by `Scripts/adversarial-report`, not here.
@Suite(
    "Adversarial corpus",
    .enabled(if: TestPaths.adversarialGenerator != nil, TestPaths.adversarialGeneratorMissing))
struct AdversarialTests {
    struct Run {
        var lines: [String]
        var unfinishedText = ""
        var error: XMLParseError?
        var thrownByFeed = false
    }

    /// Parses a document fed in pieces of `pieceSize` bytes (whole when nil), then
    /// checks that a parser that failed stays failed: more input and `finish()` throw
    /// the same error and deliver nothing.
    static func run(
        _ bytes: [UInt8], pieceSize: Int?, profile: SafetyProfile = .default, concatenated: Bool = false
    ) -> Run {
        let transcript = Transcript(keepsLines: bytes.count <= 1 << 20)
        let parser = PushParser(transcript.dispatcher(profile: profile))
        parser.readsConcatenatedDocuments = concatenated
        var run = Run(lines: [])
        do {
            do {
                try parser.feed(bytes, inPiecesOf: pieceSize ?? max(1, bytes.count))
            } catch {
                run.thrownByFeed = true
                throw error
            }
            try parser.finish()
            transcript.record("completed")
        } catch let error as XMLParseError {
            run.error = error
            let recorded = transcript.recordedAmount
            let again = #expect(throws: XMLParseError.self) {
                try parser.feed(Array("<more>text</more>".utf8))
                try parser.finish()
            }
            #expect(again == error, "a failed parser throws its first error again")
            #expect(transcript.recordedAmount == recorded, "no event after the error")
            transcript.recordError(
                "error \(error.code) \(error.line):\(error.column)+\(error.byteOffset) \(error.elementPath)")
        } catch {
            Issue.record("unexpected error type: \(error)")
        }
        run.lines = transcript.lines
        run.unfinishedText = transcript.unfinishedText
        return run
    }

    static func check(_ run: Run, against expectation: AdversarialCorpus.Expectation, _ name: String) {
        switch expectation {
        case .ok:
            #expect(run.error == nil, "\(name): expected ok, got \(run.error.map(String.init(describing:)) ?? "")")
        case .error(let kinds):
            let codes = kinds.compactMap { AdversarialCorpus.codes[$0] }
            #expect(codes.count == kinds.count, "\(name): unmapped kind in \(kinds)")
            guard let error = run.error else {
                Issue.record("\(name): expected \(expectation), the parse completed")
                return
            }
            #expect(codes.contains(error.code), "\(name): expected \(expectation), got \(error.code): \(error)")
            #expect(error.line >= 1 && error.column >= 1, "\(name): the error has a position")
        }
    }

    /// What the manifest expects of a case under a profile; namespace cases included,
    /// since namespace processing is on by default.
    static func expectation(_ test: AdversarialCorpus.Case, strict: Bool) -> AdversarialCorpus.Expectation {
        strict ? test.expectedStrict : test.expectedDefault
    }

    @Test("every case ends as the manifest says under the default profile, fed as it says")
    func defaultProfile() throws {
        let corpus = try #require(AdversarialCorpus.shared, "gen.py failed")
        #expect(corpus.cases.count >= 95)
        for test in corpus.cases {
            let bytes = [UInt8](try Data(contentsOf: test.url))
            let run = Self.run(bytes, pieceSize: test.pieceSize)
            Self.check(run, against: Self.expectation(test, strict: false), test.file)
        }
    }

    @Test("every case ends as the manifest says under the strict profile")
    func strictProfile() throws {
        let corpus = try #require(AdversarialCorpus.shared, "gen.py failed")
        for test in corpus.cases {
            let bytes = [UInt8](try Data(contentsOf: test.url))
            let run = Self.run(bytes, pieceSize: test.pieceSize, profile: .strict)
            Self.check(run, against: Self.expectation(test, strict: true), test.file)
        }
    }

    /// Text an element delivered to streaming handlers before the error that ended the
    /// parse may differ by expat's last token (`<r>a]]>` reports `a` only when fed in
    /// pieces); one run's unfinished text must still be a prefix of the other's.
    @Test("every case up to 256 KiB gives the same events and error fed whole, by 1, 7 and 4096 bytes")
    func chunkingInvariance() throws {
        let corpus = try #require(AdversarialCorpus.shared, "gen.py failed")
        var checked = 0
        for test in corpus.cases {
            let bytes = [UInt8](try Data(contentsOf: test.url))
            guard bytes.count <= 256 * 1024 else { continue }
            let whole = Self.run(bytes, pieceSize: nil)
            for size in [1, 7, 4096] {
                let split = Self.run(bytes, pieceSize: size)
                #expect(split.lines == whole.lines, "\(test.file) fed \(size) bytes at a time")
                #expect(
                    // By UTF-8 bytes: text cut before a combining mark is no prefix by characters.
                    split.unfinishedText.utf8.starts(with: whole.unfinishedText.utf8)
                        || whole.unfinishedText.utf8.starts(with: split.unfinishedText.utf8),
                    "\(test.file) fed \(size) bytes at a time: \(split.unfinishedText) / \(whole.unfinishedText)")
            }
            checked += 1
        }
        #expect(checked >= 80)
    }

    /// Every case written twice, one copy right after the other, read as concatenated
    /// documents: one that parses alone gives its events twice, one that fails alone fails
    /// in its first copy as it did alone; either way the same however the input is split.
    /// Left out: a truncated document (the second copy continues it), one with no root
    /// (the second adds to its prolog), and markup after the root (which the mode reads as
    /// the next document); and for text after the root, expat's own epilog divergence
    /// (see `Fuzz/PushParserFuzzer.swift`) makes the error depend on the split, as alone.
    @Test("every case up to 64 KiB, twice in a row as concatenated documents: its events twice, or its error")
    func concatenatedCopies() throws {
        let corpus = try #require(AdversarialCorpus.shared, "gen.py failed")
        var checked = 0
        for test in corpus.cases {
            let bytes = [UInt8](try Data(contentsOf: test.url))
            guard bytes.count <= 64 * 1024 else { continue }
            let alone = Self.run(bytes, pieceSize: nil)
            let twice = Self.run(bytes + bytes, pieceSize: nil, concatenated: true)
            let continued: Set<XMLParseError.Code> = [.truncated, .noElements, .junkAfterDocumentElement]
            if var error = alone.error {
                if !continued.contains(error.code) {
                    error.documentNumber = 1
                    #expect(twice.error == error, "\(test.file): the first copy fails as the document alone does")
                    #expect(twice.lines == alone.lines, "\(test.file): the same events before the error")
                }
            } else {
                #expect(twice.error == nil, "\(test.file) twice: \(twice.error.map(String.init(describing:)) ?? "")")
                #expect(twice.lines.count == 2 * alone.lines.count - 1, "\(test.file): its events twice")
                #expect(Array(twice.lines.prefix(alone.lines.count - 1)) == alone.lines.dropLast(), "\(test.file)")
            }
            for size in [1, 7, 4096] where alone.error?.code != .junkAfterDocumentElement {
                let split = Self.run(bytes + bytes, pieceSize: size, concatenated: true)
                #expect(split.lines == twice.lines, "\(test.file) twice, fed \(size) bytes at a time")
            }
            checked += 1
        }
        #expect(checked >= 70)
    }

    // MARK: What must hold meanwhile

    func bytes(_ file: String) throws -> [UInt8] {
        let corpus = try #require(AdversarialCorpus.shared, "gen.py failed")
        let test = try #require(corpus.case(file), "\(file) missing from the manifest")
        return [UInt8](try Data(contentsOf: test.url))
    }

    /// All coalesced element texts of a document (whitespace preserved), and its error.
    func texts(_ file: String, pieceSize: Int? = nil) throws -> (texts: [String], error: XMLParseError?) {
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyEnd(whitespace: .preserve) { _, text in texts.append(text) }
        let parser = PushParser(dispatcher)
        let bytes = try bytes(file)
        do {
            try parser.feed(bytes, inPiecesOf: pieceSize ?? max(1, bytes.count))
            try parser.finish()
            return (texts, nil)
        } catch let error as XMLParseError {
            return (texts, error)
        }
    }

    @Test("decoded text: entities, legacy encodings and UTF-16 reach handlers as UTF-8")
    func decodedText() throws {
        #expect(try texts("internal_entity_ok.xml").texts.contains("hello world"))
        #expect(try texts("iso8859_1.xml").texts.contains("café ÿ"))
        #expect(try texts("latin1_alias.xml").texts.contains("café"))
        #expect(try texts("windows1252.xml").texts.contains("€"))
        let many = try texts("text_many_small_chunks.xml", pieceSize: 4096)
        #expect(many.error == nil)
        #expect(many.texts.contains(String(repeating: "a&", count: 1_000_000)))
    }

    @Test("text up to the limit is delivered once, whole; beyond it the parse ends with textLimitExceeded")
    func textLimit() throws {
        let under = try texts("text_10mb.xml", pieceSize: 4096)
        #expect(under.error == nil)
        #expect(under.texts.filter { $0.utf8.count == 10 * 1024 * 1024 - 64 }.count == 1)
        let cdata = try texts("cdata_10mb.xml", pieceSize: 4096)
        #expect(cdata.error == nil)
        #expect(cdata.texts.contains { $0.utf8.count >= 10 * 1024 * 1024 - 64 })
        let over = try texts("text_16mb.xml", pieceSize: 4096)
        #expect(over.error?.code == .textLimitExceeded)
        #expect(over.error?.limit == 10 * 1024 * 1024)
        #expect(over.texts.isEmpty, "the oversized text is never delivered")
    }

    @Test("a streaming text handler reads text beyond the coalescing limit, in bounded pieces")
    func streamingText() throws {
        var total = 0
        var largest = 0
        var dispatcher = Dispatcher()
        dispatcher.onAnyText { _, chunk in
            total += chunk.count
            largest = max(largest, chunk.count)
        }
        let parser = PushParser(dispatcher)
        try parser.feed(try bytes("text_16mb.xml"), inPiecesOf: 1 << 20)
        try parser.finish()
        #expect(total == 16 * 1024 * 1024)
        #expect(largest <= 64 * 1024)
    }

    @Test("nothing is delivered past the point of the error")
    func nothingAfterTheError() throws {
        let afterRoot = Self.run(try bytes("content_after_root.xml"), pieceSize: 1).lines
        #expect(afterRoot.dropLast().last?.hasPrefix("end[any] r ") == true, "\(afterRoot)")
        let concatenated = Self.run(try bytes("concatenated_docs.xml"), pieceSize: nil).lines
        #expect(concatenated.filter { $0.hasPrefix("start") }.count == 1, "\(concatenated)")
        let mismatched = Self.run(try bytes("mismatched_tag.xml"), pieceSize: 1).lines
        #expect(!mismatched.contains { $0.hasPrefix("end[any] a ") }, "\(mismatched)")
        let bomb = Self.run(try bytes("billion_laughs.xml"), pieceSize: nil).lines
        #expect(bomb.last?.hasPrefix("error amplificationLimitBreach") == true, "\(bomb)")
        #expect(!bomb.contains { $0.hasPrefix("text") }, "no text of the entity bomb is delivered: \(bomb)")
        let xxe = Self.run(try bytes("xxe_file.xml"), pieceSize: nil).lines
        #expect(!xxe.contains { $0.contains("root:") })
    }

    @Test("truncated documents fail only at finish(), never while fed")
    func truncatedOnlyAtEnd() throws {
        for part in 1...7 {
            let run = Self.run(try bytes("truncated_\(part)of8.xml"), pieceSize: 1)
            #expect(run.error?.code == .truncated, "part \(part)")
            #expect(!run.thrownByFeed, "part \(part)")
        }
        #expect(Self.run(try bytes("truncated_8of8.xml"), pieceSize: 1).error == nil)
    }

    @Test("encodings: every UTF-16 and BOM variant gives the UTF-8 document's events")
    func encodingsAgree() throws {
        func withoutPositions(_ lines: [String]) -> [String] {
            lines.map { $0.replacingOccurrences(of: #" at \d+:\d+\+\d+"#, with: "", options: .regularExpression) }
        }
        let reference = withoutPositions(Self.run(try bytes("truncated_8of8.xml"), pieceSize: nil).lines)
        for file in [
            "utf8_bom.xml", "utf16le_bom.xml", "utf16be_bom.xml", "utf16le_nobom.xml", "utf16be_nobom.xml",
        ] {
            #expect(withoutPositions(Self.run(try bytes(file), pieceSize: 1).lines) == reference, "\(file)")
        }
        let boundaries = withoutPositions(Self.run(try bytes("chunk_boundaries.xml"), pieceSize: nil).lines)
        for size in [1, 3, 4096] {
            let utf16 = withoutPositions(Self.run(try bytes("chunk_boundaries_utf16.xml"), pieceSize: size).lines)
            #expect(utf16 == boundaries, "UTF-16 fed \(size) bytes at a time")
        }
    }

    @Test("the depth limit fires at depth 257 with the path of the 256 open elements")
    func depthLimit() throws {
        let run = Self.run(try bytes("deep_nesting_100k.xml"), pieceSize: 4096)
        #expect(run.error?.code == .depthLimitExceeded)
        #expect(run.error?.elementPath.components.count == 256)
        #expect(run.error?.limit == 256)
        #expect(run.lines.filter { $0.hasPrefix("start") }.count == 256)
    }

    @Test("attributes defaulted from the DTD are marked, so an injected admin='true' is recognizable")
    func defaultedAttributes() throws {
        var seen: [ElementAttributes.Attribute] = []
        var specified: [Bool] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { element in
            seen += element.attributes
            specified += element.attributes.map { element.attributes.isSpecified($0.name) }
        }
        _ = try dispatcher.parse(try .bytes(bytes("attlist_default_injection.xml")))
        let admin = try #require(seen.first { $0.name == "admin" })
        #expect(admin.isDefaulted)
        #expect(admin.value == "true")
        #expect(specified.count == seen.count)
        #expect(zip(seen, specified).allSatisfy { $0.isDefaulted == !$1 })
    }

    @Test("a 100,000-entity chain ends in entityLimitExceeded, also on a thread with a 512 KiB stack")
    func entityChainOnSmallStack() throws {
        let document = try bytes("entity_chain_100k.xml")
        let result = Mutex<XMLParseError.Code?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                _ = try Dispatcher().parse(.bytes(document))
            } catch let error as XMLParseError {
                result.withLock { $0 = error.code }
            } catch {}
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
        #expect(result.withLock { $0 } == .entityLimitExceeded)
    }

    @Test("limits are configurable, and unlimited is spelled out")
    func customLimits() throws {
        var profile = SafetyProfile.default
        profile.maximumDepth = 100_000
        var deepest = 0
        var dispatcher = Dispatcher()
        dispatcher.safety = profile
        dispatcher.onAnyStart { deepest = max(deepest, $0.depth) }
        _ = try dispatcher.parse(try .bytes(bytes("deep_nesting_100k.xml")))
        #expect(deepest == 100_000)
        profile.maximumAttributes = .unlimited
        profile.maximumTokenBytes = .atMost(1 << 20)
        let attributes = Self.run(try bytes("attrs_10k.xml"), pieceSize: nil, profile: profile)
        #expect(attributes.error == nil)
        let comment = Self.run(try bytes("comment_10mb.xml"), pieceSize: 4096, profile: profile)
        #expect(comment.error?.code == .tokenLimitExceeded)
        #expect(comment.error?.limit == 1 << 20)
        profile.maximumParserMemoryBytes = .atMost(1 << 20)
        profile.maximumTokenBytes = .unlimited
        let memory = Self.run(try bytes("attr_value_10mb.xml"), pieceSize: nil, profile: profile)
        #expect(memory.error?.code == .memoryLimitExceeded)
    }
}

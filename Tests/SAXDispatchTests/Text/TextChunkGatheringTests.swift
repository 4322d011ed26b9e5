import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// Text-chunk handlers get the character data gathered between two markup events. The
/// character-data callback gathers a short piece for them itself, and leaves every other
/// case to the general path: these are the cases where that must not show (own text
/// collected too, text from elsewhere than expat's input, the chunk size limit and the
/// buffer's growth, a chunk over several expat calls, a pause, a broken limit).
@Suite("Text chunks gathered from expat's pieces")
struct TextChunkGatheringTests {
    /// Parses `document` fed whole, with expat given at most `slice` bytes per call when
    /// set, recording each text chunk; with `pausing`, every chunk pauses the parse.
    static func chunks(
        _ document: String, slice: Int? = nil, pausing: Bool = false, profile: SafetyProfile = .default,
        collectsText: Bool = false
    ) -> (chunks: [String], error: XMLParseError?) {
        var chunks: [String] = []
        weak var paused: PushParser?
        var dispatcher = Dispatcher()
        dispatcher.safety = profile
        dispatcher.onAnyText { _, chunk in
            chunks.append(chunk.string)
            if pausing { paused?.requestSuspension() }
        }
        if collectsText { dispatcher.onAnyEnd(whitespace: .preserve) { _, _ in } }
        let parser = PushParser(dispatcher)
        paused = parser
        if let slice { parser.driver.holdback.maximumSlice = slice }
        do {
            try parser.feed(Array(document.utf8))
            while parser.isSuspended { _ = try parser.resume() }
            var outcome = try parser.finishUnlessSuspended()
            while outcome == nil { outcome = try parser.resume() }
        } catch let error as XMLParseError {
            return (chunks, error)
        } catch {
            Issue.record("unexpected \(error)")
        }
        return (chunks, nil)
    }

    /// Lines that differ from each other, so that a chunk with bytes from the wrong place
    /// shows it.
    static func lines(_ count: Int, from first: Int = 0) -> String {
        (first..<(first + count)).map { "    line \($0)\n" }.joined()
    }

    @Test("a chunk gathered over several expat calls of one feed is whole, however small the calls")
    func chunkOverSeveralCalls() {
        let text = "\n" + Self.lines(400)
        let document = "<r>" + text + "</r>"
        #expect(Self.chunks(document).chunks == [text])
        for slice in [7, 64, 1000, 4096] {
            #expect(Self.chunks(document, slice: slice).chunks == [text], "slices of \(slice)")
        }
    }

    @Test("text from outside expat's buffer between pieces: entities, character references, line ends, another encoding")
    func textFromElsewhere() {
        let entity = "<!DOCTYPE r [<!ENTITY e \"mid\"><!ENTITY f \"one&#10;two\">]>"
        let cases: [(String, String)] = [
            (entity + "<r>ab\n  &e;\n  cd</r>", "ab\n  mid\n  cd"),
            (entity + "<r>\n  &e;&e;&f;\n</r>", "\n  midmidone\ntwo\n"),
            ("<r>&#x41;&#x42;&#x43;\n  &#x44;&#233;&lt;&gt;x</r>", "ABC\n  Dé<>x"),
            ("<r>a\r\nb\r\n\r\n  c\rd</r>", "a\nb\n\n  c\nd"),
            ("<r>a<![CDATA[b\n  c]]>\n  d</r>", "ab\n  c\n  d"),
        ]
        for (document, text) in cases {
            #expect(Self.chunks(document).chunks == [text], "\(document.debugDescription)")
            #expect(Self.chunks(document, slice: 5).chunks == [text], "\(document.debugDescription) in slices")
        }
    }

    @Test("a document in another encoding, whose text expat converts into a buffer of its own")
    func convertedEncoding() throws {
        let text = "caf\u{E9}\n  na\u{EF}ve\n  " + Self.lines(300)
        let bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>".utf8)
            + text.unicodeScalars.map { UInt8($0.value) } + Array("</r>".utf8)
        var chunks: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyText { _, chunk in chunks.append(chunk.string) }
        try dispatcher.parse(.bytes(bytes))
        #expect(chunks == [text])
    }

    @Test("a chunk of short pieces reaches the size limit: the chunk ends before the piece that would pass it")
    func chunkOverTheSizeLimit() {
        // Pieces of 8 and 1 bytes ("xxxxxxxx", "\n"): the first chunk is the longest run of
        // whole pieces within the limit, 7281 lines and 65,529 bytes.
        let line = "xxxxxxxx\n"
        let text = String(repeating: line, count: 10_000)
        let document = "<r>" + text + "</r>"
        for slice in [nil, 4096] as [Int?] {
            let chunks = Self.chunks(document, slice: slice).chunks
            #expect(chunks.joined() == text)
            #expect(chunks.allSatisfy { $0.utf8.count <= TextCoalescer.chunkLimit })
            if slice == nil { #expect(chunks.map(\.utf8.count) == [65_529, 90_000 - 65_529]) }
        }
        // A line end, then one piece larger than the limit: the line end, then the piece in slices.
        let long = "\n  " + String(repeating: "y", count: 70_000)
        #expect(Self.chunks("<r>" + long + "</r>").chunks.map(\.utf8.count) == [1, 65_536, 70_002 - 65_536])
    }

    @Test("a pause in the middle of a run of short pieces: the same chunks, then the rest after the resume")
    func pauseInsideARun() {
        let text = String(repeating: "xxxxxxxx\n", count: 10_000)
        let document = "<r>" + text + "</r><!-- end -->"
        let expected = Self.chunks(document).chunks
        #expect(expected.map(\.utf8.count) == [65_529, 90_000 - 65_529])
        #expect(Self.chunks(document, pausing: true).chunks == expected)
        #expect(Self.chunks(document, slice: 1000, pausing: true).chunks == expected)
        let mixed = "<r>" + Self.lines(50) + "<a>in</a>" + Self.lines(50, from: 50) + "</r>"
        #expect(Self.chunks(mixed, pausing: true).chunks == Self.chunks(mixed).chunks)
        #expect(Self.chunks(mixed, pausing: true).chunks.count == 3)
    }

    @Test("a text limit broken inside a run of short pieces: the chunk before the piece that broke it, then the error")
    func limitBrokenInsideARun() {
        var profile = SafetyProfile.default
        profile.maximumTextBytes = .atMost(20)
        let document = "<r>aaaaaaaaa\nbbbbbbbbb\nccccccccc\n</r>"
        for slice in [nil, 3] as [Int?] {
            let (chunks, error) = Self.chunks(document, slice: slice, profile: profile, collectsText: true)
            #expect(chunks == ["aaaaaaaaa\nbbbbbbbbb\n"], "slices of \(slice ?? 0)")
            #expect(error?.code == .textLimitExceeded)
        }
    }

    @Test("an element whose own text is collected and whose chunks are handed on gets both, from the same short pieces")
    func ownTextAndChunks() throws {
        let document = "<r>\n  ab\n  <i>in</i>\n  cd\n</r>"
        var chunks: [String] = []
        var ownText: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onText("r") { _, chunk in chunks.append(chunk.string) }
        dispatcher.onEnd("r", whitespace: .preserve) { _, text in ownText.append(text) }
        dispatcher.onEnd("i") { _, text in ownText.append(text) }
        try dispatcher.parse(.string(document))
        #expect(chunks == ["\n  ab\n  ", "\n  cd\n"])
        #expect(ownText == ["in", "\n  ab\n  \n  cd\n"])
    }

    @Test("a pause asked inside an internal entity, made at the short piece of text after it: the same events")
    func pauseDeferredToText() throws {
        let document = "<!DOCTYPE r [<!ENTITY e \"<a/>\">]><r>&e;xy\n<b/>z</r>"
        var log: [String] = []
        weak var paused: PushParser?
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { element in
            log.append("start \(element.name)")
            if element.name == "a" { paused?.requestSuspension() }
        }
        dispatcher.onAnyText { _, chunk in log.append("text \(chunk.string.debugDescription)") }
        let parser = PushParser(dispatcher)
        paused = parser
        try parser.feed(Array(document.utf8))
        var pauses = 0
        while parser.isSuspended {
            pauses += 1
            log.append("paused")
            _ = try parser.resume()
        }
        #expect(try parser.finish() == .completed)
        #expect(pauses == 1)
        #expect(log == ["start r", "start a", "paused", "text \"xy\\n\"", "start b", "text \"z\""])
    }

    @Test("own text in short pieces: leading whitespace is neither kept nor counted unless preserved, later whitespace is")
    func ownTextLeadingWhitespace() throws {
        var profile = SafetyProfile.default
        profile.maximumTextBytes = .atMost(8)
        func ownText(_ document: String, _ policy: WhitespacePolicy) -> Result<String, XMLParseError> {
            var texts: [String] = []
            var dispatcher = Dispatcher()
            dispatcher.safety = profile
            dispatcher.onEnd("r", whitespace: policy) { _, text in texts.append(text) }
            do {
                try dispatcher.parse(.string(document))
            } catch let error as XMLParseError {
                return .failure(error)
            } catch {
                Issue.record("unexpected \(error)")
            }
            return .success(texts.joined())
        }
        // 7 bytes of line end and indentation, then 3 of text: within 8 only if the first are left out.
        #expect(try ownText("<r>\n      abc</r>", .trim).get() == "abc")
        #expect(try ownText("<r>\n      abc</r>", .collapse).get() == "abc")
        if case .failure(let error) = ownText("<r>\n      abc</r>", .preserve) {
            #expect(error.code == .textLimitExceeded)
        } else {
            Issue.record("preserved leading whitespace counts against the limit")
        }
        // After the first other character, whitespace counts: 3 + 7 + 3 bytes.
        if case .failure(let error) = ownText("<r>abc\n      def</r>", .trim) {
            #expect(error.code == .textLimitExceeded)
        } else {
            Issue.record("whitespace after the first character counts against the limit")
        }
        #expect(try ownText("<r>ab\n  cd</r>", .trim).get() == "ab\n  cd")
    }

    @Test("every text handler of an element gets each chunk, in order, until one stops the chain")
    func severalTextHandlers() throws {
        let document = "<r>ab\n  <i>in</i>\n  cd</r>"
        var log: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onText("r") { _, chunk in log.append("first \(chunk.string.debugDescription)") }
        dispatcher.onText("r") { element, chunk in
            log.append("second \(chunk.string.debugDescription)")
            if chunk.string.hasSuffix("cd") { element.stopHandlerChain() }
        }
        dispatcher.onText("r") { _, chunk in log.append("third \(chunk.string.debugDescription)") }
        dispatcher.onText("i") { _, chunk in log.append("only \(chunk.string.debugDescription)") }
        try dispatcher.parse(.string(document))
        #expect(log == [
            "first \"ab\\n  \"", "second \"ab\\n  \"", "third \"ab\\n  \"", "only \"in\"",
            "first \"\\n  cd\"", "second \"\\n  cd\"",
        ])
    }
}

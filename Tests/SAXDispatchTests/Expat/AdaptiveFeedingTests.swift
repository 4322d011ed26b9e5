@testable import SAXDispatch
import Testing

/// Expat 2.5.0 re-scans an unfinished token on every feed. The driver holds input
/// back until it has at least as much new input as expat holds unparsed, so a huge
/// token fed in small pieces reaches expat in a logarithmic number of calls.
@Suite("Adaptive feeding")
struct AdaptiveFeedingTests {
    func feed(_ document: [UInt8], chunk: Int, dispatcher: Dispatcher = Dispatcher()) throws -> (calls: Int, outcome: ParseOutcome) {
        let parser = PushParser(dispatcher)
        try parser.feed(document, inPiecesOf: chunk)
        let outcome = try parser.finish()
        return (parser.driver.holdback.parseCallCount, outcome)
    }

    @Test("a 1 MiB attribute value fed in 4 KiB pieces reaches expat in a handful of calls")
    func hugeToken() throws {
        let document = Array("<a v='\(String(repeating: "x", count: 1 << 20))'/>".utf8)
        var value = 0
        var dispatcher = Dispatcher()
        dispatcher.onStart("a") { value = $0.attributes["v"]?.utf8.count ?? 0 }
        let result = try feed(document, chunk: 4096, dispatcher: dispatcher)
        #expect(result.outcome == .completed)
        #expect(value == 1 << 20)
        #expect(result.calls <= 12, "without the holdback this is 257 calls")
    }

    @Test("a 64 KiB comment fed one byte at a time")
    func byteByByteToken() throws {
        let document = Array("<a><!--\(String(repeating: "c", count: 1 << 16))--></a>".utf8)
        let result = try feed(document, chunk: 1)
        #expect(result.outcome == .completed)
        // Below the threshold every byte is parsed at once; above it, the calls grow logarithmically.
        #expect(result.calls <= ExpatDriver.holdbackThreshold + 40, "without the holdback this is \(document.count + 1) calls")
    }

    @Test("ordinary documents are not held back: events arrive as soon as their bytes do")
    func noHoldbackBetweenTokens() throws {
        var seen: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("b") { _ in seen.append("b") }
        let parser = PushParser(dispatcher)
        try parser.feed("<a><b>")
        #expect(seen == ["b"])
        try parser.feed("</b><b")
        #expect(seen == ["b"])
        try parser.feed(">")
        #expect(seen == ["b", "b"])
    }

    @Test("text fed one byte at a time is gathered; every tag still completes at its '>'")
    func smallFeedsGathered() throws {
        let text = String(repeating: "t", count: 1 << 16)
        let document = Array("<a>\(text)</a>".utf8)
        let result = try feed(document, chunk: 1)
        #expect(result.outcome == .completed)
        let gathered = (1 << 16) / ExpatDriver.smallFeedGathering
        #expect(result.calls <= gathered + 16, "without gathering this is \(document.count + 1) calls")

        var seen: [String] = []
        var received = 0
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { seen.append("start \($0.name)") }
        dispatcher.onAnyText { _, chunk in received += chunk.count }
        dispatcher.onAnyEnd { element, text in seen.append("end \(element.name) \(text)") }
        let parser = PushParser(dispatcher)
        for byte in "<doc><x a='1'".utf8 { try parser.feed([byte]) }
        #expect(seen == ["start doc"])
        try parser.feed(">")
        #expect(seen == ["start doc", "start x"])
        for byte in text.utf8 {
            try parser.feed([byte])
            #expect(received > (parser.byteCount - 19) - ExpatDriver.smallFeedGathering, "text waits at most a gathering")
        }
        for byte in "</x".utf8 { try parser.feed([byte]) }
        #expect(seen.count == 2)
        try parser.feed(">")
        #expect(seen == ["start doc", "start x", "end x \(text)"])
        #expect(received == text.utf8.count)
    }
}

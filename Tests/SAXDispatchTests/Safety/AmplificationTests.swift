import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// Small documents that would make a reader hold or deliver far more than their size:
/// text coalesced for many open elements at once, and attribute values defaulted from
/// the DTD on every element.
@Suite("Amplification through collected text and defaulted attributes")
struct AmplificationTests {
    /// Entity `b` expands to 100,000 bytes; `levels` nested elements each hold `refs`
    /// references to it, after a comment long enough to keep expat's own amplification
    /// check satisfied (output at most 100 times the input).
    static func nestedText(levels: Int, refs: Int) -> [UInt8] {
        var document = "<!DOCTYPE r [<!ENTITY a \"\(String(repeating: "x", count: 1000))\">"
        document += "<!ENTITY b \"\(String(repeating: "&a;", count: 100))\">]>\n"
        document += "<!--" + String(repeating: " ", count: levels * refs * 1000 + 10_000) + "-->"
        for _ in 0..<levels { document += "<e>" + String(repeating: "&b;", count: refs) }
        for _ in 0..<levels { document += "</e>" }
        return Array(document.utf8)
    }

    /// Four levels of 9 MB each: every element is within the 10 MiB text limit, the four
    /// together are over the 32 MiB limit on collected text.
    static let fourLevels = nestedText(levels: 4, refs: 90)

    static func outcome(_ dispatcher: Dispatcher, _ bytes: [UInt8], pieces: Int? = nil) -> XMLParseError? {
        do {
            let parser = PushParser(dispatcher)
            try parser.feed(bytes, inPiecesOf: pieces ?? bytes.count)
            try parser.finish()
            return nil
        } catch let error as XMLParseError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test("text collected for every open element is bounded in total, however the input is split")
    func collectedTextOfOpenElements() throws {
        var dispatcher = Dispatcher()
        var delivered = 0
        dispatcher.onAnyEnd { _, text in delivered += text.utf8.count }
        let whole = try #require(Self.outcome(dispatcher, Self.fourLevels))
        #expect(whole.code == .textLimitExceeded)
        #expect(whole.limit == 32 << 20)
        #expect(whole.message.contains("maximumCollectedTextBytes"))
        #expect(whole.elementPath == ["e", "e", "e", "e"])
        #expect(delivered == 0, "no element ended before the limit")
        let split = try #require(Self.outcome(dispatcher, Self.fourLevels, pieces: 4093))
        #expect(split == whole)
    }

    @Test("three levels within the total limit still parse, and the limit can be raised or lifted")
    func withinAndRaised() throws {
        var lengths: [Int] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyEnd { _, text in lengths.append(text.utf8.count) }
        #expect(Self.outcome(dispatcher, Self.nestedText(levels: 3, refs: 90)) == nil)
        #expect(lengths == [9_000_000, 9_000_000, 9_000_000])
        dispatcher.safety.maximumCollectedTextBytes = .atMost(40 << 20)
        #expect(Self.outcome(dispatcher, Self.fourLevels) == nil)
        dispatcher.safety.maximumCollectedTextBytes = .unlimited
        #expect(Self.outcome(dispatcher, Self.fourLevels) == nil)
    }

    @Test("the total limit is exact: the sum of the open elements' text at the limit passes, one byte more fails")
    func exactBoundary() throws {
        // <a>aaaa<b>bbb<c>cc</c></b></a>: at c's text, 4 + 3 + 2 = 9 bytes are held.
        let bytes = Array("<a>aaaa<b>bbb<c>cc</c></b></a>".utf8)
        var dispatcher = Dispatcher()
        dispatcher.onAnyEnd { _, _ in }
        for pieces in [1, 3, bytes.count] {
            dispatcher.safety.maximumCollectedTextBytes = 9
            #expect(Self.outcome(dispatcher, bytes, pieces: pieces) == nil)
            dispatcher.safety.maximumCollectedTextBytes = 8
            let error = try #require(Self.outcome(dispatcher, bytes, pieces: pieces))
            #expect(error.code == .textLimitExceeded && error.limit == 8)
            #expect((error.line, error.column) == (1, 14), "at <c>, the element whose text broke it")
        }
    }

    @Test("text-chunk handlers get the text up to the total limit, the same however the input is split")
    func chunksUpToTheLimit() throws {
        let bytes = Array("<a>aaaa<b>bbbbbbbbbb</b></a>".utf8)
        for pieces in [1, 2, 5, bytes.count] {
            var chunks = ""
            var dispatcher = Dispatcher()
            dispatcher.safety.maximumCollectedTextBytes = 10
            dispatcher.onAnyEnd { _, _ in }
            dispatcher.onEnd("b") { _, _ in }
            dispatcher.onText("b") { _, chunk in chunks += chunk.string }
            let error = try #require(Self.outcome(dispatcher, bytes, pieces: pieces))
            #expect(error.code == .textLimitExceeded)
            #expect(chunks == "bbbbbb", "fed \(pieces) bytes at a time")
        }
    }

    @Test("leading whitespace never counts towards the text limits under trim, whatever pieces it comes in")
    func leadingWhitespaceInAnyPiece() throws {
        // Found by fuzzing: whitespace in the same piece as the first other character counted,
        // in a piece of its own it did not, so the limits depended on the split.
        let bytes = Array("<r>\n  abcde<e>\n xy</e></r>".utf8)
        for limitsAllText in [false, true] {
            var texts: [String] = []
            var dispatcher = Dispatcher()
            dispatcher.limitsAllText = limitsAllText
            if !limitsAllText { dispatcher.onAnyEnd { _, text in texts.append(text) } }
            dispatcher.safety.maximumTextBytes = 5
            dispatcher.safety.maximumCollectedTextBytes = 7
            for pieces in [1, 2, 4, bytes.count] {
                #expect(Self.outcome(dispatcher, bytes, pieces: pieces) == nil, "fed \(pieces) at a time")
            }
            dispatcher.safety.maximumCollectedTextBytes = 6
            let errors = [1, 2, 4, bytes.count].compactMap { Self.outcome(dispatcher, bytes, pieces: $0) }
            #expect(errors.count == 4 && Set(errors).count == 1, "\(errors)")
            #expect(errors.first?.elementPath == ["r", "e"])
            if !limitsAllText { #expect(texts.prefix(2) == ["xy", "abcde"]) }
        }
    }

    @Test("limitsAllText counts every element's text without a handler and keeps the per-element limit")
    func limitsAllText() throws {
        var dispatcher = Dispatcher()
        dispatcher.limitsAllText = true
        let error = try #require(Self.outcome(dispatcher, Self.fourLevels))
        #expect(error.code == .textLimitExceeded && error.limit == 32 << 20)
        dispatcher.safety.maximumTextBytes = 5
        let bytes = Array("<r>\n  <a>12345</a>\n  <b>123456</b>\n</r>".utf8)
        for pieces in [1, bytes.count] {
            let tooLong = try #require(Self.outcome(dispatcher, bytes, pieces: pieces))
            #expect(tooLong.code == .textLimitExceeded && tooLong.limit == 5)
            #expect(tooLong.elementPath == ["r", "b"])
            #expect((tooLong.line, tooLong.column) == (3, 3))
        }
        // The indentation is not text under .trim, as for an onEnd handler.
        dispatcher.safety.maximumTextBytes = 6
        #expect(Self.outcome(dispatcher, bytes) == nil)
        dispatcher.whitespace = .preserve
        #expect(Self.outcome(dispatcher, bytes)?.elementPath == ["r"])
    }

    /// An 8,000,000-byte attribute default built from entities, on `count` elements.
    static func defaultedAttribute(elements count: Int) -> [UInt8] {
        let document =
            "<!DOCTYPE r [<!ENTITY a \"\(String(repeating: "x", count: 1000))\">"
            + "<!ENTITY b \"\(String(repeating: "&a;", count: 100))\">"
            + "<!ATTLIST e a CDATA \"\(String(repeating: "&b;", count: 80))\">]>\n"
            + "<r>" + String(repeating: "<e/>", count: count) + "</r>"
        return Array(document.utf8)
    }

    @Test("attribute values defaulted from the DTD count towards the amplification limit")
    func defaultedAttributes() throws {
        var dispatcher = Dispatcher()
        var read = 0
        dispatcher.onStart("e") { element in read += element.attributes["a"]?.utf8.count ?? 0 }
        let bytes = Self.defaultedAttribute(elements: 200)
        let error = try #require(Self.outcome(dispatcher, bytes))
        #expect(error.code == .amplificationLimitBreach)
        #expect(error.message.contains("defaulted"))
        #expect((error.line, error.column) == (2, 8), "the second <e>")
        #expect(read == 8_000_000, "one element's default is within the activation threshold")
        #expect(Self.outcome(dispatcher, bytes, pieces: 1) == error)
        // Skipped subtrees and documents without handlers count them too.
        #expect(Self.outcome(Dispatcher(), bytes)?.code == .amplificationLimitBreach)
        var skipping = Dispatcher()
        skipping.onStart("r") { $0.skipSubtree() }
        #expect(Self.outcome(skipping, bytes)?.code == .amplificationLimitBreach)
        // One element with the default is fine, and so are many with a lifted limit.
        #expect(Self.outcome(dispatcher, Self.defaultedAttribute(elements: 1)) == nil)
        dispatcher.safety.maximumAmplification = .infinity
        read = 0
        #expect(Self.outcome(dispatcher, Self.defaultedAttribute(elements: 3)) == nil)
        #expect(read == 24_000_000)
    }

    @Test("saxdispatch check and events refuse both documents")
    func commandLine() throws {
        let text = FileManagerTemp.write(Data(Self.fourLevels), name: "collected-text.xml")
        let attributes = FileManagerTemp.write(Data(Self.defaultedAttribute(elements: 200)), name: "defaulted.xml")
        for command in ["check", "events"] {
            let first = try CommandRunner.run("saxdispatch", [command, text])
            #expect(first.status == 1)
            #expect(first.error.contains("maximumCollectedTextBytes"), "\(command): \(first.error)")
            let second = try CommandRunner.run("saxdispatch", [command, attributes])
            #expect(second.status == 1)
            #expect(second.error.contains("defaulted from the DTD"), "\(command): \(second.error)")
        }
        let extract = try CommandRunner.run("saxdispatch", ["extract", attributes, "--record", "e", "--field", "@a"])
        #expect(extract.status == 1)
        #expect(extract.output.utf8.count < 20_000_000)
    }

    /// `records` elements of ten references each to a 1,000-byte entity: about 200 bytes
    /// out per byte in once the declaration is behind, 10 KB out per element.
    static func entityReferences(records: Int) -> [UInt8] {
        var text = "<!DOCTYPE r [<!ENTITY a \"\(String(repeating: "x", count: 1000))\">]>\n<r>\n"
        for _ in 0..<records { text += "<x>" + String(repeating: "&a;", count: 10) + "</x>\n" }
        return Array((text + "</r>\n").utf8)
    }

    @Test("expat's own ratio and threshold are the profile's: a lower threshold ends the parse sooner, a higher ratio lets it through")
    func expatLimitsFromTheProfile() throws {
        let bytes = Self.entityReferences(records: 1000)
        let byDefault = try #require(Self.outcome(Dispatcher(), bytes))
        #expect(byDefault.code == .amplificationLimitBreach)
        #expect(byDefault.line > 800, "past 8 MiB of output: \(byDefault)")

        var early = Dispatcher()
        early.safety.amplificationActivationBytes = 64 << 10
        let sooner = try #require(Self.outcome(early, bytes))
        #expect(sooner.code == .amplificationLimitBreach)
        // 64 KiB of output is reached at the 7th element, a ratio over 100 at the 20th.
        #expect(sooner.line > 15 && sooner.line < 30, "\(sooner)")
        #expect(Self.outcome(early, Self.entityReferences(records: 10)) == nil)

        var lenient = Dispatcher()
        lenient.safety.maximumAmplification = 1000
        #expect(Self.outcome(lenient, bytes) == nil)
        lenient.safety.maximumAmplification = 150
        #expect(Self.outcome(lenient, bytes)?.code == .amplificationLimitBreach)
    }
}

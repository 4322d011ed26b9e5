import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

@Suite("Whole text: an element's text with its descendants'")
struct WholeTextTests {
    static let fixture: String = {
        (try? String(contentsOf: TestPaths.fixture("whole-text.xml"), encoding: .utf8)) ?? ""
    }()

    @Test("<p>Plain <em>and</em> simple</p>: own text leaves the child's out, whole text takes it in")
    func ownAndWhole() throws {
        let log = try dispatchLog("<p>Plain <em>and</em> simple</p>") { dispatcher, log in
            dispatcher.onEnd("p") { _, text in log("own=\(text)") }
            dispatcher.onEnd("p", text: .whole) { _, text in log("whole=\(text)") }
            dispatcher.onEnd("p", text: .own, whitespace: .collapse) { _, text in log("own collapsed=\(text)") }
        }
        #expect(log == ["own=Plain  simple", "whole=Plain and simple", "own collapsed=Plain simple"])
    }

    @Test("each whitespace policy applies to the whole text as a whole", arguments: [
        (WhitespacePolicy.preserve, " a  b  c "),
        (.trim, "a  b  c"),
        (.collapse, "a b c"),
    ])
    func policies(policy: WhitespacePolicy, expected: String) throws {
        let log = try dispatchLog("<r> <p> a <b> b </b> c </p> </r>") { dispatcher, log in
            dispatcher.onEnd("p", text: .whole, whitespace: policy) { _, text in log(text) }
        }
        #expect(log == [expected])
        // The dispatcher's own policy, where a handler names none.
        let defaulted = try dispatchLog("<r> <p> a <b> b </b> c </p> </r>") { dispatcher, log in
            dispatcher.whitespace = policy
            dispatcher.onEnd("p", text: .whole) { _, text in log(text) }
        }
        #expect(defaulted == [expected])
    }

    @Test("entities (predefined and declared, one holding markup), references, CDATA; comments and PIs left out")
    func fixtureWholeText() throws {
        let log = try dispatchLog(Self.fixture) { dispatcher, log in
            dispatcher.onEnd("doc/p", text: .whole, whitespace: .preserve) { _, text in log("whole=\(text)") }
            dispatcher.onEnd("doc/p", whitespace: .preserve) { _, text in log("own=\(text)") }
            dispatcher.onEnd("div", text: .whole, whitespace: .collapse) { _, text in log("div=\(text)") }
            dispatcher.onEnd("doc", text: .whole, whitespace: .collapse) { _, text in log("doc=\(text)") }
        }
        #expect(
            log == [
                "whole=Fish & chips — <raw> & by ACME & Sons, bold <text>!",
                "own=Fish &  — <raw> & by ACME & Sons, !",
                "whole= a  b  c ",
                "own= a  c ",
                "div=one two three fourfive",
                "doc=Fish & chips — <raw> & by ACME & Sons, bold <text>! a b c one two three fourfive",
            ])
    }

    @Test("descendants' own-text handlers get exactly their own text inside a whole-text element")
    func descendantsKeepTheirOwnText() throws {
        let log = try dispatchLog("<a>1<b>2<c>3</c>4<x>ignored</x>5</b>6<c>7</c>8</a>") { dispatcher, log in
            dispatcher.onEnd("a", text: .whole) { _, text in log("a whole=\(text)") }
            dispatcher.onEnd("a") { _, text in log("a=\(text)") }
            dispatcher.onEnd("b") { _, text in log("b=\(text)") }
            dispatcher.onEnd("c") { _, text in log("c=\(text)") }
            dispatcher.onText("b") { _, chunk in log("b chunk=\(chunk.string)") }
        }
        #expect(
            log == [
                "b chunk=2", "c=3", "b chunk=4", "b chunk=5", "b=245", "c=7", "a whole=1234ignored5678", "a=168",
            ])
    }

    @Test("nested whole-text elements each get theirs; an element after them starts afresh")
    func nested() throws {
        let log = try dispatchLog("<r><s>x<s>y<s>z</s></s>w</s><s>v</s></r>") { dispatcher, log in
            dispatcher.onEnd("s", text: .whole) { element, text in log("\(element.depth):\(text)") }
            dispatcher.onEnd("r", text: .whole) { _, text in log("r:\(text)") }
        }
        #expect(log == ["4:z", "3:yz", "2:xyzw", "2:v", "r:xyzwv"])
    }

    @Test("catch-all and handler-object forms take the scope too")
    func otherForms() throws {
        let log = try dispatchLog("<r><p>a<i>b</i></p><q>c<i>d</i></q></r>") { dispatcher, log in
            dispatcher.onEnd("q") { _, text in log("q=\(text)") }
            dispatcher.onAnyEnd(text: .whole) { element, text in log("\(element.name)*=\(text)") }
        }
        #expect(log == ["i*=b", "p*=ab", "i*=d", "q=c", "r*=abcd"])

        struct Collector: ElementHandlers {
            var texts: [String] = []
            static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
                handlers.onEnd("p", text: .whole) { collector, _, text in collector.texts.append("p=\(text)") }
                handlers.onAnyEnd(text: .whole, whitespace: .preserve) { collector, element, text in
                    collector.texts.append("\(element.name)=\(text)")
                }
            }
        }
        var collector = Collector()
        try collector.parse(.string("<r><p> a <i>b</i></p><q>c<i> d</i></q></r>"))
        #expect(collector.texts == ["i=b", "p=a b", "i= d", "q=c d", "r= a bc d"])
    }

    @Test("a skipped subtree contributes nothing; the skipped element's own end still has what came before")
    func skippedSubtrees() throws {
        let log = try dispatchLog("<p>a<junk>b<x>c</x></junk>d<keep>e<junk/>f</keep></p>") { dispatcher, log in
            dispatcher.onStart("junk") { element in element.skipSubtree() }
            dispatcher.onEnd("p", text: .whole) { _, text in log("p=\(text)") }
            dispatcher.onEnd("keep", text: .whole) { _, text in log("keep=\(text)") }
            dispatcher.onEnd("junk", text: .whole) { _, text in log("junk=\(text)") }
        }
        #expect(log == ["junk=", "junk=", "keep=ef", "p=adef"])

        let skippingItself = try dispatchLog("<r><p>a<b>b</b></p><p>c</p></r>") { dispatcher, log in
            dispatcher.onStart("p") { element in if element.ancestor(at: 0) == "p", log.lines.isEmpty { element.skipSubtree() } }
            dispatcher.onEnd("p", text: .whole) { _, text in log("p=\(text)") }
        }
        #expect(skippingItself == ["p=", "p=c"])
    }

    @Test("an element nobody reads whole costs nothing new: own text elsewhere is unchanged")
    func unaffectedElsewhere() throws {
        let log = try dispatchLog(Self.fixture) { dispatcher, log in
            dispatcher.onEnd("em", text: .whole) { _, text in log("em=\(text)") }
            dispatcher.onEnd("doc/p", whitespace: .collapse) { _, text in log("p=\(text)") }
        }
        #expect(log == ["em=chips", "p=Fish & — <raw> & by ACME & Sons, !", "p=a c"])
    }
}

@Suite("Whole text and the text limits")
struct WholeTextLimitTests {
    /// The error each feeding (whole, by 1, by 3 bytes) ends with, checked to be the same.
    func limitError(_ document: String, _ configure: (inout Dispatcher, Log) -> Void) throws -> (XMLParseError?, [String]) {
        var results: [(XMLParseError?, [String])] = []
        for chunk in [document.utf8.count, 1, 3] {
            let log = Log()
            var dispatcher = Dispatcher()
            configure(&dispatcher, log)
            let parser = PushParser(dispatcher)
            do {
                try parser.feed(Array(document.utf8), inPiecesOf: chunk)
                _ = try parser.finish()
                results.append((nil, log.lines))
            } catch let error as XMLParseError {
                results.append((error, log.lines))
            }
        }
        #expect(results[1].0 == results[0].0 && results[1].1 == results[0].1, "fed by 1 byte")
        #expect(results[2].0 == results[0].0 && results[2].1 == results[0].1, "fed by 3 bytes")
        return results[0]
    }

    @Test("whole text over maximumTextBytes ends the parse at the element's start tag, whatever the split")
    func wholeTextLimit() throws {
        // <p>'s own text is 6 bytes, its whole text 11.
        let document = "<r>\n  <p>abc<b>defgh</b>ijk</p>\n</r>"
        let (error, log) = try limitError(document) { dispatcher, log in
            dispatcher.safety.maximumTextBytes = .atMost(10)
            dispatcher.onEnd("p") { _, text in log("own=\(text)") }
            dispatcher.onEnd("p", text: .whole) { _, text in log("whole=\(text)") }
            dispatcher.onText("p") { _, chunk in log("chunk=\(chunk.string)") }
        }
        let found = try #require(error)
        #expect(found.code == .textLimitExceeded)
        #expect(found.message == "the whole text of <p> is longer than maximumTextBytes (10)")
        #expect((found.line, found.column, found.byteOffset) == (2, 3, 6))
        #expect(found.limit == 10)
        #expect(found.elementPath == ["r", "p"])
        // Text-chunk handlers get the text up to the limit: "ijk" would make 11.
        #expect(log == ["chunk=abc", "chunk=ij"])

        // Own text alone stays within it.
        let (ownError, ownLog) = try limitError(document) { dispatcher, log in
            dispatcher.safety.maximumTextBytes = .atMost(10)
            dispatcher.onEnd("p") { _, text in log(text) }
        }
        #expect(ownError == nil)
        #expect(ownLog == ["abcijk"])
    }

    @Test("whole text counts towards maximumCollectedTextBytes with the own text collected beside it")
    func collectedLimit() throws {
        // While <b> is open, <r>'s whole text "abcd" and <b>'s own "cd" are held: 6 bytes.
        let document = "<r>ab<b>cd</b>e</r>"
        let (error, log) = try limitError(document) { dispatcher, log in
            dispatcher.safety.maximumCollectedTextBytes = .atMost(5)
            dispatcher.onEnd("r", text: .whole) { _, text in log("r=\(text)") }
            dispatcher.onEnd("b") { _, text in log("b=\(text)") }
        }
        let found = try #require(error)
        #expect(found.code == .textLimitExceeded)
        #expect(
            found.message
                == "the text collected for <b> and the other open elements (2 in all) is longer than maximumCollectedTextBytes (5)")
        #expect((found.line, found.column) == (1, 6))
        #expect(log.isEmpty)

        let (within, withinLog) = try limitError(document) { dispatcher, log in
            dispatcher.safety.maximumCollectedTextBytes = .atMost(6)
            dispatcher.onEnd("r", text: .whole) { _, text in log("r=\(text)") }
            dispatcher.onEnd("b") { _, text in log("b=\(text)") }
        }
        #expect(within == nil)
        #expect(withinLog == ["b=cd", "r=abcde"])
    }

    @Test("leading whitespace counts for whole text: the limit does not depend on the policy")
    func leadingWhitespaceCounts() throws {
        let document = "<p>          <i>abc</i></p>"
        let (error, _) = try limitError(document) { dispatcher, _ in
            dispatcher.safety.maximumTextBytes = .atMost(12)
            dispatcher.onEnd("p", text: .whole, whitespace: .trim) { _, _ in }
        }
        #expect(error?.code == .textLimitExceeded)
        #expect(error?.message == "the whole text of <p> is longer than maximumTextBytes (12)")
    }
}

@testable import SAXDispatch
import Testing

/// Inner markup as the dispatcher gathers it (for record fields, ``RecordField/markup(_:whitespace:)``).
@Suite("Inner markup: an element's content serialized")
struct InnerMarkupTests {
    @Test("mixed content with entities, references, CDATA, a comment and a PI; fed whole and byte by byte")
    func fixtureMarkup() throws {
        let log = try dispatchLog(WholeTextTests.fixture) { dispatcher, log in
            dispatcher.onEnd("doc/p", content: .innerMarkup, whitespace: .preserve) { _, markup in log("p=\(markup)") }
            dispatcher.onEnd("div", content: .innerMarkup, whitespace: .preserve) { _, markup in log("div=\(markup)") }
            dispatcher.onEnd("div/p", content: .innerMarkup, whitespace: .preserve) { _, markup in log("div/p=\(markup)") }
            dispatcher.onEnd("i", whitespace: .preserve) { _, text in log("i own=\(text)") }
        }
        #expect(
            log == [
                #"p=Fish &amp; <em>chips</em> — &lt;raw&gt; &amp; by ACME &amp; Sons, <b class="x">bold &lt;text&gt;</b>!"#,
                "p= a <b> b </b> c ",
                "i own=two ",
                "div/p=one <i>two <u>three</u></i>",
                "div=<p>one <i>two <u>three</u></i></p> four<br/>five",
            ])
    }

    @Test("the whitespace policy trims only the two ends of markup")
    func trimmedEnds() throws {
        let document = "<r><c>\n  <pre>  a\n   b </pre>\n</c></r>"
        for (policy, expected) in [
            (WhitespacePolicy.preserve, "\n  <pre>  a\n   b </pre>\n"), (.trim, "<pre>  a\n   b </pre>"),
            (.collapse, "<pre>  a\n   b </pre>"),
        ] {
            let log = try dispatchLog(document) { dispatcher, log in
                dispatcher.onEnd("c", content: .innerMarkup, whitespace: policy) { _, markup in log(markup) }
            }
            #expect(log == [expected], "\(policy)")
        }
    }

    @Test("defaulted attributes are written (the fragment has no DTD); carriage returns stay references")
    func defaultsAndCarriageReturns() throws {
        let document = "<!DOCTYPE r [<!ATTLIST b lang CDATA 'en'>]><r><c><b t='a&#9;b'>x&#13;y</b></c></r>"
        let log = try dispatchLog(document) { dispatcher, log in
            dispatcher.onEnd("c", content: .innerMarkup, whitespace: .preserve) { _, markup in log(markup) }
        }
        #expect(log == [#"<b t="a&#9;b" lang="en">x&#13;y</b>"#])
    }

    @Test("a skipped subtree is written as an empty element; own-text handlers inside are unaffected")
    func skipped() throws {
        let log = try dispatchLog("<r><c>a<junk x='1'>b<i>c</i></junk>d<i>e</i></c></r>") { dispatcher, log in
            dispatcher.onStart("junk") { element in element.skipSubtree() }
            dispatcher.onEnd("i") { _, text in log("i=\(text)") }
            dispatcher.onEnd("c", content: .innerMarkup, whitespace: .preserve) { _, markup in log("c=\(markup)") }
        }
        #expect(log == ["i=e", #"c=a<junk x="1"/>d<i>e</i>"#])
    }

    @Test("markup over maximumTextBytes ends the parse at the element's start tag, in a start tag or in text")
    func limit() throws {
        let document = #"<r><c>abc<b x="1">d</b></c></r>"#
        // "abc" and `<b x="1"` make 11 bytes; the `>` and "d" 13.
        for (maximum, chunks) in [(10, ["abc"]), (12, ["abc"])] {
            var errors: [XMLParseError] = []
            for chunk in [document.utf8.count, 1, 3] {
                var dispatcher = Dispatcher()
                dispatcher.safety.maximumTextBytes = .atMost(maximum)
                var seen: [String] = []
                dispatcher.onText("c") { _, chunk in seen.append(chunk.string) }
                dispatcher.onEnd("c", content: .innerMarkup, whitespace: .preserve) { _, _ in Issue.record("no end") }
                let parser = PushParser(dispatcher)
                do {
                    try parser.feed(Array(document.utf8), inPiecesOf: chunk)
                    _ = try parser.finish()
                    Issue.record("no error with maximumTextBytes \(maximum)")
                } catch let error as XMLParseError {
                    errors.append(error)
                }
                #expect(seen == chunks)
            }
            #expect(errors.count == 3 && Set(errors).count == 1, "the same error for each feeding")
            let error = try #require(errors.first)
            #expect(error.code == .textLimitExceeded)
            #expect(error.message == "the inner markup of <c> is longer than maximumTextBytes (\(maximum))")
            #expect((error.line, error.column, error.byteOffset) == (1, 4, 3))
            #expect(error.elementPath == ["r", "c"])
        }
    }
}

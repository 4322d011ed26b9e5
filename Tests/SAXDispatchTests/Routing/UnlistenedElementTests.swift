import Testing

@testable import SAXDispatch

/// The start and end tags of elements nobody listens to take a short path through the
/// engine (no position, handler or text work, a pop with nothing to finish). Each test
/// here is a case where such an element still needs the work the short path leaves out,
/// or where what it keeps (its frame, its key, its count) is read later.
@Suite("Elements nobody listens to: what their start and end tags still do")
struct UnlistenedElementTests {
    @Test("an unlistened element keeps its place among the ancestors, in paths, depths and positions")
    func ancestors() throws {
        let log = try dispatchLog("<r><q>\n<m><x a='1'/></m></q><x/></r>") { dispatcher, log in
            dispatcher.onStart("x") { element in
                log("\(element.ancestors) \(element.path) depth \(element.depth) line \(element.line) col \(element.column)")
                log("inside q: \(element.isInside("q")), parent \(element.ancestor(at: 1) ?? "-"), root \(element.ancestor(at: element.depth - 1) ?? "-")")
            }
        }
        #expect(
            log == [
                "[\"m\", \"q\", \"r\"] r/q/m/x depth 4 line 2 col 4", "inside q: true, parent m, root r",
                "[\"r\"] r/x depth 2 line 2 col 22", "inside q: false, parent r, root r",
            ])
    }

    @Test("a pattern that names the element only under some ancestor, or below a `//`, still matches through it")
    func matchesThroughUnlistenedElements() throws {
        let document = "<r><x>1</x><a><x>2</x><q><x>3</x></q></a><b><x>4</x></b><a><n><x>5</x></n></a></r>"
        let log = try dispatchLog(document) { dispatcher, log in
            dispatcher.onEnd("a/x") { _, text in log("a/x \(text)") }
            dispatcher.onEnd("a//x") { _, text in log("a//x \(text)") }
        }
        // `a/x` is more specific than `a//x`: both run for 2, in that order.
        #expect(log == ["a/x 2", "a//x 2", "a//x 3", "a//x 5"])
    }

    @Test("an element that matched nothing against its ancestors ends without disturbing the matches around it")
    func emptyMatchBelowAndAbove() throws {
        // The outer `name` is matched against its ancestors and matches nothing; the inner
        // one matches. The outer one's end finds the match stack as it left it.
        let document = "<r><name><animal><name>1</name></animal></name><animal><name>2</name><y/></animal><name>3</name></r>"
        let log = try dispatchLog(document) { dispatcher, log in
            dispatcher.onEnd("animal/name") { _, text in log("name \(text)") }
            dispatcher.onEnd("animal") { _ in log("animal") }
        }
        #expect(log == ["name 1", "animal", "name 2", "animal"])
    }

    @Test("an element with a start handler alone ends with a pop: its parent's text resumes after it")
    func startHandlerAlone() throws {
        let log = try dispatchLog("<r><p>a<b>x</b>c<b/>d</p></r>") { dispatcher, log in
            dispatcher.onStart("b") { element in log("b at \(element.column)") }
            dispatcher.onEnd("p", whitespace: .preserve) { _, text in log("p \(text)") }
        }
        #expect(log == ["b at 8", "b at 17", "p acd"])
    }

    @Test("attribute tests on an unlistened ancestor are evaluated and kept for the patterns below it")
    func attributeTestsOnUnlistenedAncestors() throws {
        let document = "<r><q k='1'><x>1</x></q><q k='2'><x>2</x></q><p k='1'><i><x>3</x></i></p></r>"
        let log = try dispatchLog(document) { dispatcher, log in
            dispatcher.onEnd("*[@k='1']/x") { _, text in log("child \(text)") }
            dispatcher.onEnd("*[@k='1']//x") { _, text in log("below \(text)") }
        }
        #expect(log == ["child 1", "below 1", "below 3"])
    }

    @Test("inside a captured element, unlistened elements are written into its markup and whole text")
    func insideCapture() throws {
        let document = "<r><c>a<b>b<i/></b><d>c</d>e</c><d>x</d></r>"
        let log = try dispatchLog(document) { dispatcher, log in
            dispatcher.onEnd("c", content: .innerMarkup, whitespace: .preserve) { _, markup in log("markup \(markup)") }
            dispatcher.onEnd("r", content: .wholeText, whitespace: .preserve) { _, text in log("text \(text)") }
        }
        #expect(log == ["markup a<b>b<i/></b><d>c</d>e", "text abcex"])
    }

    @Test("the end of an unlistened element that a kept subtree began at ends the kept subtree")
    func keptSubtreeEndsAtAnUnlistenedElement() throws {
        let document = "<a><b><c>1</c></b><d><c>2</c></d><b><c>3</c></b></a>"
        let log = try dispatchLog(document) { dispatcher, log in
            try? dispatcher.skipAll(except: "/a/b")
            dispatcher.onEnd("c") { _, text in log(text) }
        }
        // Had `b`'s end not closed the kept subtree, `d` would not be filtered and 2 would be read.
        #expect(log == ["1", "3"])
    }

    @Test("a mounted set sees its pattern's elements through unlistened elements in between")
    func mountedSetThroughUnlistenedElements() throws {
        var inner = Dispatcher()
        let log = Log()
        inner.onEnd("v") { _, text in log("v \(text)") }
        inner.onEnd("w/v") { _, text in log("w/v \(text)") }
        var dispatcher = Dispatcher()
        dispatcher.mount(inner, at: "item")
        _ = try dispatcher.parse(.string("<r><item><q><v>1</v></q><w><v>2</v></w></item><v>3</v></r>"))
        // The more specific pattern first.
        #expect(log.lines == ["v 1", "w/v 2", "v 2"])
    }

    @Test("text counted against the limits everywhere counts an unlistened element's text too")
    func measuredTextOfUnlistenedElements() throws {
        var dispatcher = Dispatcher()
        dispatcher.limitsAllText = true
        dispatcher.safety.maximumTextBytes = 4
        dispatcher.onStart("r") { _ in }
        let parser = PushParser(dispatcher)
        let error = #expect(throws: XMLParseError.self) {
            try parser.feed(Array("<r><q><p>12345</p></q></r>".utf8), inPiecesOf: 2)
            _ = try parser.finish()
        }
        #expect(error?.code == .textLimitExceeded)
        #expect(error?.elementPath == ["r", "q", "p"])
    }

    @Test("limits hold at an unlistened element, and the error names the path of unlistened elements to it")
    func limitsAtUnlistenedElements() throws {
        var dispatcher = Dispatcher()
        dispatcher.safety.maximumDepth = 3
        dispatcher.onStart("z") { _ in }
        let errors = parseErrorsInEverySplit(of: "<a><b><c><d/></c></b></a>", with: dispatcher)
        #expect(errors.count == 2)
        for error in errors {
            #expect(error?.code == .depthLimitExceeded)
            #expect(error?.column == 10)
            #expect(error?.elementPath == ["a", "b", "c"])
        }
    }
}

import Testing

@testable import SAXDispatch

/// Once an element's content passed through from a grandchild, the next element on the same
/// path of names lets its content pass through from its first child
/// (``PathMatchCache/passesThroughFromFirstChild(_:)``). Each test is a case where beginning
/// there would change what is seen if it were wrong: an element where a match may begin,
/// ancestors a handler inside reads, a limit or an error inside, the names the warnings
/// count. Every one compares the parse with the same parse where nothing passes through,
/// fed whole, one byte and three bytes at a time (``PassThroughTests/run(_:safety:_:)``),
/// and checks that the passing through began at a first child.
@Suite("Subtrees that pass through from the first child, on a path whose content passed through before")
struct PassThroughFromFirstChildTests {
    /// The first `p/q` has a grandchild (`y`): its content passes through from there, and
    /// the later ones from their first child where no match can begin.
    static let prefix = "<r><p><q><z><y/></z></q></p>"

    @Test("elements where a match may begin are dispatched with the ancestors they would have had, first child or not")
    func matchesInside() {
        let document = Self.prefix + """
            <p><q><z/><a><b>1</b></a><w><a><b>2</b></a></w></q></p>\
            <p><q><a><b>3</b></a><z/><w><x><a><b>4</b></a></x></w></q><a><b>5</b></a></p></r>
            """
        let result = PassThroughTests.run(document) { dispatcher, log in
            dispatcher.onEnd("a/b") { element, text in
                log("b \(text) \(element.path) depth \(element.depth) above \(element.ancestor(at: 2) ?? "-")")
            }
            dispatcher.onEnd("/r/p") { element, _ in log("p \(element.line):\(element.column)") }
        }
        #expect(
            result.log == [
                "p 1:4",
                "b 1 r/p/q/a/b depth 5 above q", "b 2 r/p/q/w/a/b depth 6 above w", "p 1:29",
                "b 3 r/p/q/a/b depth 5 above q", "b 4 r/p/q/w/x/a/b depth 7 above x", "b 5 r/p/a/b depth 4 above p",
                "p 1:84",
            ])
        #expect(result.fromFirstChild == 2)
    }

    @Test("the depth limit breaks inside a subtree passing through from its first child with the same path")
    func depthLimitInside() {
        var safety = SafetyProfile.default
        safety.maximumDepth = 5
        let document = Self.prefix + "<p><q><w><x><v/></x></w></q></p></r>"
        let result = PassThroughTests.run(document, safety: safety) { dispatcher, log in
            dispatcher.onEnd("/r/p") { _, _ in log("p") }
        }
        #expect(result.log == ["p", "error depthLimitExceeded 1:41 at r/p/q/w/x"])
        #expect(result.fromFirstChild == 1)
    }

    @Test("a malformed document's error inside a subtree passing through from its first child names the elements open there")
    func errorPathsInside() {
        let result = PassThroughTests.run(Self.prefix + "<p><q><w><x></w></x></q></p></r>") { dispatcher, log in
            dispatcher.onEnd("/r/p") { _, _ in log("p") }
        }
        #expect(result.log.count == 2)
        #expect(result.log.last?.hasSuffix("at r/p/q/w/x") == true)
        #expect(result.fromFirstChild == 1)
    }

    @Test("the names inside are counted for the warnings about patterns that matched nothing")
    func warningsCountTheirNames() {
        let document = Self.prefix + "<p><q><nmae/><w><nmae/><title/></w></q></p></r>"
        let result = PassThroughTests.run(document) { dispatcher, log in
            dispatcher.onEnd("name") { _, _ in log("name") }
            dispatcher.onEnd("titel") { _, _ in log("titel") }
            dispatcher.onEnd("/r/p") { _, _ in }
        }
        #expect(result.log.count == 2)
        #expect(result.log.first?.contains("nmae") == true)
        #expect(result.log.last?.contains("title") == true)
        #expect(result.fromFirstChild == 1)
    }

    @Test("an element on a path whose content never had a grandchild still waits for one")
    func leavesOnly() {
        let document = "<r><p><q><z/><z/></q></p><p><q><z/><w><y/></w></q></p></r>"
        let result = PassThroughTests.run(document) { dispatcher, log in
            dispatcher.onEnd("/r/p") { _, _ in log("p") }
        }
        #expect(result.log == ["p", "p"])
        #expect(result.passedThrough == 1)
        #expect(result.fromFirstChild == 0)
    }
}

import Testing

@testable import SAXDispatch

/// Below an element nobody listens to and whose name no pattern uses, where some pattern is
/// matched against the ancestors, the elements where no match can begin pass through: pushed with nothing listening, by a callback of their
/// own, while those where a match may begin are dispatched in full (`DispatchEngine+PassingThrough`).
/// Each test here is a case where passing through one element too many, or dispatching one
/// too few, would change what is seen. Every one compares the parse with the same parse
/// where nothing passes through (a comment handler turns it off: a subtree passing through
/// leaves comments out), fed whole, one byte and three bytes at a time, and checks that the
/// short path was taken.
@Suite("Subtrees that pass through: elements no pattern can match, pushed on the cheap")
struct PassThroughTests {
    /// What parsing `document` with the handlers `configure` registers logs (handler calls,
    /// then the parse's error and warnings), in every split; expects the same log with
    /// nothing passing through, and returns it with how many subtrees passed through, and of
    /// them how many at a child of their element rather than a grandchild.
    static func run(
        _ document: String, safety: SafetyProfile = .default, _ configure: (inout Dispatcher, Log) -> Void
    ) -> (log: [String], passedThrough: Int, fromFirstChild: Int) {
        var logs: [[String]] = []
        var passedThrough: [Int] = []
        var fromFirstChild: [Int] = []
        for passesThrough in [true, false] {
            for chunk in [document.utf8.count, 1, 3] {
                let log = Log()
                var dispatcher = Dispatcher()
                dispatcher.safety = safety
                configure(&dispatcher, log)
                if !passesThrough { dispatcher.onComment { _ in } }
                let parser = PushParser(dispatcher)
                do {
                    try parser.feed(Array(document.utf8), inPiecesOf: chunk)
                    _ = try parser.finish()
                    for warning in parser.warnings { log("warning \(warning.message)") }
                } catch let error as XMLParseError {
                    log("error \(error.code) \(error.line):\(error.column) at \(error.elementPath)")
                } catch {
                    log("error \(error)")
                }
                logs.append(log.lines)
                passedThrough.append(parser.engine.passedThroughSubtrees)
                fromFirstChild.append(parser.engine.passedThroughFromFirstChild)
            }
        }
        for index in 1..<logs.count { #expect(logs[index] == logs[0], "run \(index)") }
        #expect(passedThrough[3...].allSatisfy { $0 == 0 }, "a comment handler keeps every subtree dispatched")
        return (logs[0], passedThrough[0], fromFirstChild[0])
    }

    static let zoo = """
        <zoo><animals><animal><kind>dog</kind><nested_nonsense><name>Rex</name></nested_nonsense>\
        <junk><name>decoy</name><note id="n1">x</note><blob><deeper><name>Max</name></deeper></blob><x>a</x><x/></junk>\
        <url>u1</url></animal><animal><kind>cat</kind><nested_nonsense><name>Tom</name></nested_nonsense>\
        <junk><x/><animal><kind>inner</kind></animal></junk><url>u2</url></animal></animals></zoo>
        """

    @Test("handlers by name see every element they name inside subtrees that pass through, with its path, depth and text")
    func namesInsideTheSubtree() {
        let result = Self.run(Self.zoo) { dispatcher, log in
            dispatcher.onEnd("kind") { element, text in log("kind \(text) \(element.path) depth \(element.depth)") }
            dispatcher.onEnd("name") { element, text in
                log("name \(text) parent \(element.ancestor(at: 1) ?? "-") at \(element.line):\(element.column)")
            }
            dispatcher.onEnd("animal") { element, _ in log("animal \(element.path)") }
            // Subtrees pass through only where some pattern is matched against the ancestors.
            dispatcher.onEnd("animals/animal") { _, _ in }
        }
        #expect(
            result.log == [
                "kind dog zoo/animals/animal/kind depth 4", "name Rex parent nested_nonsense at 1:56",
                "name decoy parent junk at 1:96", "name Max parent deeper at 1:150", "animal zoo/animals/animal",
                "kind cat zoo/animals/animal/kind depth 4", "name Tom parent nested_nonsense at 1:264",
                "kind inner zoo/animals/animal/junk/animal/kind depth 6", "animal zoo/animals/animal/junk/animal",
                "animal zoo/animals/animal",
            ])
        #expect(result.passedThrough > 0)
    }

    @Test("patterns by path match through elements that passed through, and only where their path fits")
    func pathPatterns() {
        let result = Self.run(Self.zoo) { dispatcher, log in
            dispatcher.onEnd("animal/kind") { _, text in log("kind \(text)") }
            dispatcher.onEnd("animal/nested_nonsense/name") { _, text in log("name \(text)") }
            dispatcher.onEnd("/zoo/animals/animal") { _, _ in log("record") }
        }
        #expect(result.log == ["kind dog", "name Rex", "record", "kind cat", "name Tom", "kind inner", "record"])
        #expect(result.passedThrough > 0)
    }

    @Test("a step after `//` may begin a match below elements that passed through, its ancestors above them")
    func descendantAxis() {
        let document = "<r><a><q><z/><p><b>1</b></p></q></a><q><z/><b>2</b></q><c><q><z/><d><b>3</b></d></q></c></r>"
        let result = Self.run(document) { dispatcher, log in
            dispatcher.onEnd("a//b") { _, text in log("a//b \(text)") }
            dispatcher.onEnd("/r//d/b") { _, text in log("d/b \(text)") }
        }
        #expect(result.log == ["a//b 1", "d/b 3"])
        #expect(result.passedThrough > 0)
    }

    @Test("a `*` step matches an element that passed through, so every element a pattern names is dispatched")
    func wildcardSteps() {
        let document = "<r><a><q><z><y/></z><c>1</c></q></a><b><q><z><y/></z><c>2</c><w><z/><c>3</c></w></q></b></r>"
        let result = Self.run(document) { dispatcher, log in
            dispatcher.onEnd("a/*/c") { _, text in log("a/*/c \(text)") }
            dispatcher.onEnd("b/*/c") { _, text in log("b/*/c \(text)") }
        }
        #expect(result.log == ["a/*/c 1", "b/*/c 2"])
        #expect(result.passedThrough > 0)
    }

    @Test("attribute tests on elements that passed through are kept for the patterns below them")
    func attributeTests() {
        let document = "<r><q><z/><p k='1'><x>1</x></p><p k='2'><x>2</x></p><p><w k='1'><z/><x>3</x></w></p></q></r>"
        let result = Self.run(document) { dispatcher, log in
            dispatcher.onEnd("*[@k='1']/x") { _, text in log("x \(text)") }
        }
        #expect(result.log == ["x 1", "x 3"])
        #expect(result.passedThrough > 0)
    }

    @Test("a mounted set sees its pattern's elements inside subtrees that pass through")
    func mountedSets() {
        let document = "<r><item><q><z/><v>1</v><w><v>2</v></w></q></item><q><z/><v>3</v></q></r>"
        let result = Self.run(document) { dispatcher, log in
            var inner = Dispatcher()
            inner.onEnd("v") { _, text in log("v \(text)") }
            inner.onEnd("w/v") { _, text in log("w/v \(text)") }
            dispatcher.mount(inner, at: "item")
        }
        #expect(result.log == ["v 1", "w/v 2", "v 2"])
        #expect(result.passedThrough > 0)
    }

    @Test("namespaced patterns match by URI inside subtrees that pass through")
    func namespacedPatterns() {
        let document = """
            <r xmlns:a="urn:z" xmlns:b="urn:other"><q><z/><a:name>1</a:name><b:name>2</b:name><name>3</name>\
            <w xmlns="urn:z"><z/><name>4</name></w></q></r>
            """
        let result = Self.run(document) { dispatcher, log in
            dispatcher.namespaces = ["z": "urn:z"]
            dispatcher.onEnd("z:name") { _, text in log("z:name \(text)") }
            dispatcher.onEnd("*:name") { _, text in log("*:name \(text)") }
            dispatcher.onStart("/r") { _ in }
        }
        #expect(result.log == ["z:name 1", "*:name 1", "*:name 2", "*:name 3", "z:name 4", "*:name 4"])
        #expect(result.passedThrough > 0)
    }

    @Test("an element dispatched inside a subtree that passes through may skip its own content")
    func skippedSubtreeInside() {
        let document = "<r><q><z><y/></z><s><t>no</t><q><z/><t>no</t></q></s><t>yes</t><s/><t>too</t></q></r>"
        let result = Self.run(document) { dispatcher, log in
            dispatcher.onStart("s") { element in element.skipSubtree() }
            dispatcher.onEnd("t") { _, text in log("t \(text)") }
            dispatcher.onEnd("s") { element, _ in log("s \(element.depth)") }
            dispatcher.onStart("/r") { _ in }
        }
        #expect(result.log == ["s 3", "t yes", "s 3", "t too"])
        #expect(result.passedThrough > 0)
    }

    @Test("subtrees pass through inside an element dispatched in one, and the enclosing one resumes after it")
    func nestedSubtrees() {
        let document = "<r><q><z/><a><p><z/><b>1</b><p><z/><a><b>2</b></a></p></p><b>3</b></a><z><a><b>4</b></a></z></q></r>"
        let result = Self.run(document) { dispatcher, log in
            dispatcher.onEnd("a/b") { element, text in log("b \(text) depth \(element.depth)") }
        }
        #expect(result.log == ["b 2 depth 7", "b 3 depth 4", "b 4 depth 5"])
        #expect(result.passedThrough == 2)
    }

    @Test("the depth limit breaks inside a subtree that passes through as it breaks outside one, with the same path")
    func depthLimitInside() {
        var safety = SafetyProfile.default
        safety.maximumDepth = 5
        let document = "<r><q><z/><w><x><y><v/></y></x></w></q></r>"
        let result = Self.run(document, safety: safety) { dispatcher, log in
            dispatcher.onEnd("/r") { _, _ in log("r") }
        }
        #expect(result.log == ["error depthLimitExceeded 1:20 at r/q/w/x/y"])
        #expect(result.passedThrough > 0)
    }

    @Test("a malformed document's error inside a subtree that passes through names the elements open there")
    func errorPathsInside() {
        let result = Self.run("<r><q><z/><w><x></w></x></q></r>") { dispatcher, log in
            dispatcher.onEnd("/r") { _, _ in log("r") }
        }
        #expect(result.log.count == 1)
        #expect(result.log.first?.hasSuffix("at r/q/w/x") == true)
        #expect(result.passedThrough > 0)
    }

    @Test("the names inside subtrees that pass through are counted for the warnings about patterns that matched nothing")
    func warningsCountTheirNames() {
        let result = Self.run("<r><q><z/><nmae/><nmae/><w><z/><title/></w></q></r>") { dispatcher, log in
            dispatcher.onEnd("name") { _, _ in log("name") }
            dispatcher.onEnd("titel") { _, _ in log("titel") }
            dispatcher.onStart("/r") { _ in }
        }
        #expect(result.log.count == 2)
        #expect(result.log.allSatisfy { $0.hasPrefix("warning") })
        #expect(result.log.first?.contains("nmae") == true)
        #expect(result.log.last?.contains("title") == true)
        #expect(result.passedThrough > 0)
    }

    @Test("an ancestor's whole text and markup take in what its unread descendants hold: nothing passes through there")
    func captureAbove() {
        let document = "<r><q><w>a<p>b<y>c</y></p></w><z>d<y/></z></q><t>e</t></r>"
        let result = Self.run(document) { dispatcher, log in
            dispatcher.onEnd("/r", content: .wholeText, whitespace: .preserve) { _, text in log("r \(text)") }
            dispatcher.onEnd("q/z", content: .innerMarkup, whitespace: .preserve) { _, markup in log("z \(markup)") }
        }
        #expect(result.log == ["z d<y/>", "r abcde"])
        #expect(result.passedThrough == 0)
    }

    @Test("comments and processing instructions inside unread subtrees still reach their handlers")
    func commentsAndInstructions() throws {
        let log = try dispatchLog("<r><q><z/><!--c--><w><?p d?></w></q></r>") { dispatcher, log in
            dispatcher.onProcessingInstruction { target, data in log("pi \(target) \(data)") }
            dispatcher.onEnd("t") { _, _ in log("t") }
        }
        #expect(log == ["pi p d"])
        let comments = try dispatchLog("<r><q><z/><!--c--><w><!--d--></w></q></r>") { dispatcher, log in
            dispatcher.onComment { log("comment \($0)") }
        }
        #expect(comments == ["comment c", "comment d"])
    }

    @Test("catch-all handlers and patterns ending in `*` see every element: nothing passes through")
    func catchAllsListenEverywhere() {
        let document = "<r><q><z/><w><x/></w></q></r>"
        let anyStart = Self.run(document) { dispatcher, log in
            dispatcher.onAnyStart { element in log(element.name) }
        }
        #expect(anyStart.log == ["r", "q", "z", "w", "x"])
        #expect(anyStart.passedThrough == 0)
        let star = Self.run(document) { dispatcher, log in
            dispatcher.onStart("w/*") { element in log("w/* \(element.name)") }
        }
        #expect(star.log == ["w/* x"])
        #expect(star.passedThrough == 0)
    }

    @Test("where every pattern is decided by the name alone, nothing passes through")
    func namesAlone() {
        let result = Self.run("<r><q><z><y/></z><w><y/></w></q><n>1</n></r>") { dispatcher, log in
            dispatcher.onEnd("n") { _, text in log("n \(text)") }
        }
        #expect(result.log == ["n 1"])
        #expect(result.passedThrough == 0)
    }

    @Test("an element with no child, or whose children a pattern names, costs no switch")
    func noSwitchWithoutUnnamedChildren() {
        let result = Self.run("<r><q/><q>text</q><p><t>1</t><t>2</t></p></r>") { dispatcher, log in
            dispatcher.onEnd("t") { _, text in log("t \(text)") }
            dispatcher.onEnd("/r") { _, _ in log("r") }
        }
        #expect(result.log == ["t 1", "t 2", "r"])
        #expect(result.passedThrough == 0)
    }
}

import SAXDispatch
import Testing

@Suite("Routing by path pattern, precedence and skipping")
struct RoutingTests {
    static let borders = """
        <map>
          <border type="internal"><path>a</path><name>inner</name></border>
          <border type="external"><segment><path>b</path></segment></border>
          <path>c</path>
          <region><border><path>d</path></border></region>
        </map>
        """

    @Test("each pattern form matches exactly the elements it describes")
    func patternForms() throws {
        let cases: [(ElementPattern, [String])] = [
            ("path", ["a", "b", "c", "d"]),
            ("border/path", ["a", "d"]),
            ("/map/border/path", ["a"]),
            ("/map/path", ["c"]),
            ("/border/path", []),
            ("/path", []),
            ("border//path", ["a", "b", "d"]),
            ("/map//path", ["a", "b", "c", "d"]),
            ("map//border//path", ["a", "b", "d"]),
            ("/map/*/path", ["a"]),
            ("*/path", ["a", "b", "c", "d"]),
            ("segment/*", ["b"]),
            ("border[@type]/path", ["a"]),
            ("border[@type='external']//path", ["b"]),
            ("border[@type=\"internal\"]/*", ["a", "inner"]),
            ("/map/border[@type='none']/path", []),
            ("//region//path", ["d"]),
        ]
        for (pattern, expected) in cases {
            let texts = try dispatchLog(Self.borders) { dispatcher, log in
                dispatcher.onEnd(pattern) { _, text in log(text) }
            }
            #expect(texts == expected, "\(pattern)")
        }
    }

    @Test("a step's attribute test sees the element's own attributes, values as expat normalized them")
    func attributeTests() throws {
        let document = "<r><a k='1'/><a k='2' x=''/><a x='&amp;'/><a/></r>"
        let seen = try dispatchLog(document) { dispatcher, log in
            dispatcher.onStart("a[@k]") { log("k=\($0.attributes["k"] ?? "")") }
            dispatcher.onStart("a[@k='2'][@x]") { _ in log("k2 with x") }
            dispatcher.onStart("a[@x='&']") { _ in log("x=&") }
            dispatcher.onStart("*[@x='']") { $0.name == "a" ? log("empty x") : () }
        }
        #expect(seen == ["k=1", "k2 with x", "k=2", "empty x", "x=&"])
    }

    @Test("an exact name with pattern characters is matched as written")
    func exactName() throws {
        // Not a valid XML name, but a name pattern built from a String never parses it.
        let pattern = ElementPattern(name: "a/b")
        #expect(pattern.description == "a/b")
        let seen = try dispatchLog("<r><a><b/></a></r>") { dispatcher, log in
            dispatcher.onStart(pattern) { _ in log("matched") }
            dispatcher.onStart(ElementPattern(name: "b")) { _ in log("b") }
        }
        #expect(seen == ["b"])
    }

    @Test("all matching patterns run, most specific first; equal ones in registration order; catch-all only when none matched")
    func precedence() throws {
        let document = "<map><border type='x'><path/></border><path/><other/></map>"
        let seen = try dispatchLog(document) { dispatcher, log in
            dispatcher.onStart("*") { log("* \($0.name)") }
            dispatcher.onStart("path") { _ in log("path") }
            dispatcher.onStart("border//path") { _ in log("border//path") }
            dispatcher.onStart("border/path") { _ in log("border/path") }
            dispatcher.onStart("/map/border/path") { _ in log("/map/border/path") }
            dispatcher.onStart("border[@type]/path") { _ in log("border[@type]/path") }
            dispatcher.onStart("path") { _ in log("path again") }
            dispatcher.onStart("map/*") { _ in log("map/*") }
            dispatcher.onAnyStart { log("any \($0.name)") }
        }
        #expect(
            seen == [
                "* map",
                "map/*", "* border",
                // 3 names: anchored; then 2 names and 2 steps, with a test first, then by registration.
                "/map/border/path", "border[@type]/path", "border//path", "border/path", "path", "path again",
                "* path",
                "map/*", "path", "path again", "* path",
                "map/*", "* other",
            ])
    }

    @Test("the catch-all runs for elements whose name has patterns that do not match")
    func catchAllForUnmatchedPatterns() throws {
        let seen = try dispatchLog("<r><a t='1'/><a/><b><a/></b></r>") { dispatcher, log in
            dispatcher.onStart("a[@t]") { _ in log("a with t") }
            dispatcher.onStart("b/a") { _ in log("b/a") }
            dispatcher.onAnyStart { log("any \($0.name)") }
        }
        #expect(seen == ["any r", "a with t", "any a", "any b", "b/a"])
    }

    @Test("a handler can end the chain of its event; the next event starts a new one")
    func chainStop() throws {
        let document = "<r><a>x</a><a>stop</a></r>"
        let seen = try dispatchLog(document) { dispatcher, log in
            dispatcher.onEnd("r/a") { element, text in
                log("r/a \(text)")
                if text == "stop" { element.stopHandlerChain() }
            }
            dispatcher.onEnd("a") { _, text in log("a \(text)") }
            dispatcher.onStart("r/a") { element in
                log("start r/a")
                element.stopHandlerChain()
            }
            dispatcher.onStart("a") { _ in log("start a") }
            dispatcher.onStart("*") { _ in log("start *") }
        }
        #expect(
            seen == [
                "start *", "start r/a", "r/a x", "a x", "start r/a", "r/a stop",
            ])
    }

    @Test("text handlers and text chunks follow patterns too")
    func textByPattern() throws {
        let document = "<r><p>one <b>two</b> three</p><q><p>four</p></q></r>"
        let seen = try dispatchLog(document) { dispatcher, log in
            dispatcher.onText("q/p") { _, chunk in log("chunk \(chunk.string)") }
            dispatcher.onEnd("/r/p", whitespace: .collapse) { _, text in log("r/p \(text)") }
            dispatcher.onEnd("p/b") { _, text in log("p/b \(text)") }
        }
        #expect(seen.filter { !$0.hasPrefix("chunk") } == ["p/b two", "r/p one three"])
        #expect(seen.filter { $0.hasPrefix("chunk") }.map { $0.dropFirst(6) }.joined() == "four")
    }

    static let zoo = """
        <zoo><!-- c1 -->
          <animal><kind>cat</kind><junk><name>decoy</name><deep><name>decoy2</name></deep><?pi x?><!-- c2 --></junk><name>Tom</name></animal>
          <animal><kind>dog</kind><junk>lots of text<name>decoy3</name></junk><name>Rex</name></animal>
        </zoo>
        """

    @Test("a start handler skips its element's subtree: nothing inside fires, no text is collected, its end still runs")
    func skipSubtree() throws {
        let seen = try dispatchLog(Self.zoo) { dispatcher, log in
            dispatcher.onStart("junk") { element in
                log("skip junk at \(element.line):\(element.column)")
                element.skipSubtree()
            }
            dispatcher.onStart("junk") { _ in log("second junk start handler") }
            dispatcher.onEnd("junk", whitespace: .preserve) { _, text in log("end junk \(text.debugDescription)") }
            dispatcher.onEnd("name") { element, text in log("name \(text) in \(element.ancestor(at: 1) ?? "")") }
            dispatcher.onAnyStart { log("start \($0.name)") }
            dispatcher.onComment { log("comment \($0)") }
            dispatcher.onProcessingInstruction { target, _ in log("pi \(target)") }
        }
        #expect(
            seen == [
                "start zoo", "comment  c1 ",
                "start animal", "start kind", "skip junk at 2:27", "second junk start handler", "end junk \"\"",
                "name Tom in animal",
                "start animal", "start kind", "skip junk at 3:27", "second junk start handler", "end junk \"\"",
                "name Rex in animal",
            ])
    }

    @Test("after a skipped subtree the parent's text is collected again")
    func textAfterSkip() throws {
        let seen = try dispatchLog("<r>a<s>b<t>c</t>d</s>e</r>") { dispatcher, log in
            dispatcher.onStart("s") { $0.skipSubtree() }
            dispatcher.onEnd("r", whitespace: .preserve) { _, text in log("r \(text)") }
            dispatcher.onEnd("s", whitespace: .preserve) { _, text in log("s \(text.debugDescription)") }
        }
        #expect(seen == ["s \"\"", "r ae"])
    }

    @Test("limits still hold inside a skipped subtree, and the error names the path to it")
    func limitsInsideSkip() throws {
        var dispatcher = Dispatcher()
        dispatcher.safety.maximumDepth = 4
        dispatcher.onStart("b") { $0.skipSubtree() }
        let errors = parseErrorsInEverySplit(of: "<a><b><c><d><e/></d></c></b></a>", with: dispatcher)
        #expect(errors.count == 2)
        for error in errors {
            #expect(error?.code == .depthLimitExceeded)
            #expect(error?.column == 13)
            #expect(error?.elementPath == ["a", "b"])
        }
    }

    @Test("skipAll(except:) dispatches only the kept subtrees and the elements on the way to them")
    func keptSubtrees() throws {
        let seen = try dispatchLog(Self.zoo) { dispatcher, log in
            try? dispatcher.skipAll(except: "/zoo/animal/name", "/zoo/animal/kind")
            dispatcher.onAnyStart { log("start \($0.name)") }
            dispatcher.onEnd("name") { _, text in log("name \(text)") }
            dispatcher.onEnd("kind") { _, text in log("kind \(text)") }
            dispatcher.onComment { log("comment \($0)") }
        }
        #expect(
            seen == [
                "start zoo", "comment  c1 ", "start animal", "kind cat", "name Tom", "start animal", "kind dog",
                "name Rex",
            ])
    }

    @Test("kept subtrees with // and attribute tests; a floating pattern keeps everything that may hold it")
    func keptSubtreesForms() throws {
        let document = "<r><x><a k='1'><t>1</t></a></x><y><a><t>2</t></a></y><a k='1'><t>3</t></a></r>"
        let children = try dispatchLog(document) { dispatcher, log in
            try? dispatcher.skipAll(except: "/r/*/a[@k='1']")
            dispatcher.onEnd("t") { _, text in log(text) }
            dispatcher.onStart("y") { _ in log("y") }
        }
        #expect(children == ["1", "y"])
        // Below a `//` nothing can be ruled out, so only the tests decide what is kept.
        let deep = try dispatchLog(document) { dispatcher, log in
            try? dispatcher.skipAll(except: "/r//a[@k='1']")
            dispatcher.onEnd("t") { _, text in log(text) }
            dispatcher.onStart("y") { _ in log("y") }
        }
        #expect(deep == ["1", "y", "2", "3"])
        let floating = try dispatchLog(document) { dispatcher, log in
            try? dispatcher.skipAll(except: "a/t")
            dispatcher.onEnd("t") { _, text in log(text) }
        }
        #expect(floating == ["1", "2", "3"])
        let none = try dispatchLog(document) { dispatcher, log in
            try? dispatcher.skipAll(except: [])
            dispatcher.onAnyStart { log($0.name) }
        }
        #expect(none.isEmpty)
    }

    @Test("skipAll(except:) refuses more steps than its automaton has bits")
    func keptSubtreesLimit() throws {
        var dispatcher = Dispatcher()
        let patterns = try (0..<13).map { try ElementPattern("/a/b/c/d/e\($0)") }
        let error = #expect(throws: XMLPatternError.self) { try dispatcher.skipAll(except: patterns) }
        #expect(error?.message == "the subtrees to keep have more than 64 steps in all")
        #expect(throws: Never.self) { try dispatcher.skipAll(except: Array(patterns.prefix(12))) }
    }

    @Test("invalid patterns are errors naming the column")
    func invalidPatterns() {
        let cases: [(String, Int, String)] = [
            ("", 1, "a pattern cannot be empty"),
            ("a//", 4, "a step name or '*' was expected, not the end"),
            ("/", 2, "a step name or '*' was expected, not the end"),
            ("a///b", 4, "a step name or '*' was expected, not '/'"),
            ("a b", 2, "'/' or '[' was expected after a step, not ' '"),
            ("a[b]", 3, "'@' and an attribute name were expected after '['"),
            ("a[@]", 4, "an attribute name was expected, not ']'"),
            ("a[@k=v]", 6, "a quoted value was expected after '='"),
            ("a[@k='v]", 6, "the value has no closing '"),
            ("a[@k='v'", 9, "']' was expected to close the '[' at column 2"),
            ("a*", 2, "'/' or '[' was expected after a step, not '*'"),
            ("@a", 1, "a step name or '*' was expected, not '@'"),
            // XPath written by habit would never match: an error that says what to do instead.
            ("title/text()", 11, "'(' is not part of a name: patterns name elements and have no functions such as text() or node(); an element's text is read from the element itself"),
            ("item|entry", 5, "'|' does not join patterns: register a handler for each pattern"),
            ("item,entry", 5, "',' is not part of a name: register a handler for each pattern"),
            ("a[@k(]", 5, "'(' is not part of a name: patterns name elements and have no functions such as text() or node(); an element's text is read from the element itself"),
            ("a/(b)", 3, "'(' is not part of a name: patterns name elements and have no functions such as text() or node(); an element's text is read from the element itself"),
        ]
        for (text, column, message) in cases {
            let error = #expect(throws: XMLPatternError.self, "\(text)") { try ElementPattern(text) }
            #expect(error?.column == column, "\(text)")
            #expect(error?.message == message, "\(text)")
        }
        let text = "a//"
        let error = #expect(throws: XMLPatternError.self) { try ElementPattern(text) }
        #expect(error?.description == "invalid pattern \"a//\" at column 4: a step name or '*' was expected, not the end")
    }

    @Test("patterns print canonically; equal patterns share one route")
    func canonicalPatterns() throws {
        // A literal argument is a literal pattern (checked when created), like `"//a/b" as ElementPattern`.
        #expect(ElementPattern("//a/b").description == "a/b")
        #expect(ElementPattern("/a//*[@k=\"it's\"]").description == "/a//*[@k=\"it's\"]")
        #expect(ElementPattern("//a") == ElementPattern("a"))
        let text = "//a/b"
        #expect(try ElementPattern(text) == ElementPattern("a/b"))
        #expect(ElementPattern.any.description == "*")
        let seen = try dispatchLog("<a/>") { dispatcher, log in
            dispatcher.onStart("a") { _ in log("1") }
            dispatcher.onStart("*") { _ in log("*") }
            dispatcher.onStart("//a") { _ in log("2") }
        }
        #expect(seen == ["1", "2", "*"])
    }

    @Test("deep // patterns place each segment at the nearest fitting ancestor")
    func descendantSegments() throws {
        let document = "<a><b><x><b><c><d><b><c><e/></c></b></d></c></b></x></b></a>"
        let cases: [(ElementPattern, Bool)] = [
            ("a//b/c//e", true),
            ("/a/b//b/c//b/c/e", true),
            ("/a/b/c//e", false),
            ("/a//x//d//e", true),
            ("/b//e", false),
            ("a//c/d//c//e", true),
            ("a//c/d/c/e", false),
            ("b//b//b//e", true),
            ("b//b//b//b//e", false),
        ]
        for (pattern, expected) in cases {
            let seen = try dispatchLog(document) { dispatcher, log in dispatcher.onStart(pattern) { _ in log("e") } }
            #expect(seen == (expected ? ["e"] : []), "\(pattern)")
        }
    }
}

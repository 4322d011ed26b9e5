import Foundation
import SAXDispatch
import Testing

/// The code of RoutingAndPatterns.md, verbatim.
@Suite("Article: Routing and patterns")
struct RoutingAndPatternsArticleTests {
    /// The zoo with junk of the skipping section, shared by its two blocks.
    static let zoo = """
        <zoo>
          <animal><kind>cat</kind><junk><name>decoy</name></junk><name>Tom</name></animal>
          <animal><kind>dog</kind><junk>lots of text</junk><name>Rex</name></animal>
        </zoo>
        """

    @Test("each pattern matches what the article says")
    func patternForms() throws {
        let document = """
            <map>
              <border type="internal"><path>a</path></border>
              <border type="external"><segment><path>b</path></segment></border>
              <path>c</path>
              <region><border><path>d</path></border></region>
            </map>
            """
        let patterns: [ElementPattern] = [
            "path", "border/path", "/map/border/path", "border//path",
            "segment/*", "border[@type]/path", "border[@type='external']//path",
        ]
        var found: [String: [String]] = [:]
        for pattern in patterns {
            var dispatcher = Dispatcher()
            dispatcher.onEnd(pattern) { _, text in found[pattern.description, default: []].append(text) }
            try dispatcher.parse(.string(document))
        }
        // found["path"] == ["a", "b", "c", "d"]
        // found["border/path"] == ["a", "d"]
        // found["/map/border/path"] == ["a"]
        // found["border//path"] == ["a", "b", "d"]
        // found["segment/*"] == ["b"]
        // found["border[@type]/path"] == ["a"]
        // found["border[@type='external']//path"] == ["b"]

        #expect(found == [
            "path": ["a", "b", "c", "d"],
            "border/path": ["a", "d"],
            "/map/border/path": ["a"],
            "border//path": ["a", "b", "d"],
            "segment/*": ["b"],
            "border[@type]/path": ["a"],
            "border[@type='external']//path": ["b"],
        ])
    }

    @Test("a pattern from text throws the error the article shows")
    func patternFromText() throws {
        let userText = "animal[@type=cat]"
        var message = ""
        do {
            let pattern = try ElementPattern(userText)
            var dispatcher = Dispatcher()
            dispatcher.onStart(pattern) { _ in }
        } catch {
            message = error.description
        }

        let rendered = try DocumentationCatalog.textBlocks(of: "RoutingAndPatterns.md")
        #expect(rendered.first == message)
        #expect(message == #"invalid pattern "animal[@type=cat]" at column 14: a quoted value was expected after '='"#)

        // The prose: a leading "//" is the same as none, and init(name:) matches a name exactly.
        let text = "//a/b"
        #expect(try ElementPattern(text) == ElementPattern("a/b"))
        #expect(ElementPattern(name: "a/b").description == "a/b")

        // The prose: run-time text never traps; patterns and field paths from text throw.
        let badPattern = "a//", badPath = "/zoo/name"
        let patternError = #expect(throws: XMLPatternError.self) { try ElementPattern(badPattern) }
        #expect(patternError?.column == 4)
        #expect(throws: XMLPatternError.self) { try RecordFieldPath(badPath) }
        let prose = try DocumentationCatalog.text(of: "RoutingAndPatterns.md")
        #expect(!prose.contains("regular expression"))
    }

    @Test("all matching handlers run, most specific first; catch-alls only where none matched")
    func precedence() throws {
        var order: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("path") { _ in order.append("path") }
        dispatcher.onStart("border/path") { _ in order.append("border/path") }
        dispatcher.onStart("/map/border/path") { _ in order.append("/map/border/path") }
        dispatcher.onStart("border[@type]/path") { _ in order.append("border[@type]/path") }
        dispatcher.onAnyStart { element in order.append("any \(element.name)") }
        try dispatcher.parse(.string(#"<map><border type="internal"><path/></border><note/></map>"#))
        // order == ["any map", "any border",
        //           "/map/border/path", "border[@type]/path", "border/path", "path",
        //           "any note"]

        #expect(order == [
            "any map", "any border",
            "/map/border/path", "border[@type]/path", "border/path", "path",
            "any note",
        ])
    }

    @Test("stopHandlerChain keeps the less specific handlers from running")
    func stopHandlerChain() throws {
        var counted: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("internal/path") { element, text in
            counted.append("internal \(text)")
            element.stopHandlerChain()                 // the plain `path` handler does not see it
        }
        dispatcher.onEnd("path") { _, text in counted.append("other \(text)") }
        try dispatcher.parse(.string("<map><internal><path>a</path></internal><path>b</path></map>"))
        // counted == ["internal a", "other b"]

        #expect(counted == ["internal a", "other b"])
    }

    @Test("a start handler skips its subtree; the element's end handler still runs with empty text")
    func skipSubtree() throws {
        let document = """
            <zoo>
              <animal><kind>cat</kind><junk><name>decoy</name></junk><name>Tom</name></animal>
              <animal><kind>dog</kind><junk>lots of text</junk><name>Rex</name></animal>
            </zoo>
            """
        var names: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("junk") { element in element.skipSubtree() }
        dispatcher.onEnd("name") { _, text in names.append(text) }
        try dispatcher.parse(.string(document))
        // names == ["Tom", "Rex"]: the decoy inside <junk> reaches no handler

        #expect(document == Self.zoo)
        #expect(names == ["Tom", "Rex"])

        var junkTexts: [String] = []
        dispatcher.onEnd("junk", whitespace: .preserve) { _, text in junkTexts.append(text) }
        try dispatcher.parse(.string(document))
        #expect(junkTexts == ["", ""])
    }

    @Test("skipAll(except:) dispatches the kept subtrees and the elements on the way to them")
    func skipAll() throws {
        let document = Self.zoo
        var seen: [String] = []
        var dispatcher = Dispatcher()
        try dispatcher.skipAll(except: "/zoo/animal/kind", "/zoo/animal/name")
        dispatcher.onAnyStart { element in seen.append(element.name) }
        try dispatcher.parse(.string(document))
        // seen == ["zoo", "animal", "kind", "name", "animal", "kind", "name"]

        #expect(seen == ["zoo", "animal", "kind", "name", "animal", "kind", "name"])

        // The prose: '.' and more than 64 steps are errors.
        var other = Dispatcher()
        #expect(throws: XMLPatternError.self) { try other.skipAll(except: .mountPoint) }
        let long = try (0..<13).map { try ElementPattern("/a/b/c/d/e\($0)") }
        #expect(throws: XMLPatternError.self) { try other.skipAll(except: long) }
    }
}

import Foundation
import SAXDispatch
import Testing

/// The code of HandlersAndAncestors.md, verbatim.
@Suite("Article: Handlers and ancestors")
struct HandlersAndAncestorsArticleTests {
    /// The map document the article's later blocks parse (declared in its ancestor-attributes block).
    static let map = """
        <map>
          <border type="internal"><segment><path>A1 A2</path></segment></border>
          <border type="external"><path>B1</path></border>
          <path>C1</path>
        </map>
        """

    @Test("the element context: attributes, position, depth, path and parent")
    func elementContext() throws {
        let document = """
            <zoo>
              <animal id="a1"><kind>cat</kind><name>grumpy</name></animal>
              <animal id="a2"><kind>dog</kind><name>doge</name></animal>
            </zoo>
            """
        var log: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("animal") { element in
            let id = element.attributes["id"] ?? "?"               // attributes: start handlers only
            log.append("\(id) at \(element.line):\(element.column), depth \(element.depth)")
        }
        dispatcher.onEnd("name") { element, text in
            log.append("\(element.path) = \(text), parent \(element.ancestor(at: 1) ?? "-")")
        }
        try dispatcher.parse(.string(document))
        // log[0] == "a1 at 2:3, depth 2"
        // log[1] == "zoo/animal/name = grumpy, parent animal"

        #expect(log == [
            "a1 at 2:3, depth 2", "zoo/animal/name = grumpy, parent animal",
            "a2 at 3:3, depth 2", "zoo/animal/name = doge, parent animal",
        ])
    }

    @Test("attributes: lookup, DTD defaults, isSpecified, count")
    func attributes() throws {
        let document = """
            <!DOCTYPE catalog [<!ATTLIST book lang CDATA "en">]>
            <catalog>
              <book id="b1" title="Fish &amp; Chips"/>
              <book id="b2" lang="fr" title="Le Petit Prince"/>
            </catalog>
            """
        var books: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("book") { element in
            let attributes = element.attributes
            let title = attributes["title"] ?? ""
            let lang = attributes["lang"] ?? "?"
            let origin = attributes.isSpecified("lang") ? "written" : "defaulted"
            books.append("\(title): \(lang), \(origin), \(attributes.count) attributes")
        }
        try dispatcher.parse(.string(document))
        // books == ["Fish & Chips: en, defaulted, 3 attributes",
        //           "Le Petit Prince: fr, written, 3 attributes"]

        #expect(books == ["Fish & Chips: en, defaulted, 3 attributes", "Le Petit Prince: fr, written, 3 attributes"])

        // What the prose says about iteration: written attributes first, defaults marked.
        var first: [ElementAttributes.Attribute] = []
        var iterating = Dispatcher()
        iterating.onStart("book") { element in
            if first.isEmpty { first = Array(element.attributes) }
        }
        try iterating.parse(.string(document))
        #expect(first == [
            .init(name: "id", value: "b1"), .init(name: "title", value: "Fish & Chips"),
            .init(name: "lang", value: "en", isDefaulted: true),
        ])
    }

    @Test("attributes of ancestors, declared with retainAttributes")
    func ancestorAttributes() throws {
        let document = """
            <map>
              <border type="internal"><segment><path>A1 A2</path></segment></border>
              <border type="external"><path>B1</path></border>
              <path>C1</path>
            </map>
            """
        var paths: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.retainAttributes("type", of: "border")
        dispatcher.onEnd("path") { element, text in
            let kind = element.ancestorAttribute("type", of: "border") ?? "none"
            paths.append("\(kind): \(text)")
        }
        try dispatcher.parse(.string(document))
        // paths == ["internal: A1 A2", "external: B1", "none: C1"]

        #expect(document == Self.map)
        #expect(paths == ["internal: A1 A2", "external: B1", "none: C1"])
    }

    @Test("a struct handler object parses itself and keeps its state")
    func structHandlerObject() throws {
        let document = Self.map
        struct BorderReader: ElementHandlers {
            var paths: [String: [String]] = [:]
            private var kind = ""

            static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
                handlers.onStart("border") { reader, element in reader.kind = element.attributes["type"] ?? "" }
                handlers.onEnd("border//path") { $0.file($2, $1) }
            }

            mutating func file(_ path: String, _ element: ElementContext) {
                paths[kind, default: []].append(path)
            }
        }

        var reader = BorderReader()
        try reader.parse(.string(document))
        // reader.paths == ["internal": ["A1 A2"], "external": ["B1"]]

        #expect(reader.paths == ["internal": ["A1 A2"], "external": ["B1"]])
    }

    @Test("a class handler object becomes a dispatcher")
    func classHandlerObject() throws {
        let document = Self.map
        final class PathCounter: ElementHandlers {
            var total = 0

            static func registerHandlers(_ handlers: inout HandlerRegistry<PathCounter>) {
                handlers.onEnd("path", PathCounter.path)
            }

            func path(_ element: ElementContext, _ text: String) {
                total += 1
            }
        }

        let counter = PathCounter()
        try Dispatcher(handling: counter).parse(.string(document))
        // counter.total == 3

        #expect(counter.total == 3)
    }

    @Test("one handler set mounted at two points")
    func handlerSets() throws {
        struct User: Equatable { var id = "", name = "" }

        /// Handlers for a user-like element, wherever it is mounted.
        func userHandlers(_ found: @escaping (User) -> Void) -> Dispatcher {
            var user = User()
            var set = Dispatcher()
            set.onStart(.mountPoint) { element in user = User(id: element.attributes["id"] ?? "") }
            set.onEnd("/name") { _, text in user.name = text }
            set.onEnd(.mountPoint) { _ in found(user) }
            return set
        }

        var authors: [User] = [], commenters: [User] = []
        var dispatcher = Dispatcher()
        dispatcher.mount(userHandlers { authors.append($0) }, at: "post/author")
        dispatcher.mount(userHandlers { commenters.append($0) }, at: "comment/author")
        try dispatcher.parse(.string("""
            <post><author id="1"><name>Ann</name></author>
              <comment><author id="2"><name>Bo</name><pet><name>Rex</name></pet></author></comment>
            </post>
            """))
        // authors == [User(id: "1", name: "Ann")], commenters == [User(id: "2", name: "Bo")]

        #expect(authors == [User(id: "1", name: "Ann")])
        #expect(commenters == [User(id: "2", name: "Bo")])

        // The prose: a set tested alone, mounted at the root element's name.
        var alone: [User] = []
        var test = Dispatcher()
        test.mount(userHandlers { alone.append($0) }, at: "/user")
        try test.parse(.string(#"<user id="9"><name>Cy</name></user>"#))
        #expect(alone == [User(id: "9", name: "Cy")])
    }

    @Test("stopParsing ends the parse early with .stopped")
    func stopping() throws {
        let document = Self.map
        var firstTwo: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("path") { element, text in
            firstTwo.append(text)
            if firstTwo.count == 2 { element.stopParsing() }
        }
        let outcome = try dispatcher.parse(.string(document))
        // outcome == .stopped, firstTwo == ["A1 A2", "B1"]

        #expect(outcome == .stopped)
        #expect(firstTwo == ["A1 A2", "B1"])
    }

    @Test("a handler's error comes back as a HandlerError naming the element")
    func handlerError() throws {
        struct EmptyPath: Error {}
        var problem = ""
        var dispatcher = Dispatcher()
        dispatcher.onEnd("path") { _, text in
            if text.isEmpty { throw EmptyPath() }
        }
        do {
            try dispatcher.parse(.string("<map>\n  <path>A1</path>\n  <path/>\n</map>"))
        } catch let error as HandlerError where error.underlying is EmptyPath {
            problem = "\(error.event) handler of \(error.elementPath) at \(error.line):\(error.column)"
        }
        // problem == "end handler of map/path at 3:3"

        #expect(problem == "end handler of map/path at 3:3")
    }

    @Test("a push parser takes the document in pieces")
    func pushParser() throws {
        var kinds: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("kind") { _, text in kinds.append(text) }

        let parser = PushParser(dispatcher, source: "upload.xml")
        try parser.feed("<zoo><animal><kind>c")                 // pieces of any size, split anywhere
        try parser.feed("at</kind></animal><animal><kind>dog</kind>")
        try parser.feed("</animal></zoo>")
        try parser.finish()                                    // checks that the document is complete
        // kinds == ["cat", "dog"]

        #expect(kinds == ["cat", "dog"])
    }
}

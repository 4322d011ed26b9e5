import SAXDispatch
import Testing

@Suite("Handler sets mounted at patterns")
struct MountingTests {
    static let blog = """
        <blog>
          <post id="p1">
            <author id="u1"><name>Ann</name><address><city>Oslo</city></address></author>
            <media kind="image"><url>a.png</url></media>
            <comments>
              <comment><author id="u2"><name>Bo</name></author><text>hi</text></comment>
              <comment><author id="u3"><name>Cy</name><extra><name>nick</name></extra></author></comment>
            </comments>
          </post>
          <author id="u9"><name>outside</name></author>
        </blog>
        """

    /// A handler set for a user, written without knowing where users occur.
    static func userSet(_ log: Log, tag: String) -> Dispatcher {
        var set = Dispatcher()
        set.onStart(.mountPoint) { log("\(tag) begin \($0.name) \($0.attributes["id"] ?? "-")") }
        set.onEnd("/name") { _, text in log("\(tag) name \(text)") }
        set.onEnd("city") { _, text in log("\(tag) city \(text)") }
        set.onEnd(.mountPoint) { _ in log("\(tag) end") }
        return set
    }

    @Test("the same set mounted at two points sees only its elements, relative to each mount")
    func sameSetTwice() throws {
        let lines = try dispatchLog(Self.blog) { dispatcher, log in
            dispatcher.mount(Self.userSet(log, tag: "poster"), at: "post/author")
            dispatcher.mount(Self.userSet(log, tag: "commenter"), at: "comment/author")
        }
        #expect(
            lines == [
                "poster begin author u1", "poster name Ann", "poster city Oslo", "poster end",
                "commenter begin author u2", "commenter name Bo", "commenter end",
                // `/name` is a child of the mount point: the nickname in <extra> is not it.
                "commenter begin author u3", "commenter name Cy", "commenter end",
            ])
    }

    @Test("a set tested on its own, mounted at the root, behaves the same")
    func setAlone() throws {
        let lines = try dispatchLog("<user id='u7'><name>Dee</name><city>Rome</city></user>") { dispatcher, log in
            dispatcher.mount(Self.userSet(log, tag: "user"), at: "/user")
        }
        #expect(lines == ["user begin user u7", "user name Dee", "user city Rome", "user end"])
    }

    @Test("nested mounts compose: a post set that mounts the user and media sets")
    func nestedMounts() throws {
        let lines = try dispatchLog(Self.blog) { dispatcher, log in
            var media = Dispatcher()
            media.onEnd("/url") { element, text in log("media \(element.path) \(text)") }
            var post = Dispatcher()
            post.onStart(.mountPoint) { log("post \($0.attributes["id"] ?? "")") }
            post.mount(Self.userSet(log, tag: "author"), at: "/author")
            post.mount(Self.userSet(log, tag: "commenter"), at: "comments/comment/author")
            post.mount(media, at: "/media[@kind='image']")
            dispatcher.mount(post, at: "/blog/post")
        }
        #expect(
            lines == [
                "post p1",
                "author begin author u1", "author name Ann", "author city Oslo", "author end",
                "media blog/post/media/url a.png",
                "commenter begin author u2", "commenter name Bo", "commenter end",
                "commenter begin author u3", "commenter name Cy", "commenter end",
            ])
    }

    @Test("mounted patterns take their place in the precedence order, and can stop the chain")
    func precedenceAcrossSets() throws {
        let lines = try dispatchLog(Self.blog) { dispatcher, log in
            var set = Dispatcher()
            set.onEnd("name") { _, text in log("set name \(text)") }
            dispatcher.onEnd("name") { _, text in log("top name \(text)") }
            dispatcher.mount(set, at: "comment/author")
            dispatcher.onEnd("extra/name") { element, text in
                log("top extra \(text)")
                element.stopHandlerChain()
            }
        }
        // As mounted, the set's `name` is `comment/author//name` (3 names): it runs before
        // `extra/name` (2), which runs before `name` (1) and stops the chain.
        #expect(
            lines == [
                "top name Ann", "set name Bo", "top name Bo", "set name Cy", "top name Cy",
                "set name nick", "top extra nick", "top name outside",
            ])
    }

    @Test("a set's catch-all runs below its mount point where none of the set's patterns matched")
    func catchAllOfASet() throws {
        let lines = try dispatchLog(Self.blog) { dispatcher, log in
            var set = Dispatcher()
            set.onEnd("/name") { _, text in log("name \(text)") }
            set.onAnyStart { log("other \($0.name)") }
            dispatcher.mount(set, at: "comment/author")
            dispatcher.onAnyStart { element in
                if element.depth <= 2 { log("top other \(element.name)") }
            }
        }
        #expect(
            lines == [
                "top other blog", "top other post", "name Bo", "name Cy", "other extra", "other name",
                "top other author",
            ])
    }

    @Test("an inner set's catch-all keeps the outer set's from running")
    func nestedCatchAlls() throws {
        let lines = try dispatchLog(Self.blog) { dispatcher, log in
            var inner = Dispatcher()
            inner.onAnyStart { log("inner \($0.name)") }
            var outer = Dispatcher()
            outer.onStart("media") { _ in log("outer media") }
            outer.onAnyStart { element in log("outer \(element.name)") }
            outer.mount(inner, at: "comment/author")
            dispatcher.mount(outer, at: "/blog/post")
        }
        #expect(
            lines == [
                "outer author", "outer name", "outer address", "outer city", "outer media", "outer url",
                "outer comments", "outer comment", "outer author", "inner name", "outer text",
                "outer comment", "outer author", "inner name", "inner extra", "inner name",
            ])
    }

    @Test("whitespace: a set's handlers keep the set's policy")
    func whitespaceOfASet() throws {
        let document = "<r><a><t>  x  y </t></a><t> z </t></r>"
        let lines = try dispatchLog(document) { dispatcher, log in
            dispatcher.whitespace = .preserve
            var set = Dispatcher()
            set.whitespace = .collapse
            set.onEnd("t") { _, text in log("set [\(text)]") }
            dispatcher.mount(set, at: "a")
            dispatcher.onEnd("/r/t") { _, text in log("top [\(text)]") }
        }
        #expect(lines == ["set [x y]", "top [ z ]"])
    }

    @Test("skipping inside a mounted set; `.` alone never fires")
    func skippingInASet() throws {
        let lines = try dispatchLog(Self.blog) { dispatcher, log in
            var set = Dispatcher()
            set.onStart(.mountPoint) { element in
                if element.attributes["id"] == "u3" { element.skipSubtree() }
            }
            set.onEnd("name") { _, text in log("name \(text)") }
            set.onEnd(.mountPoint) { element in log("end \(element.name)") }
            dispatcher.mount(set, at: "comment/author")
            dispatcher.onStart(.mountPoint) { _ in log("never") }
        }
        #expect(lines == ["name Bo", "end author", "end author"])
    }

    @Test("patterns print as mounted")
    func mountedPatterns() throws {
        #expect(ElementPattern.mountPoint.description == ".")
        let (dot, dotA, aDot) = (".", "./a", "a/.")
        #expect(try ElementPattern(dot) == .mountPoint)
        #expect(throws: XMLPatternError.self) { try ElementPattern(dotA) }
        #expect(throws: XMLPatternError.self) { try ElementPattern(aDot) }
        var kept = Dispatcher()
        #expect(throws: XMLPatternError.self) { try kept.skipAll(except: ".") }
    }
}

import Testing

@testable import SAXDispatch

@Suite("Matches kept per path of names: repeated paths, attribute tests, more paths than are kept")
struct PathMatchCacheTests {
    @Test("a path is numbered once; a full cache leaves new paths and the paths below them untracked")
    func numbering() {
        var cache = PathMatchCache(maximumPaths: 4)
        let root = cache.path(parent: PathMatchCache.document, name: 7)
        let child = cache.path(parent: root, name: 3)
        #expect(root == 1 && child == 2)
        #expect(cache.path(parent: PathMatchCache.document, name: 7) == root)
        #expect(cache.path(parent: root, name: 3) == child)
        // The same name under another parent is another path.
        #expect(cache.path(parent: child, name: 7) == 3)
        #expect(cache.path(parent: child, name: 8) == PathMatchCache.untracked)
        #expect(cache.path(parent: PathMatchCache.untracked, name: 3) == PathMatchCache.untracked)
        #expect(cache.path(parent: child, name: 7) == 3)
    }

    @Test("numbers survive the table growing, and the matches kept for a path come back as they were")
    func growthAndMatches() {
        var cache = PathMatchCache()
        var numbers: [Int32] = []
        for name in Int32(0)..<500 { numbers.append(cache.path(parent: PathMatchCache.document, name: name)) }
        #expect(numbers == Array(1...500))
        for name in Int32(0)..<500 { #expect(cache.path(parent: PathMatchCache.document, name: name) == name + 1) }

        var stack = MatchStack()
        #expect(cache.pushMatches(of: 5, onto: &stack) == nil)
        [Int32(4), 9].withUnsafeBufferPointer { cache.remember(5, flags: [.start, .end], entries: $0) }
        // Only the first element's matches are kept.
        [Int32(1)].withUnsafeBufferPointer { cache.remember(5, flags: [.start], entries: $0) }
        stack.push(42)
        #expect(cache.pushMatches(of: 5, onto: &stack) == [.start, .end])
        #expect(Array(stack.entries(from: 0, count: Int32(stack.count))) == [42, 4, 9])
        #expect(cache.pushMatches(of: PathMatchCache.untracked, onto: &stack) == nil)
        #expect(stack.count == 3)
    }

    static let borders = """
        <border type="internal"><path>a</path><name>inner</name></border>
        <border type="external"><segment><path>b</path></segment></border>
        <path>c</path>
        <region><border><path>d</path></border></region>
        """

    @Test("every pattern form matches the same on each repetition of a path, attribute tests included")
    func repeatedPaths() throws {
        // The same paths three times over, with the attributes that tests read changing between them.
        let document =
            "<map>" + Self.borders + Self.borders.replacingOccurrences(of: "internal", with: "external")
            + Self.borders + "</map>"
        let cases: [(ElementPattern, [String])] = [
            ("border/path", ["a", "d"]),
            ("/map/border/path", ["a"]),
            ("border//path", ["a", "b", "d"]),
            ("/map/*/path", ["a"]),
            ("segment/*", ["b"]),
            ("border[@type='external']//path", ["b"]),
            ("border[@type=\"internal\"]/*", ["a", "inner"]),
            ("//region//path", ["d"]),
        ]
        for (pattern, once) in cases {
            let texts = try dispatchLog(document) { dispatcher, log in
                dispatcher.onEnd(pattern) { _, text in log(text) }
            }
            var expected = once + once + once
            if pattern == "border[@type='external']//path" { expected = ["b", "a", "b", "b"] }
            if pattern == "border[@type=\"internal\"]/*" { expected = ["a", "inner", "a", "inner"] }
            #expect(texts == expected, "\(pattern)")
        }
    }

    static let tags = """
        <node id="1"><tag n="1" k="highway" v="x"/><tag n="2" k="name" v="x"/><tag n="3" k="highway"/>\
        <tag n="4" v="x"/><tag n="5"/></node>\
        <node id="2"><tag n="6" k="highway" v="y"/><tag n="7" k="name"/><tag n="8" k="highway" v="x"/></node>\
        <way><tag n="9" k="highway" v="x"/><tag n="10" k="name"/></way>
        """

    @Test(
        "patterns testing their own element's attributes: matches kept per path and test results, each combination apart",
        arguments: [false, true])
    func ownAttributeTests(withAncestorTest: Bool) throws {
        // Twice over, so that the second time every path and combination of results was seen.
        let document = "<osm>" + Self.tags + Self.tags + "</osm>"
        let patterns: [ElementPattern] =
            ["/osm/node/tag[@k='highway']", "tag[@v='x']", "way/tag[@k='highway'][@v]", "tag[@k]"]
            // A test above the last step: names and the element's own tests no longer decide the `tag` bucket.
            + (withAncestorTest ? ["node[@id='2']/tag"] : [])
        let hits = try dispatchLog(document) { dispatcher, log in
            for (index, pattern) in patterns.enumerated() {
                dispatcher.onStart(pattern) { element in log("\(index) \(element.attributes["n"] ?? "?")") }
            }
        }
        func numbers(_ index: Int) -> [String] {
            hits.filter { $0.hasPrefix("\(index) ") }.map { String($0.dropFirst(2)) }
        }
        let once = [["1", "3", "6", "8"], ["1", "2", "4", "8", "9"], ["9"], ["1", "2", "3", "6", "7", "8", "9", "10"]]
            + (withAncestorTest ? [["6", "7", "8"]] : [])
        for (index, expected) in once.enumerated() {
            #expect(numbers(index) == expected + expected, "\(patterns[index])")
        }
    }

    @Test("handlers that mix anchored, floating and catch-all patterns run in the same order on every repetition")
    func repeatedPrecedence() throws {
        let record = "<item><id>1</id><tag k='x'/><tag/></item>"
        let document = "<feed>" + String(repeating: record, count: 4) + "</feed>"
        let seen = try dispatchLog(document) { dispatcher, log in
            dispatcher.onStart("/feed/item/tag") { _ in log("anchored tag") }
            dispatcher.onStart("item//tag") { _ in log("floating tag") }
            dispatcher.onStart("tag[@k]") { _ in log("tag with k") }
            dispatcher.onEnd("/feed/item/*") { element, _ in log("child \(element.name)") }
            dispatcher.onAnyStart { element in log("other \(element.name)") }
        }
        // The catch-all runs where no pattern with handlers matched (not for `id`, which
        // `/feed/item/*` matches for its end); more specific patterns run first.
        let once = [
            "other item", "child id", "anchored tag", "floating tag", "tag with k", "child tag",
            "anchored tag", "floating tag", "child tag",
        ]
        #expect(seen == ["other feed"] + Array([[String]](repeating: once, count: 4).joined()))
    }

    @Test("more distinct paths than are kept: the rest are matched each time, with the same result")
    func untrackedPaths() throws {
        let count = 5_000
        var document = "<r>"
        for index in 0..<count { document += "<e\(index)><v>\(index)</v><w><v>-</v></w></e\(index)>" }
        document += "</r>"
        var dispatcher = Dispatcher()
        var values: [String] = []
        var nested = 0
        dispatcher.onEnd("/r/*/v") { _, text in values.append(text) }
        dispatcher.onEnd("w//v") { _, _ in nested += 1 }
        try dispatcher.parse(.string(document))
        #expect(values == (0..<count).map(String.init))
        #expect(nested == count)
    }
}

import Foundation
import Testing

@testable import SAXDispatch

/// XMLRecord captures and assemblers prune what their records never read; that must never
/// hide anything from the dispatcher's other handlers (``SubtreePruning``).
@Suite("Pruning: what a record leaves out, nobody else misses")
struct SubtreePruningTests {
    struct Identified: Decodable, Equatable { let id: Int }
    struct Leaf: Decodable, Equatable { let c: String }
    struct Numbered: Decodable, Equatable { let n: Int }

    /// Text longer than the limit below, in an element no record reads.
    static let blob = String(repeating: "x", count: 1000)
    static var smallTextLimit: SafetyProfile {
        var safety = SafetyProfile.default
        safety.maximumTextBytes = 100
        return safety
    }

    @Test("a Decodable record's pruning hides nothing from another record matching inside it")
    func decodableBesideDecodable() throws {
        var ids: [Int] = []
        var leaves: [String] = []
        var dispatcher = Dispatcher()
        // Identified reads only @id, so its capture would prune <b>; Leaf needs <b>'s <c>.
        dispatcher.onDecoded(Identified.self, at: "/r/a") { ids.append($0.id) }
        dispatcher.onDecoded(Leaf.self, at: "//b") { leaves.append($0.c) }
        try dispatcher.parse(.string(#"<r><a id="1"><b><c>x</c></b></a><b><c>y</c></b><a id="2"><q><b><c>z</c></b></q></a></r>"#))
        #expect(ids == [1, 2])
        #expect(leaves == ["x", "y", "z"])
    }

    @Test("a Decodable record's pruning hides nothing from plain handlers below or at the pruned element")
    func decodableBesidePlainHandlers() throws {
        var seen: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(Identified.self, at: "/r/a") { seen.append("a=\($0.id)") }
        dispatcher.onStart("c") { element in seen.append("start \(element.name)") }
        dispatcher.onEnd("c") { _, text in seen.append("c=\(text)") }
        dispatcher.onEnd("b") { _, text in seen.append("b=\(text)") }
        dispatcher.onText("d") { _, chunk in seen.append("d+\(chunk.string)") }
        dispatcher.onEnd("/r/a/b/c") { _ in seen.append("anchored c") }
        try dispatcher.parse(.string(#"<r><a id="7"><b>t<c>x</c><d>y</d></b></a></r>"#))
        #expect(seen == ["start c", "anchored c", "c=x", "d+y", "b=t", "a=7"])
    }

    @Test("a record's field that passes through a nested record's element keeps its value")
    func fieldThroughNestedRecord() throws {
        struct Inner: Equatable { let w: String }
        struct Middle: Equatable { let inner: Inner; let z: String }
        struct Outer: Equatable { let middle: Middle; let y: String; let v: String }
        let inner = XMLRecord("b", .text("w")) { Inner(w: $0) }
        let middle = XMLRecord("a", .record("b", inner), .text("b/z")) { Middle(inner: $0, z: $1) }
        // `a/x/y` and `a/b/v` run through the nested records' elements, three levels deep.
        let outer = XMLRecord("item", .record("a", middle), .text("a/x/y"), .text("a/b/v")) {
            Outer(middle: $0, y: $1, v: $2)
        }
        let xml = """
            <feed><item><skipped>\(Self.blob)</skipped><a><b><w>1</w><z>2</z><v>3</v><no>\(Self.blob)</no></b>\
            <x><y>4</y><no>\(Self.blob)</no></x><no>\(Self.blob)</no></a></item></feed>
            """
        var models: [Outer] = []
        // A floating pattern, alone: the assembler asks to prune the four elements nothing
        // reads, and is refused, since another item could start inside any of them.
        let parser = PushParser(
            outer.dispatcherOwningDocument(safety: .default, report: { _ in }) { models.append($0) })
        try parser.feed(xml)
        try parser.finish()
        #expect(models == [Outer(middle: Middle(inner: Inner(w: "1"), z: "2"), y: "4", v: "3")])
        #expect(parser.engine.prunedSubtrees == 0)
    }

    @Test("a record's pruning never hides a record of its own pattern inside it; a capture's takes it in")
    func ownPatternBelowPrunedElement() throws {
        struct Titled: Decodable, Equatable { let title: String }
        let xml = """
            <r><item><title>a</title><sub><item><title>b</title></item></sub></item>\
            <x><item><title>c</title></item></x></r>
            """
        // Each item element is a record of its own, the one inside <sub> included, whichever
        // way the record is read: nothing may be pruned where an item could start.
        for pattern: ElementPattern in ["item", "//item", "/r//item"] {
            let record = XMLRecord(pattern, .text("title")) { $0 }
            var titles: [String] = []
            let parser = PushParser(
                record.dispatcherOwningDocument(safety: .default, report: { _ in }) { titles.append($0) })
            try parser.feed(xml)
            try parser.finish()
            #expect(titles == ["b", "a", "c"], "\(pattern)")
            #expect(parser.engine.prunedSubtrees == 0, "\(pattern)")

            titles = []
            var dispatcher = Dispatcher()
            dispatcher.onRecord(record) { titles.append($0) }
            try dispatcher.parse(.string(xml))
            #expect(titles == ["b", "a", "c"], "\(pattern)")
        }
        // A Decodable capture takes matches inside its element as part of it: <sub> is pruned.
        var titles: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(Titled.self, at: "item") { titles.append($0.title) }
        let parser = PushParser(dispatcher)
        try parser.feed(xml)
        try parser.finish()
        #expect(titles == ["a", "c"])
        #expect(parser.engine.prunedSubtrees == 1)
    }

    @Test("an unread child's text is never gathered when pruning is granted: the text limit does not apply to it")
    func grantedPruningGathersNothing() throws {
        let xml = "<r><item><e/><n>1</n><blob>\(Self.blob)<e/></blob><e/></item><other><item><n>2</n></item></other></r>"
        // Alone, through the owning dispatcher.
        var numbers: [Int] = []
        try XMLRecordDecoder().forEach(Numbered.self, at: "item", in: .string(xml), safety: Self.smallTextLimit) {
            numbers.append($0.n)
        }
        #expect(numbers == [1, 2])

        // Next to a record at a disjoint anchored path and the dispatcher's own catch-all (which
        // never runs inside a record's element): neither could see anything below <blob>.
        numbers = []
        var outside: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.safety = Self.smallTextLimit
        dispatcher.onDecoded(Numbered.self, at: "/r/item") { numbers.append($0.n) }
        dispatcher.onDecoded(Numbered.self, at: "/r/other/item") { numbers.append(-$0.n) }
        dispatcher.onAnyStart { element in outside.append(element.name) }
        let parser = PushParser(dispatcher)
        try parser.feed(xml)
        try parser.finish()
        #expect(parser.engine.prunedSubtrees == 3)
        #expect(numbers == [1, -2])
        #expect(outside == ["r", "other"])

        // Typed records alone, at a floating pattern (the subtree filter cannot serve it).
        let record = XMLRecord("item", .value("n", as: Int.self)) { $0 }
        numbers = []
        try record.forEach(in: .string(xml), safety: Self.smallTextLimit) { numbers.append($0) }
        #expect(numbers == [1, 2])
    }

    @Test("a handler that takes the pruned element's text, or could match below it, keeps it unpruned")
    func refusedPruningDeliversEverything() throws {
        let xml = "<r><item><n>1</n><blob>\(String(repeating: "y", count: 50))<part>p</part></blob></item></r>"
        for pattern: ElementPattern in ["blob", "/r/item/blob", "//blob", "/r/*/blob"] {
            var texts: [String] = []
            var numbers: [Int] = []
            var dispatcher = Dispatcher()
            dispatcher.onDecoded(Numbered.self, at: "/r/item") { numbers.append($0.n) }
            dispatcher.onEnd(pattern) { _, text in texts.append(text.count.description) }
            dispatcher.onEnd(try ElementPattern("\(pattern)/part")) { _, text in texts.append(text) }
            let parser = PushParser(dispatcher)
            try parser.feed(xml)
            try parser.finish()
            #expect(parser.engine.prunedSubtrees == 0, "\(pattern)")
            #expect(numbers == [1], "\(pattern)")
            #expect(texts == ["p", "50"], "\(pattern)")
        }
    }

    @Test(
        "a pruned element's own handlers outside the record still run, empty or not, in any encoding",
        arguments: ["UTF-8", "UTF-16"])
    func handlersAtThePrunedElement(encoding: String) throws {
        let xml = """
            <?xml version="1.0" encoding="\(encoding)"?>\
            <r><item><n>1</n><blob/><blob>\(Self.blob)<x/></blob><blob a="/"><x/></blob></item>
            <item><n>2</n><blob/></item></r>
            """
        let bytes: [UInt8] =
            encoding == "UTF-8"
            ? Array(xml.utf8) : [0xFF, 0xFE] + xml.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        var seen: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.safety = Self.smallTextLimit
        dispatcher.onDecoded(Numbered.self, at: "/r/item") { seen.append("n=\($0.n)") }
        // Anchored, and neither taking the text nor matching below: the blobs are still pruned.
        dispatcher.onStart("/r/item/blob") { _ in seen.append("start") }
        dispatcher.onEnd("/r/item/blob") { element in seen.append("end \(element.line)") }
        let parser = PushParser(dispatcher)
        try parser.feed(bytes)
        try parser.finish()
        #expect(parser.engine.prunedSubtrees == 4)
        #expect(seen == ["start", "end 1", "start", "end 1", "start", "end 1", "n=1", "start", "end 2", "n=2"])
    }

    @Test("a root record nested in another keeps its own fields")
    func recursiveRecords() throws {
        let record = XMLRecord("item", .text("name")) { $0 }
        var names: [String] = []
        try record.forEach(
            in: .string("<list><item><name>a</name><junk>j</junk><item><name>b</name><junk/></item></item></list>")
        ) { names.append($0) }
        #expect(names == ["b", "a"])
    }
}

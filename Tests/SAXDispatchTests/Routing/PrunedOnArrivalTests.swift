import Testing

@testable import SAXDispatch

/// A record's request to prune an unread element depends on the keys of the element's path
/// alone: once granted on a path, the later elements on it are pruned on arrival, without
/// calling the record's handler (``RouteFlags/prunedOnArrival``). Each test is a case where
/// that decision, kept from an earlier element, would be stale or wrong if it were kept
/// where it must not be.
@Suite("Pruning: unread elements pruned on arrival, decided once per path")
struct PrunedOnArrivalTests {
    /// Parses `xml` with `dispatcher`, fed whole or as `splits` say, documents one after
    /// another when `concatenated`; returns the error and the pruning counts.
    static func run(
        _ dispatcher: Dispatcher, _ xml: String, concatenated: Bool = false, splits: [Int]? = nil
    ) -> (error: XMLParseError?, pruned: Int, watched: Int, onArrival: Int) {
        let parser = PushParser(dispatcher, source: nil, encoding: nil, readsConcatenatedDocuments: concatenated)
        let bytes = Array(xml.utf8)
        var error: XMLParseError?
        do {
            var offset = 0
            for size in splits ?? [bytes.count] where offset < bytes.count {
                let end = min(bytes.count, offset + size)
                try parser.feed(bytes[offset..<end])
                offset = end
            }
            if offset < bytes.count { try parser.feed(bytes[offset...]) }
            try parser.finish()
        } catch let parseError as XMLParseError {
            error = parseError
        } catch {
            Issue.record("unexpected \(error)")
        }
        return (error, parser.engine.prunedSubtrees, parser.engine.watchedSubtrees, parser.engine.prunedOnArrival)
    }

    static let repeated = """
        <r><item><n>1</n><junk><x>a</x></junk><junk/></item>\
        <item><n>2</n><junk><x><item><n>3</n><junk>b</junk></item></x></junk></item>\
        <item><n>4</n><junk>c</junk></item></r>
        """

    @Test("later elements on a pruned path are pruned on arrival, and records nested in them are still delivered")
    func repeatedPath() {
        let record = XMLRecord("item", .value("n", as: Int.self)) { $0 }
        var models: [Int] = []
        let dispatcher = record.dispatcherOwningDocument(safety: .default, report: { _ in }) { models.append($0) }
        let whole = Self.run(dispatcher, Self.repeated)
        #expect(whole.error == nil)
        #expect(models == [1, 3, 2, 4])
        // Every <junk> of a top item is watched (the nested item's is not: it is inside a
        // watched subtree), the first through the record's handler, the others on arrival.
        #expect(whole.watched == 4)
        #expect(whole.onArrival == 3)
        for size in [1, 5] {
            models = []
            let split = Self.run(dispatcher, Self.repeated, splits: Array(repeating: size, count: Self.repeated.utf8.count))
            #expect(models == [1, 3, 2, 4] && split.error == nil && split.onArrival == whole.onArrival, "chunks of \(size)")
        }
    }

    @Test("an element whose path leads to a field is read, after elements on other paths with the same parent were pruned")
    func reachablePathAfterPrunedOnes() {
        // <v> has a key of its own (a field's name); <junk> and <w> share the key of names no
        // pattern has, so their path is one path of the cache.
        let record = XMLRecord("item", .value("v/n", as: Int.self)) { $0 }
        var models: [Int] = []
        let dispatcher = record.dispatcherOwningDocument(safety: .default, report: { _ in }) { models.append($0) }
        let xml = "<r><item><junk><n>7</n></junk><v><n>1</n></v></item><item><w><n>8</n></w><v><n>2</n></v></item></r>"
        let result = Self.run(dispatcher, xml)
        #expect(models == [1, 2])
        #expect(result.onArrival == 1)
    }

    @Test("the next document of a concatenated input, whose names get the ids of other names, is decided by its own")
    func concatenatedDocuments() {
        let record = XMLRecord("item", .value("v/n", as: Int.self)) { $0 }
        var models: [Int] = []
        let dispatcher = record.dispatcherOwningDocument(safety: .default, report: { _ in }) { models.append($0) }
        // In the second document, <v> is interned under the id <junk> had in the first.
        let xml = """
            <log><item><junk><n>7</n></junk><v><n>1</n></v></item></log>
            <log><item><v><n>2</n></v><junk><n>8</n></junk></item></log>
            <log><item><junk><n>9</n></junk><v><n>3</n></v></item></log>
            """
        let result = Self.run(dispatcher, xml, concatenated: true)
        #expect(result.error == nil)
        #expect(models == [1, 2, 3])
        #expect(result.onArrival == 2)
    }

    @Test("a record at a pattern with an attribute test: what its handler asks is not kept per path")
    func attributeTestedPattern() {
        // Only items with t="1" are records: the same path holds records and elements that
        // are not, so what is unread below them is not decided by names.
        let record = XMLRecord("item[@t='1']", .value("n", as: Int.self)) { $0 }
        var models: [Int] = []
        let dispatcher = record.dispatcherOwningDocument(safety: .default, report: { _ in }) { models.append($0) }
        let xml = """
            <r><item t="1"><n>1</n><junk><item t="1"><n>2</n></item></junk></item>\
            <item t="2"><n>9</n><junk><item t="1"><n>3</n></item></junk></item>\
            <item t="1"><n>4</n><junk><item t="2"><n>8</n><item t="1"><n>5</n></item></item></junk></item></r>
            """
        let result = Self.run(dispatcher, xml)
        #expect(models == [2, 1, 3, 5, 4])
        #expect(result.onArrival == 0)
    }

    @Test("fields with attribute tests still read every element their names lead to")
    func attributeTestedFields() {
        let record = XMLRecord("node", .many("tag[@k='highway']/@v", as: String.self)) { $0 }
        var models: [[String]] = []
        let dispatcher = record.dispatcherOwningDocument(safety: .default, report: { _ in }) { models.append($0) }
        let xml = """
            <osm><node><nd ref="1"/><tag k="name" v="a"/><tag k="highway" v="b"/><nd ref="2"/></node>\
            <node><nd ref="3"/><tag k="highway" v="c"/><tag k="name" v="d"/></node></osm>
            """
        let result = Self.run(dispatcher, xml)
        #expect(models == [["b"], ["c"]])
        // The <nd>s: the first through the handler, the others on arrival.
        #expect(result.onArrival == 2)
    }

    @Test("with two record types, or another handler beside the record, nothing is pruned on arrival")
    func twoRecordTypes() throws {
        let items = XMLRecord("item", .value("n", as: Int.self)) { $0 }
        let junks = XMLRecord("junk", .optional(.text("x"))) { $0 ?? "-" }
        var numbers: [Int] = []
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onRecord(items) { numbers.append($0) }
        dispatcher.onRecord(junks) { texts.append($0) }
        let result = Self.run(dispatcher, Self.repeated)
        #expect(result.error == nil)
        #expect(numbers == [1, 3, 2, 4])
        #expect(texts == ["a", "-", "-", "", "-"])
        #expect(result.onArrival == 0)

        // A handler of the dispatcher's own at the pruned elements' path.
        var seen = 0
        var beside = items.dispatcherOwningDocument(safety: .default, report: { _ in }) { numbers.append($0) }
        beside.onStart("/r/item/junk") { _ in seen += 1 }
        numbers = []
        let besideResult = Self.run(beside, Self.repeated)
        #expect(numbers == [1, 3, 2, 4])
        #expect(seen == 4)
        #expect(besideResult.onArrival == 0)
    }

    @Test("an element pruned on arrival that breaks a limit fails as it would have through the handler")
    func limitAtAnElementPrunedOnArrival() throws {
        var safety = SafetyProfile.default
        safety.maximumDepth = 3
        let record = XMLRecord("item", .value("n", as: Int.self)) { $0 }
        let dispatcher = record.dispatcherOwningDocument(safety: safety, report: { _ in }) { _ in }
        let xml = "<r><item><n>1</n><junk/></item>\n<item><n>2</n><junk>\n  <x/></junk></item></r>"
        let result = Self.run(dispatcher, xml)
        let error = try #require(result.error)
        #expect(error.code == .depthLimitExceeded)
        #expect(error.elementPath == ["r", "item", "junk"])
        #expect(error.line == 3 && error.column == 3)
        #expect(result.onArrival == 1)

        // The same error as a dispatch of every element (a record beside the dispatcher's
        // other handlers never prunes).
        var dispatched = Dispatcher()
        dispatched.safety = safety
        dispatched.onRecord(record) { _ in }
        let unpruned = Self.run(dispatched, xml)
        #expect(unpruned.watched == 0 && unpruned.pruned == 0)
        #expect(unpruned.error == error)
    }
}

import Testing

@testable import SAXDispatch

/// A record at a floating pattern prunes what its fields cannot reach once, at the element
/// where it begins, watching it for elements that may start a record of the same pattern
/// (``SubtreePruning/Verdict/watchesMountPoint``): each test is a case where skipping the
/// subtree blind, or dispatching less of it, would change what is seen.
@Suite("Pruning: unread subtrees of floating records, watched for nested records")
struct WatchedPruningTests {
    /// Parses `xml` with `record` alone (the record parse's own dispatcher), fed as `splits`
    /// say; returns the models, the error and the pruning counts.
    static func parse<Model>(
        _ record: XMLRecord<Model>, _ xml: String, safety: SafetyProfile = .default, splits: [Int]? = nil,
        adding extra: (inout Dispatcher) -> Void = { _ in }
    ) -> (models: [Model], error: XMLParseError?, pruned: Int, watched: Int) {
        var models: [Model] = []
        var dispatcher = record.dispatcherOwningDocument(safety: safety, report: { _ in }) { models.append($0) }
        extra(&dispatcher)
        let run = PrunedOnArrivalTests.run(dispatcher, xml, splits: splits)
        return (models, run.error, run.pruned, run.watched)
    }

    static let chain = """
        <r><item><n>1</n><junk a="1"><x><x><x><item><n>2</n><junk><x/></junk></item></x></x></x><x><y/></x></junk>\
        <n2>no</n2></item><other><item><n>3</n></item></other></r>
        """

    @Test("an unread subtree is decided once, at its top, and the records nested in it are still delivered")
    func decidedOnceAtTheTop() {
        let record = XMLRecord("item", .value("n", as: Int.self)) { $0 }
        let result = Self.parse(record, Self.chain)
        #expect(result.models == [2, 1, 3])
        #expect(result.error == nil)
        // The outer item's <junk> and <n2>; the inner item is nested in it, so its <junk> is not.
        #expect(result.watched == 2)
        #expect(result.pruned == 0)
    }

    @Test("a nested record's pattern is matched against the names and attributes of the watched elements above it")
    func watchedElementsKeepTheirNamesAndTests() {
        let xml = """
            <r><box><item><n>1</n><junk><box k="a"><item><n>2</n></item></box><item><n>3</n></item>\
            <box k="b"><item><n>4</n></item></box><deep><box k="a"><w><item><n>5</n></item></w></box></deep></junk></item></box></r>
            """
        // Only an item whose parent is a box with k="a" (the outer one's box has none: it is
        // read with the other pattern below) starts a record: 2, not 3, 4 or 5.
        let tested = XMLRecord("box[@k='a']/item", .value("n", as: Int.self)) { $0 }
        #expect(Self.parse(tested, xml.replacingOccurrences(of: "<r><box>", with: "<r><box k=\"a\">")).models == [2, 1])
        let named = XMLRecord("box/item", .value("n", as: Int.self)) { $0 }
        let result = Self.parse(named, xml)
        #expect(result.models == [2, 4, 1])
        #expect(result.watched > 0)
    }

    @Test("a limit broken inside a watched subtree names the whole path, at the same place as without pruning")
    func limitsInsideTheWatchedSubtree() throws {
        let xml = "<r>\n<item><n>1</n><junk><x><x>\n  <x><x>deep</x></x></x></x></junk></item></r>"
        var safety = SafetyProfile.default
        safety.maximumDepth = 6
        let record = XMLRecord("item", .value("n", as: Int.self)) { $0 }
        let result = Self.parse(record, xml, safety: safety)
        #expect(result.watched == 1)
        let error = try #require(result.error)
        #expect(error.code == .depthLimitExceeded)
        #expect(error.elementPath == ["r", "item", "junk", "x", "x", "x"])
        #expect(error.line == 3)
        #expect(error.column == 6)

        // The same error as a dispatch of every element (a record beside the dispatcher's
        // other handlers never prunes).
        var dispatcher = Dispatcher()
        dispatcher.safety = safety
        dispatcher.onRecord(record) { _ in }
        let dispatched = #expect(throws: XMLParseError.self) { try dispatcher.parse(.string(xml)) }
        #expect(dispatched?.code == error.code && dispatched?.elementPath == error.elementPath)
        #expect(dispatched?.line == error.line && dispatched?.column == error.column)
        #expect(dispatched?.byteOffset == error.byteOffset)
    }

    @Test("the same records and errors however the input is split")
    func chunkingInvariance() {
        let record = XMLRecord("item", .value("n", as: Int.self)) { $0 }
        var safety = SafetyProfile.default
        safety.maximumDepth = 7
        for (xml, depthLimited) in [(Self.chain, false), (Self.chain, true)] {
            let profile = depthLimited ? safety : .default
            let whole = Self.parse(record, xml, safety: profile)
            #expect(whole.error == nil || depthLimited)
            let byByte = Self.parse(record, xml, safety: profile, splits: Array(repeating: 1, count: xml.utf8.count))
            #expect(byByte.models == whole.models && byByte.error == whole.error && byByte.watched == whole.watched)
            for offset in 0...xml.utf8.count {
                let split = Self.parse(record, xml, safety: profile, splits: [offset])
                #expect(split.models == whole.models && split.error == whole.error, "split at \(offset)")
                if split.models != whole.models || split.error != whole.error { break }
            }
        }
    }

    @Test("an element inside one whose inner markup another handler takes is never pruned")
    func insideACapture() {
        let record = XMLRecord("item", .value("n", as: Int.self)) { $0 }
        var markup: [String] = []
        let result = Self.parse(record, Self.chain) { dispatcher in
            dispatcher.onEnd("/r/item", content: .innerMarkup, whitespace: .preserve) { _, text in markup.append(text) }
        }
        #expect(result.models == [2, 1, 3])
        #expect(result.watched == 0 && result.pruned == 0)
        #expect(markup.first?.contains("<x><y/></x></junk>") == true, "\(markup)")
    }

    @Test("other handlers still see what they listen to: at the watched element, below it, and comments")
    func otherHandlers() {
        let record = XMLRecord("item", .value("n", as: Int.self)) { $0 }
        // At the watched element, without its text: watched, and its end handler runs.
        var seen: [String] = []
        var result = Self.parse(record, Self.chain) { dispatcher in
            dispatcher.onEnd("/r/item/junk") { element in seen.append("end \(element.name)") }
        }
        #expect(result.models == [2, 1, 3])
        #expect(result.watched == 2)
        #expect(seen == ["end junk"])

        // Below it: nothing pruned there.
        seen = []
        result = Self.parse(record, Self.chain) { dispatcher in
            dispatcher.onStart("/r/item/junk/x/y") { element in seen.append("start \(element.name)") }
        }
        #expect(result.models == [2, 1, 3])
        #expect(seen == ["start y"])

        // Comments are the dispatcher's to see wherever they are: nothing is watched.
        seen = []
        let commented = Self.chain.replacingOccurrences(of: "<y/>", with: "<y><!--c--></y>")
        result = Self.parse(record, commented) { dispatcher in dispatcher.onComment { seen.append($0) } }
        #expect(result.models == [2, 1, 3])
        #expect(seen == ["c"])
        #expect(result.watched == 0)
    }

    @Test("a nested record inside a watched subtree may skip some of its content, and the watching resumes after it")
    func skipInsideNestedRecord() {
        let record = XMLRecord("item", .value("n", as: Int.self)) { $0 }
        var starts: [String] = []
        let result = Self.parse(record, Self.chain) { dispatcher in
            dispatcher.onStart("/r/item/junk/x/x/x/item/junk") { element in
                starts.append(element.name)
                element.skipSubtree()
            }
        }
        #expect(starts == ["junk"])
        #expect(result.models == [2, 1, 3])
        // The outer item's <n2> is watched too: the first watching resumed after the inner
        // item and ended with its <junk>.
        #expect(result.watched == 2)
    }

    @Test("a stream pauses after each record, the one nested in a watched subtree included, and resumes watching")
    func streamPausesInside() async throws {
        let record = XMLRecord("item", .value("n", as: Int.self)) { $0 }
        let doubled = Self.chain.replacingOccurrences(of: "<other>", with: "<item><n>4</n><junk><x><item><n>5</n></item><x/></x></junk></item><other>")
        for size in [1, 7, doubled.utf8.count] {
            let bytes = Array(doubled.utf8)
            let chunks = stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min(bytes.count, $0 + size)]) }
            let (stream, input) = AsyncStream.makeStream(of: [UInt8].self)
            for chunk in chunks { input.yield(chunk) }
            input.finish()
            var numbers: [Int] = []
            for try await number in record.stream(from: .chunks(stream)) { numbers.append(number) }
            #expect(numbers == [2, 1, 5, 4, 3], "chunks of \(size)")
        }
    }

    struct Meta: Equatable {
        var x: String?
        var y: String?
    }

    @Test("an element that two fields' first steps both accept (as written and in any namespace) keeps both paths: neither field's element is pruned")
    func elementAcceptedByTwoFieldPaths() throws {
        let xml = "<r><item><meta><x>1</x><deep><y>2</y></deep></meta></item></r>"
        let expected = [Meta(x: "1", y: "2")]
        // Either order of the fields: the tree must not follow only the first branch.
        let written = XMLRecord("item", .optional(.text("meta/x")), .optional(.text("*:meta/deep/y"))) {
            Meta(x: $0, y: $1)
        }
        let anyNamespaceFirst = XMLRecord("item", .optional(.text("*:meta/deep/y")), .optional(.text("meta/x"))) {
            Meta(x: $1, y: $0)
        }
        for splits in [nil, [1], [5]] as [[Int]?] {
            let first = Self.parse(written, xml, splits: splits)
            #expect(first.error == nil)
            #expect(first.models == expected, "splits \(String(describing: splits))")
            let second = Self.parse(anyNamespaceFirst, xml, splits: splits)
            #expect(second.error == nil)
            #expect(second.models == expected, "splits \(String(describing: splits))")
        }
        #expect(try written.all(in: .string(xml)) == expected)
        let anchored = XMLRecord("/r/item", .optional(.text("meta/x")), .optional(.text("*:meta/deep/y"))) {
            Meta(x: $0, y: $1)
        }
        #expect(try anchored.all(in: .string(xml)) == expected)
        let nested = "<r><box><item><meta><x>1</x><deep><y>2</y></deep></meta></item></box></r>"
        #expect(try written.all(in: .string(nested)) == expected)
    }
}

import SAXDispatch
import Testing

@Suite("Handler errors, early stops and registration order")
struct HandlerControlTests {
    struct BadValue: Error, Equatable {
        var text: String
    }

    static let document = "<zoo><a>1</a><a>2</a><b>x</b><a>3</a><c/></zoo>"

    @Test("a handler's error is rethrown unchanged and nothing runs after it")
    func handlerErrorStopsEverything() {
        for chunk in [1, 4, Self.document.utf8.count] {
            var events: [String] = []
            var dispatcher = Dispatcher()
            dispatcher.onEnd("a") { _, text in
                events.append("a \(text)")
                if text == "2" { throw BadValue(text: text) }
            }
            dispatcher.onEnd("a") { _, text in events.append("second a \(text)") }
            dispatcher.onAnyStart { events.append("start \($0.name)") }
            dispatcher.onAnyEnd { events.append("end \($0.name)") }
            let parser = PushParser(dispatcher)
            let bytes = Array(Self.document.utf8)
            let error = #expect(throws: BadValue.self) {
                try parser.feed(bytes, inPiecesOf: chunk)
                try parser.finish()
            }
            #expect(error == BadValue(text: "2"))
            #expect(events == ["start zoo", "a 1", "second a 1", "a 2"], "chunk \(chunk)")
            #expect(parser.isStopped)
            // Later calls keep throwing the same error and deliver nothing.
            #expect(throws: BadValue(text: "2")) { try parser.feed("<a>4</a>") }
            #expect(throws: BadValue(text: "2")) { try parser.finish() }
            #expect(events.count == 4)
        }
    }

    @Test("errors from start, text and other handlers are rethrown too")
    func everyHandlerKindCanThrow() {
        var start = Dispatcher()
        start.onStart("b") { _ in throw BadValue(text: "start") }
        #expect(throws: BadValue(text: "start")) { try start.parse(Self.document) }

        var text = Dispatcher()
        text.onText("b") { _, chunk in throw BadValue(text: chunk.string) }
        #expect(throws: BadValue(text: "x")) { try text.parse(Self.document) }

        var instruction = Dispatcher()
        instruction.onProcessingInstruction { target, _ in throw BadValue(text: target) }
        #expect(throws: BadValue(text: "t")) { try instruction.parse("<a><?t d?></a>") }

        var comment = Dispatcher()
        comment.onComment { throw BadValue(text: $0) }
        #expect(throws: BadValue(text: " c ")) { try comment.parse("<a><!-- c --></a>") }
    }

    @Test("a handler error wins over a later well-formedness error")
    func handlerErrorBeforeMalformedTail() {
        var dispatcher = Dispatcher()
        dispatcher.onStart("a") { _ in throw BadValue(text: "first") }
        #expect(throws: BadValue(text: "first")) { try dispatcher.parse("<zoo><a></b></zoo>") }
    }

    @Test("stopParsing ends the parse early without an error")
    func stopParsing() throws {
        var seen: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("a") { element, text in
            seen.append(text)
            if text == "2" { element.stopParsing() }
        }
        dispatcher.onEnd("a") { _, text in seen.append("second \(text)") }
        dispatcher.onAnyStart { seen.append("start \($0.name)") }
        // The rest of the document is not even read: a malformed tail does not matter.
        let outcome = try dispatcher.parse(Self.document.replacingOccurrences(of: "<c/>", with: "<c></d>"))
        #expect(outcome == .stopped)
        #expect(seen == ["start zoo", "1", "second 1", "2"])

        let parser = PushParser(dispatcher)
        seen = []
        try parser.feed("<zoo><a>1</a><a>2</a>")
        #expect(parser.isStopped)
        try parser.feed("<a>3</a>")
        #expect(try parser.finish() == .stopped)
        #expect(seen == ["start zoo", "1", "second 1", "2"])
    }

    @Test("PushParser.stop between feeds")
    func stopBetweenFeeds() throws {
        var count = 0
        var dispatcher = Dispatcher()
        dispatcher.onStart("a") { _ in count += 1 }
        let parser = PushParser(dispatcher)
        try parser.feed("<zoo><a/>")
        parser.stop()
        try parser.feed("<a/><a/></zoo>")
        #expect(try parser.finish() == .stopped)
        #expect(count == 1)
    }

    @Test("several handlers for one name run in registration order")
    func registrationOrder() throws {
        var order: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("a") { _ in order.append("start 1") }
        dispatcher.onEnd("a") { _ in order.append("end 1") }
        dispatcher.onStart("a") { _ in order.append("start 2") }
        dispatcher.onEnd("a") { _, text in order.append("end 2 \(text)") }
        dispatcher.onEnd("a") { _ in order.append("end 3") }
        dispatcher.onStart("a") { _ in order.append("start 3") }
        try dispatcher.parse("<a>t</a>")
        #expect(order == ["start 1", "start 2", "start 3", "end 1", "end 2 t", "end 3"])
    }

    @Test("catch-all handlers get exactly the names that have no handler")
    func catchAll() throws {
        var named: [String] = []
        var others: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("a") { _ in named.append("a") }
        dispatcher.onStart("b") { _ in named.append("b") }
        dispatcher.onAnyStart { others.append("start \($0.name)") }
        dispatcher.onAnyEnd { others.append("end \($0.name)") }
        try dispatcher.parse(Self.document)
        #expect(named == ["a", "a", "b", "a"])
        #expect(others == ["start zoo", "start c", "end c", "end zoo"])
    }

    @Test("a dispatcher is a value: copies keep their own handlers")
    func valueSemantics() throws {
        var count = 0
        var base = Dispatcher()
        base.onStart("a") { _ in count += 1 }
        var extended = base
        extended.onStart("a") { _ in count += 100 }
        try base.parse(Self.document)
        #expect(count == 3)
        try extended.parse(Self.document)
        #expect(count == 3 + 303)
    }
}

import SAXDispatch
import Testing

@Suite("Handler errors, early stops and registration order")
struct HandlerControlTests {
    struct BadValue: Error, Equatable {
        var text: String
    }

    static let document = "<zoo><a>1</a><a>2</a><b>x</b><a>3</a><c/></zoo>"

    /// The handler error a parse threw, with the handler's own error inside.
    func handlerError(_ body: () throws -> Void) -> (HandlerError, BadValue)? {
        let error = #expect(throws: HandlerError.self) { try body() }
        guard let error else { return nil }
        let underlying = error.underlying as? BadValue
        #expect(underlying != nil, "underlying: \(error.underlying)")
        return underlying.map { (error, $0) }
    }

    @Test("a handler's error comes back wrapped with the element and its position, and nothing runs after it")
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
            let parser = PushParser(dispatcher, source: "zoo.xml")
            let bytes = Array(Self.document.utf8)
            guard
                let (error, underlying) = handlerError({
                    try parser.feed(bytes, inPiecesOf: chunk)
                    try parser.finish()
                })
            else { continue }
            #expect(underlying == BadValue(text: "2"))
            #expect(error.event == .end)
            #expect(error.elementPath == ["zoo", "a"])
            // The position of the second <a>'s start tag.
            #expect((error.line, error.column, error.byteOffset) == (1, 14, 13))
            #expect(error.description == #"zoo.xml:1:14: error: in the end handler of zoo/a: BadValue(text: "2")"#)
            #expect(events == ["start zoo", "a 1", "second a 1", "a 2"], "chunk \(chunk)")
            #expect(parser.isStopped)
            // Later calls keep throwing the same error and deliver nothing.
            for later: () throws -> Void in [{ try parser.feed("<a>4</a>") }, { try parser.finish() }] {
                #expect((handlerError(later)?.1) == BadValue(text: "2"))
            }
            #expect(events.count == 4)
        }
    }

    @Test("errors from start, text and other handlers are wrapped too, naming the kind of handler")
    func everyHandlerKindCanThrow() {
        var start = Dispatcher()
        start.onStart("b") { _ in throw BadValue(text: "start") }
        let fromStart = handlerError { try start.parse(.string(Self.document)) }
        #expect(fromStart?.1 == BadValue(text: "start"))
        #expect(fromStart?.0.description == #"<string>:1:22: error: in the start handler of zoo/b: BadValue(text: "start")"#)

        var text = Dispatcher()
        text.onText("b") { _, chunk in throw BadValue(text: chunk.string) }
        let fromText = handlerError { try text.parse(.string(Self.document)) }
        #expect(fromText?.1 == BadValue(text: "x"))
        #expect(fromText.map { ($0.0.event, $0.0.elementPath, $0.0.column) } ?? (.start, [], 0) == (.text, ["zoo", "b"], 22))

        var instruction = Dispatcher()
        instruction.onProcessingInstruction { target, _ in throw BadValue(text: target) }
        let fromInstruction = handlerError { try instruction.parse(.string("<a>\n <?t d?></a>")) }
        #expect(fromInstruction?.1 == BadValue(text: "t"))
        #expect(
            fromInstruction?.0.description
                == #"<string>:2:2: error: in the processing instruction handler (in a): BadValue(text: "t")"#)

        var comment = Dispatcher()
        comment.onComment { throw BadValue(text: $0) }
        let fromComment = handlerError { try comment.parse(.string("<!-- c --><a/>")) }
        #expect(fromComment?.1 == BadValue(text: " c "))
        #expect(fromComment?.0.description == #"<string>:1:1: error: in the comment handler: BadValue(text: " c ")"#)
    }

    @Test("a handler error wins over a later well-formedness error")
    func handlerErrorBeforeMalformedTail() {
        var dispatcher = Dispatcher()
        dispatcher.onStart("a") { _ in throw BadValue(text: "first") }
        #expect(handlerError { try dispatcher.parse(.string("<zoo><a></b></zoo>")) }?.1 == BadValue(text: "first"))
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
        let outcome = try dispatcher.parse(.string(Self.document.replacingOccurrences(of: "<c/>", with: "<c></d>")))
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
        try dispatcher.parse(.string("<a>t</a>"))
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
        try dispatcher.parse(.string(Self.document))
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
        try base.parse(.string(Self.document))
        #expect(count == 3)
        try extended.parse(.string(Self.document))
        #expect(count == 3 + 303)
    }
}

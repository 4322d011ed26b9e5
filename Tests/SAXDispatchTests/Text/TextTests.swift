import SAXDispatch
import Testing

@Suite("Text coalescing and whitespace policies")
struct TextTests {
    func texts(_ document: String, name: String, _ policy: WhitespacePolicy?, chunk: Int = 1) throws -> [String] {
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd(ElementPattern(name: name), whitespace: policy) { _, text in texts.append(text) }
        let parser = PushParser(dispatcher)
        try parser.feed(Array(document.utf8), inPiecesOf: chunk)
        try parser.finish()
        return texts
    }

    @Test("mixed content keeps all of its own segments, in order; children keep theirs")
    func mixedContent() throws {
        let document = "<p>a <b>b</b> c<i>i</i>!</p>"
        #expect(try texts(document, name: "p", .preserve) == ["a  c!"])
        #expect(try texts(document, name: "p", .collapse) == ["a c!"])
        #expect(try texts(document, name: "b", .preserve) == ["b"])

        var both: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("p", whitespace: .preserve) { _, text in both.append("p=\(text)") }
        dispatcher.onEnd("b", whitespace: .preserve) { _, text in both.append("b=\(text)") }
        dispatcher.onEnd("i", whitespace: .preserve) { _, text in both.append("i=\(text)") }
        try dispatcher.parse(.string(document))
        #expect(both == ["b=b", "i=i", "p=a  c!"])
    }

    @Test(
        "a container's indentation is not gathered for trimmed or collapsed text: no memory, no text limit",
        arguments: [1, 7, 4096])
    func indentationIsNotGathered(chunk: Int) throws {
        // 2,000 children, each on its own indented line: 60 KB of whitespace in <r>'s own text.
        let document = "<r>" + String(repeating: "\n" + String(repeating: " ", count: 24) + "<a>t</a>", count: 2000) + "\n</r>"
        for policy: WhitespacePolicy in [.trim, .collapse] {
            var dispatcher = Dispatcher()
            dispatcher.safety.maximumTextBytes = .atMost(100)
            var rootText: String?
            dispatcher.onEnd("r", whitespace: policy) { _, text in rootText = text }
            let parser = PushParser(dispatcher)
            try parser.feed(Array(document.utf8), inPiecesOf: chunk)
            try parser.finish()
            #expect(rootText == "", "\(policy)")
        }
        // With .preserve every byte is the handler's, and the limit applies to all of it.
        var dispatcher = Dispatcher()
        dispatcher.safety.maximumTextBytes = .atMost(100)
        dispatcher.onEnd("r", whitespace: .preserve) { _, _ in }
        #expect(throws: XMLParseError.self) { try dispatcher.parse(.string(document)) }
        // Once other text has come, later whitespace is the text's own and is kept.
        #expect(try texts("<p>  <b/> x  <b/>  y </p>", name: "p", .trim, chunk: chunk) == ["x    y"])
        #expect(try texts("<p>  <b/> x  <b/>  y </p>", name: "p", .collapse, chunk: chunk) == ["x y"])
    }

    @Test("nested elements that both collect text")
    func nestedCollectors() throws {
        var seen: [String] = []
        var dispatcher = Dispatcher()
        for name in ["a", "b", "c"] {
            dispatcher.onEnd(ElementPattern(name: name), whitespace: .preserve) { _, text in seen.append("\(name)=\(text)") }
        }
        try dispatcher.parse(.string("<a>1<b>2<c>3</c>4<x>ignored</x>5</b>6<c>7</c>8</a>"))
        #expect(seen == ["c=3", "b=245", "c=7", "a=168"])
    }

    @Test("entities, character references and CDATA are text")
    func references() throws {
        let document = "<t>Fish &amp; chips &lt;hot&gt; &#65;&#x42;&quot;&apos; <![CDATA[<raw> & ]]>end</t>"
        #expect(try texts(document, name: "t", .preserve) == ["Fish & chips <hot> AB\"' <raw> & end"])
        #expect(try texts(document, name: "t", .preserve, chunk: 1000) == ["Fish & chips <hot> AB\"' <raw> & end"])
    }

    @Test("whitespace policies", arguments: [
        (WhitespacePolicy.preserve, "  a \n\t b  "),
        (.trim, "a \n\t b"),
        (.collapse, "a b"),
    ])
    func policies(_ policy: WhitespacePolicy, _ expected: String) throws {
        #expect(try texts("<t>  a \n\t b  </t>", name: "t", policy) == [expected])
    }

    @Test("whitespace-only and empty text")
    func emptyText() throws {
        #expect(try texts("<r><t> \n </t><t/><t></t></r>", name: "t", nil) == ["", "", ""])
        #expect(try texts("<r><t> \n </t></r>", name: "t", .preserve) == [" \n "])
        #expect(try texts("<r><t> \n </t></r>", name: "t", .collapse) == [""])
    }

    @Test("the dispatcher's default policy applies where a handler names none")
    func defaultPolicy() throws {
        var seen: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.whitespace = .collapse
        dispatcher.onEnd("t") { _, text in seen.append(text) }
        dispatcher.onEnd("t", whitespace: .preserve) { _, text in seen.append(text) }
        try dispatcher.parse(.string("<t> a  b </t>"))
        #expect(seen == ["a b", " a  b "])
    }

    @Test("line ends are normalized; non-ASCII survives any split")
    func lineEndsAndUnicode() throws {
        #expect(try texts("<t>1\r\n2\r3\n</t>", name: "t", .preserve) == ["1\n2\n3\n"])
        #expect(try texts("<t>über 漢字 🐟</t>", name: "t", .preserve, chunk: 1) == ["über 漢字 🐟"])
    }

    @Test("text chunks stream an element's text before it ends")
    func textChunks() throws {
        var pieces: [String] = []
        var total = 0
        var dispatcher = Dispatcher()
        dispatcher.onText("t") { element, chunk in
            #expect(element.name == "t")
            pieces.append(chunk.string)
            total += chunk.count
        }
        dispatcher.onStart("x") { _ in pieces.append("<x>") }
        let parser = PushParser(dispatcher)
        try parser.feed("<r><t>hello ")
        #expect(pieces.joined() == "hello ")
        try parser.feed("wor")
        try parser.feed("ld<x/>!</t><u>not me</u></r>")
        try parser.finish()
        #expect(pieces.joined() == "hello world<x>!")
        #expect(total == 12)
    }

    @Test("text chunks gather expat's small pieces between markup, up to 64 KiB")
    func textChunkGathering() throws {
        var pieces: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onText("t") { _, chunk in pieces.append(chunk.string) }
        try dispatcher.parse(.string("<t>a &amp; b\nline two&#10;<![CDATA[<c>]]> end<x/>after</t>"))
        #expect(pieces == ["a & b\nline two\n<c> end", "after"])

        var sizes: [Int] = []
        var big = Dispatcher()
        big.onText("t") { _, chunk in sizes.append(chunk.count) }
        try big.parse(.string("<t>" + String(repeating: "0123456789abcdef\n", count: 12_000) + "</t>"))
        #expect(sizes.reduce(0, +) == 17 * 12_000)
        #expect(sizes.allSatisfy { $0 <= 64 * 1024 })
        #expect(sizes.count == 4)
    }

    @Test("text before a parse error reaches chunk handlers however the input is split")
    func textBeforeError() {
        for split in [0, 5, 9, 12] {
            var text = ""
            var dispatcher = Dispatcher()
            dispatcher.onText("b") { _, chunk in text += chunk.string }
            let parser = PushParser(dispatcher)
            let bytes = Array("<a><b>some text &nope; more</b></a>".utf8)
            #expect(throws: XMLParseError.self) {
                try parser.feed(bytes[..<split])
                try parser.feed(bytes[split...])
                try parser.finish()
            }
            #expect(text == "some text ", "split at \(split)")
        }
    }

    @Test("elements nobody listens to collect no text")
    func noTextWithoutListeners() throws {
        var ends = 0
        var dispatcher = Dispatcher()
        dispatcher.onEnd("t") { _ in ends += 1 }
        try dispatcher.parse(.string("<r><t>\(String(repeating: "x", count: 100_000))</t></r>"))
        #expect(ends == 1)
    }

    @Test("maximumTextBytes bounds each element's text, not the text of its open ancestors with it")
    func textLimitPerElement() throws {
        let sixty = String(repeating: "x", count: 60)
        var dispatcher = Dispatcher()
        dispatcher.safety.maximumTextBytes = 100
        var texts: [String: Int] = [:]
        dispatcher.onEnd("p") { element, text in texts[element.name] = text.count }
        dispatcher.onEnd("b") { element, text in texts[element.name] = text.count }
        // 60 + 60 bytes are held at once inside <b>, but no element has more than 100.
        try dispatcher.parse(.string("<p>\(sixty)<b>\(sixty)</b>xyz</p>"))
        #expect(texts == ["b": 60, "p": 63])
        let error = #expect(throws: XMLParseError.self) {
            try dispatcher.parse(.string("<p>\(sixty)<b>\(sixty)\(sixty)</b></p>"))
        }
        #expect(error?.code == .textLimitExceeded)
        #expect(error?.message.contains("<b>") == true)
    }
}

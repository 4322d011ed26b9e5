import Foundation
import SAXDispatch
import Testing

/// The code of TextAndWhitespace.md, verbatim.
@Suite("Article: Text and whitespace")
struct TextAndWhitespaceArticleTests {
    @Test("mixed content, references, CDATA and the three policies")
    func policies() throws {
        let document = "<p>Fish &amp; <b>chips</b>\n   to <![CDATA[<go>]]> </p>"
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("b") { _, text in texts.append(text) }
        dispatcher.onEnd("p", whitespace: .preserve) { _, text in texts.append(text) }
        dispatcher.onEnd("p", whitespace: .collapse) { _, text in texts.append(text) }
        dispatcher.onEnd("p") { _, text in texts.append(text) }            // .trim
        try dispatcher.parse(.string(document))
        // texts[0] == "chips"                       the child's text is the child's
        // texts[1] == "Fish & \n   to <go> "        .preserve
        // texts[2] == "Fish & to <go>"              .collapse
        // texts[3] == "Fish & \n   to <go>"         .trim

        #expect(texts == ["chips", "Fish & \n   to <go> ", "Fish & to <go>", "Fish & \n   to <go>"])
    }

    @Test("the dispatcher's default policy")
    func defaultPolicy() throws {
        var title = ""
        var dispatcher = Dispatcher()
        dispatcher.whitespace = .collapse
        dispatcher.onEnd("title") { _, text in title = text }
        try dispatcher.parse(.string("<title>\n  A   Tale of\n  Two Cities\n</title>"))
        // title == "A Tale of Two Cities"

        #expect(title == "A Tale of Two Cities")
    }

    @Test("entities declared in the internal subset and character references")
    func entities() throws {
        let document = """
            <!DOCTYPE note [<!ENTITY company "ACME &amp; Sons">]>
            <note>&company; &#x2014; since 1901&#10;</note>
            """
        var note = ""
        var dispatcher = Dispatcher()
        dispatcher.onEnd("note") { _, text in note = text }
        try dispatcher.parse(.string(document))
        // note == "ACME & Sons — since 1901"

        #expect(note == "ACME & Sons — since 1901")
        // The prose: an entity declared nowhere is an error, not lost text.
        #expect(throws: XMLParseError.self) { try dispatcher.parse(.string("<note>&company;</note>")) }
    }

    @Test("an ISO-8859-1 document reaches handlers as UTF-8")
    func encodings() throws {
        let latin1: [UInt8] = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><w>caf"#.utf8) + [0xE9] + Array("</w>".utf8)
        var word = ""
        var dispatcher = Dispatcher()
        dispatcher.onEnd("w") { _, text in word = text }
        try dispatcher.parse(.bytes(latin1))
        // word == "café"

        #expect(word == "café")

        let mislabelled: [UInt8] = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><w>"#.utf8)
            + [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2] + Array("</w>".utf8)
        try dispatcher.parse(.bytes(mislabelled).encoding("windows-1251"))
        // word == "Привет"

        #expect(word == "Привет")
        // The prose: windows-1252 is decoded too (0x80 is the euro sign there).
        let cp1252: [UInt8] = Array(#"<?xml version="1.0" encoding="windows-1252"?><w>"#.utf8) + [0x80] + Array("</w>".utf8)
        try dispatcher.parse(.bytes(cp1252))
        #expect(word == "€")
    }

    @Test("text chunks stream an element's text as it is fed")
    func streamingText() throws {
        var pieces: [String] = []
        var bytes = 0
        var dispatcher = Dispatcher()
        dispatcher.onText("text") { _, chunk in
            pieces.append(chunk.string)
            bytes += chunk.count
        }
        let parser = PushParser(dispatcher)
        try parser.feed("<page><text>Once upon")
        try parser.feed(" a time<br/>there was")
        try parser.feed(" a parser.</text></page>")
        try parser.finish()
        // pieces == ["Once upon", " a time", "there was", " a parser."], bytes == 35

        #expect(pieces == ["Once upon", " a time", "there was", " a parser."])
        #expect(bytes == 35)
    }

    @Test("text longer than maximumTextBytes streams through onText")
    func streamingIsNotLimited() throws {
        var dispatcher = Dispatcher()
        dispatcher.safety.maximumTextBytes = 16
        var streamed = 0
        dispatcher.onText("t") { _, chunk in streamed += chunk.count }
        try dispatcher.parse(.string("<t>" + String(repeating: "x", count: 1000) + "</t>"))
        #expect(streamed == 1000)
        dispatcher.onEnd("t") { _, _ in }
        let error = #expect(throws: XMLParseError.self) {
            try dispatcher.parse(.string("<t>" + String(repeating: "x", count: 1000) + "</t>"))
        }
        #expect(error?.code == .textLimitExceeded)
    }

    @Test("own text and whole text")
    func wholeText() throws {
        let document = "<p>Plain <em>and</em> simple<!-- not text --></p>"
        var own = ""
        var whole = ""
        var dispatcher = Dispatcher()
        dispatcher.onEnd("p") { _, text in own = text }
        dispatcher.onEnd("p", text: .whole) { _, text in whole = text }
        try dispatcher.parse(.string(document))
        // own == "Plain  simple"
        // whole == "Plain and simple"

        #expect(own == "Plain  simple")
        #expect(whole == "Plain and simple")
    }

    @Test("the prose: the whitespace policy applies to the whole text")
    func wholeTextPolicies() throws {
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("p", text: .whole, whitespace: .preserve) { _, text in texts.append(text) }
        dispatcher.onEnd("p", text: .whole, whitespace: .trim) { _, text in texts.append(text) }
        dispatcher.onEnd("p", text: .whole, whitespace: .collapse) { _, text in texts.append(text) }
        try dispatcher.parse(.string("<p> a <b> b </b> c </p>"))
        #expect(texts == [" a  b  c ", "a  b  c", "a b c"])
        var whole: [String] = []
        var plain = Dispatcher()
        plain.onEnd("p", text: .whole) { _, text in whole.append(text) }
        try plain.parse(.string("<p>a <b>b</b> c</p>"))
        #expect(whole == ["a b c"])
    }

    @Test("the prose: encoding aliases, unknown encodings named, a String is UTF-8")
    func encodingProse() throws {
        var words: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("w") { _, text in words.append(text) }
        for name in ["latin1", "cp1252"] {
            try dispatcher.parse(.bytes(Array("<?xml version='1.0' encoding='\(name)'?><w>caf".utf8) + [0xE9] + Array("</w>".utf8)))
        }
        let unknown = #expect(throws: XMLParseError.self) {
            try dispatcher.parse(.bytes(Array("<?xml version='1.0' encoding='X-FOO'?><w/>".utf8)))
        }
        #expect(unknown?.code == .unknownEncoding)
        #expect(unknown?.message == "unknown encoding \"X-FOO\"")
        // Shift_JIS 0x5C is a backslash, and Shift_JIS keeps the wave dash where windows-31j has the tilde.
        for (name, expected) in [("Shift_JIS", "\\〜"), ("windows-31j", "\\～")] {
            try dispatcher.parse(.bytes(Array("<?xml version='1.0' encoding='\(name)'?><w>".utf8) + [0x5C, 0x81, 0x60] + Array("</w>".utf8)))
            #expect(words.last == expected, "\(name)")
            words.removeLast()
        }
        try dispatcher.parse(.string("<?xml version='1.0' encoding='ISO-8859-1'?><w>café</w>"))
        #expect(words == ["café", "café", "café"])
    }

    @Test("whole text in records and decoded values")
    func wholeTextInRecordsAndDecodedValues() throws {
        struct Item: Decodable {
            var title: String                 // own text
            var description: XMLStringValue   // whole text: description.text
        }
        let item = XMLRecord("item",
            .text("title", scope: .whole),
            .value("price", as: Decimal.self).textScope(.whole)
        ) { (title: $0, price: $1) }

        let document = "<item><title>A <b>B</b></title><price>1<sup>.5</sup></price><description>c <i>d</i></description></item>"
        let decoded = try XMLRecordDecoder().decode(Item.self, from: .string(document))
        #expect(decoded.title == "A")
        #expect(decoded.description.text == "c d")
        let read = try item.first(in: .string(document))
        #expect(read.title == "A B")
        #expect(read.price == Decimal(string: "1.5"))
    }

    @Test("inner markup")
    func innerMarkup() throws {
        let entry = XMLRecord("entry", .text("title"), .markup("content")) { (title: $0, content: $1) }
        let first = try entry.first(in: .string("""
            <entry><title>Hi</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">\
            A <b>bold</b> &amp; <![CDATA[<raw>]]> move<!-- gone --></div></content></entry>
            """))
        // first.content == #"<div xmlns="http://www.w3.org/1999/xhtml">A <b>bold</b> &amp; &lt;raw&gt; move</div>"#

        #expect(first.title == "Hi")
        #expect(first.content == #"<div xmlns="http://www.w3.org/1999/xhtml">A <b>bold</b> &amp; &lt;raw&gt; move</div>"#)
    }
}

import Foundation
import SAXDispatch
import Testing

@Suite("Decodable: XMLStringValue reads an element's whole text")
struct WholeTextDecodingTests {
    struct Item: Decodable, Equatable {
        var title: String
        var description: XMLStringValue
        var note: [XMLStringValue]
        var lang: XMLStringValue
        var missing: XMLStringValue?
        var author: Author

        struct Author: Decodable, Equatable {
            var name: XMLStringValue
        }
    }

    static let document = """
        <!DOCTYPE rss [<!ENTITY co "ACME &amp; Sons">]>
        <rss><channel>
          <item lang="en">
            <title>Plain <em>and</em> simple</title>
            <description>
              By &co;: <b>bold <i>and</i></b> <![CDATA[<raw>]]><!-- no --><?pi no?>&#x2014; done
            </description>
            <note>one <u>1</u></note><note>two</note>
            <author><name>Ann <b>Lee</b></name><skip>x</skip></author>
            <other>ignored <b>too</b></other>
          </item>
        </channel></rss>
        """

    static let expected = Item(
        title: "Plain  simple", description: XMLStringValue("By ACME & Sons: bold and <raw>— done"),
        note: [XMLStringValue("one 1"), XMLStringValue("two")], lang: XMLStringValue("en"), missing: nil,
        author: Item.Author(name: XMLStringValue("Ann Lee")))

    /// The items of `document`, fed whole, by 1 and by 3 bytes, checked to agree.
    static func items<T: Decodable & Equatable>(
        _ type: T.Type, _ document: String, decoder: XMLRecordDecoder = XMLRecordDecoder(), at pattern: ElementPattern = "item"
    ) throws -> [T] {
        var results: [[T]] = []
        for chunk in [document.utf8.count, 1, 3] {
            var items: [T] = []
            try decoder.forEach(T.self, at: pattern, in: .pieces(document, of: chunk)) {
                items.append($0)
            }
            results.append(items)
        }
        #expect(results[1] == results[0], "fed by 1 byte")
        #expect(results[2] == results[0], "fed by 3 bytes")
        return results[0]
    }

    @Test("keys, lists, attributes and nested types read whole; fed whole and byte by byte")
    func decoding() throws {
        #expect(try Self.items(Item.self, Self.document) == [Self.expected])
        var preserving = XMLRecordDecoder()
        preserving.whitespace = .collapse
        #expect(try Self.items(Item.self, Self.document, decoder: preserving).first?.description.text == "By ACME & Sons: bold and <raw>— done")
    }

    @Test("each record reads its own elements' whole text, wherever they lie in it, and none where it has none")
    func wholeTextPerRecord() throws {
        struct Entry: Decodable, Equatable {
            var body: XMLStringValue?
            var note: [XMLStringValue]
        }
        let document = """
            <r><e><body>one <b>1</b></body><note>a</note></e><e><note>b <i>2</i></note></e>\
            <e><note>c</note><note>d</note><body>three</body></e><e/></r>
            """
        #expect(
            try Self.items(Entry.self, document, at: "e") == [
                Entry(body: XMLStringValue("one 1"), note: [XMLStringValue("a")]),
                Entry(body: nil, note: [XMLStringValue("b 2")]),
                Entry(body: XMLStringValue("three"), note: [XMLStringValue("c"), XMLStringValue("d")]),
                Entry(body: nil, note: []),
            ])
        // Decoded one at a time from separate inputs with one decoder: nothing carries over.
        let decoder = XMLRecordDecoder()
        #expect(try decoder.decode(Entry.self, from: .string("<e><body>x <b>y</b></body></e>")).body == XMLStringValue("x y"))
        #expect(try decoder.decode(Entry.self, from: .string("<e><note>z</note></e>")).body == nil)
    }

    @Test("the matched element itself read whole")
    func rootValue() throws {
        #expect(
            try Self.items(XMLStringValue.self, "<r><p>a <b>b</b></p><p> c </p></r>", at: "p") == [
                XMLStringValue("a b"), XMLStringValue("c"),
            ])
    }

    @Test("next to a dispatcher's whole-text handler, the decoder's pruning hides nothing from it")
    func pruningNextToWholeText() throws {
        struct Titled: Decodable, Equatable { var title: String }
        var titles: [String] = []
        var wholes: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(Titled.self, at: "item") { titles.append($0.title) }
        // Anchored: a floating pattern outside the decoder would keep it from pruning anyway.
        dispatcher.onEnd("/rss/channel/item", text: .whole, whitespace: .collapse) { _, text in wholes.append(text) }
        try dispatcher.parse(.string(Self.document))
        #expect(titles == ["Plain  simple"])
        #expect(wholes == ["Plain and simple By ACME & Sons: bold and <raw>— done one 1two Ann Leex ignored too"])
    }

    @Test("absent, marked nil, and a whole text the probe could not foresee are errors that say so")
    func errors() throws {
        struct Required: Decodable { var d: XMLStringValue }
        #expect {
            try XMLRecordDecoder().decode(Required.self, from: .string("<r><e>x</e></r>"))
        } throws: { error in
            guard case .keyNotFound(let key, _) = (error as? XMLDecodingError)?.underlying else { return false }
            return key.stringValue == "d"
        }
        #expect {
            try XMLRecordDecoder().decode(Required.self, from: .string(#"<r><d nil="true">x<b>y</b></d></r>"#))
        } throws: { error in
            guard case .valueNotFound = (error as? XMLDecodingError)?.underlying else { return false }
            return true
        }

        /// Reads whatever keys the element has, whole: the probe sees none of them.
        struct Listed: Decodable {
            var values: [String: XMLStringValue] = [:]
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                for key in container.allKeys { values[key.stringValue] = try container.decode(XMLStringValue.self, forKey: key) }
            }
        }
        #expect {
            try XMLRecordDecoder().decode(Listed.self, from: .string("<r><d>x<b>y</b></d></r>"))
        } throws: { error in
            guard case .dataCorrupted(let context) = (error as? XMLDecodingError)?.underlying else { return false }
            return context.debugDescription.contains("the whole text of <d> at r/d was not gathered")
        }
        // Without the probe, nothing is foreseen.
        var capturingAll = XMLRecordDecoder()
        capturingAll.keyPruning = .off
        #expect {
            try capturingAll.decode(Required.self, from: .string("<r><d>x<b>y</b></d></r>"))
        } throws: { error in
            guard case .dataCorrupted(let context) = (error as? XMLDecodingError)?.underlying else { return false }
            return context.debugDescription.contains("(keyPruning = .probe)")
        }
    }

    @Test("whole text counts against maximumTextBytes: a longer one ends the parse at its element")
    func limit() throws {
        var safety = SafetyProfile.default
        safety.maximumTextBytes = .atMost(20)
        #expect {
            try XMLRecordDecoder().forEach(Item.self, at: "item", in: .string(Self.document), safety: safety) { _ in }
        } throws: { error in
            guard let error = error as? XMLParseError else { return false }
            return error.code == .textLimitExceeded
                && error.message == "the whole text of <description> is longer than maximumTextBytes (20)"
                && (error.line, error.column) == (5, 5)
        }
    }

    @Test("from another decoder, it decodes from a string")
    func otherDecoders() throws {
        struct Wrapped: Decodable { var v: XMLStringValue }
        let decoded = try JSONDecoder().decode(Wrapped.self, from: Data(#"{"v": "plain"}"#.utf8))
        #expect(decoded.v == XMLStringValue("plain"))
        #expect(decoded.v.description == "plain")
    }
}

/// Any key, for types that list their keys.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

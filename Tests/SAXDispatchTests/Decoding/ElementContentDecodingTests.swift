import Foundation
import SAXDispatch
import Testing

/// `Decodable` reads what records read with `.text(_, scope: .whole)` and `.markup(_)`: an
/// element's whole text (``XMLStringValue``) and its inner markup (``XMLInnerMarkup``),
/// of a child by its key and of the element itself by the key `"."`.
@Suite("Decodable: whole text and inner markup, of a child and of the element itself")
struct ElementContentDecodingTests {
    static let document = """
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:x="urn:x"><entry>Head <title>T</title>\
        <summary>Mixed <b>bold <i>deep</i></b> tail</summary>\
        <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">A &lt;b&gt; <![CDATA[<c>]]> \
        <b x:k="1 &amp; &quot;2&quot;">bold</b> &amp; move</div></content></entry></feed>
        """

    static let contentMarkup =
        #"<div xmlns="http://www.w3.org/1999/xhtml">A &lt;b&gt; &lt;c&gt; <b xmlns:x="urn:x" x:k="1 &amp; &quot;2&quot;">bold</b> &amp; move</div>"#

    /// The Atom default namespace is declared on the fragment's top-level element.
    static let summaryMarkup = #"Mixed <b xmlns="http://www.w3.org/2005/Atom">bold <i>deep</i></b> tail"#

    /// Decodes every element matching `pattern` as `T`, fed whole and in pieces of 1, 7 and
    /// 4096 bytes, and checks that the four agree.
    static func decoded<T: Decodable & Equatable>(
        _ type: T.Type, at pattern: ElementPattern, in document: String, decoder: XMLRecordDecoder = XMLRecordDecoder()
    ) throws -> [T] {
        var results: [[T]] = []
        for size in [document.utf8.count, 1, 7, 4096] {
            results.append(try decoder.all(T.self, at: pattern, in: .pieces(document, of: size)))
        }
        for (index, size) in [1, 7, 4096].enumerated() {
            #expect(results[index + 1] == results[0], "fed in pieces of \(size) bytes")
        }
        return results[0]
    }

    struct WholeOfItself: Decodable, Equatable {
        var all: XMLStringValue
        var title: String
        enum CodingKeys: String, CodingKey { case all = ".", title }
    }

    @Test("the key \".\" reads the element's own whole text, with mixed content and nested children")
    func wholeTextOfItself() throws {
        let entries = try Self.decoded(WholeOfItself.self, at: "entry", in: Self.document)
        #expect(entries == [WholeOfItself(all: XMLStringValue("Head TMixed bold deep tailA <b> <c> bold & move"), title: "T")])
    }

    struct MarkupOfChild: Decodable, Equatable {
        var content: XMLInnerMarkup
        var summary: XMLInnerMarkup
    }

    @Test("a child's inner markup: namespaces declared where the fragment needs them, escapes kept")
    func markupOfChild() throws {
        let entries = try Self.decoded(MarkupOfChild.self, at: "entry", in: Self.document)
        #expect(entries.map(\.content.markup) == [Self.contentMarkup])
        #expect(entries.map(\.summary.markup) == [Self.summaryMarkup])
        // What a record's `.markup` field reads from the same element.
        let record = XMLRecord("entry", .markup("content"), .markup("summary")) { [$0, $1] }
        #expect(try record.all(in: .string(Self.document)) == [[Self.contentMarkup, Self.summaryMarkup]])
    }

    @Test("the matched element decoded as XMLInnerMarkup or XMLStringValue itself")
    func matchedElementItself() throws {
        #expect(try Self.decoded(XMLInnerMarkup.self, at: "content", in: Self.document) == [XMLInnerMarkup(Self.contentMarkup)])
        #expect(try Self.decoded(XMLStringValue.self, at: "summary", in: Self.document) == [XMLStringValue("Mixed bold deep tail")])
    }

    struct TextKey: Decodable, Equatable {
        var own: String
        var whole: XMLStringValue
        enum CodingKeys: String, CodingKey { case own = "#text", whole = "." }
    }

    struct TextKeyWhole: Decodable, Equatable {
        var text: XMLStringValue
        enum CodingKeys: String, CodingKey { case text = "#text" }
    }

    @Test("the text key is the element's own text as a String, and its whole text as an XMLStringValue")
    func textKey() throws {
        #expect(
            try Self.decoded(TextKey.self, at: "summary", in: Self.document) == [
                TextKey(own: "Mixed  tail", whole: XMLStringValue("Mixed bold deep tail"))
            ])
        #expect(try Self.decoded(TextKeyWhole.self, at: "summary", in: Self.document) == [TextKeyWhole(text: XMLStringValue("Mixed bold deep tail"))])
    }

    struct Nested: Decodable, Equatable {
        var items: [Item]
        struct Item: Decodable, Equatable {
            var body: XMLInnerMarkup
            var all: XMLStringValue
            enum CodingKeys: String, CodingKey { case body = ".", all = "#text" }
        }
        enum CodingKeys: String, CodingKey { case items = "item" }
    }

    @Test("nested elements read themselves whole, each from what its own capture holds")
    func nestedItems() throws {
        let document = #"<r><list><item>a<b>1</b></item><item xmlns:p="urn:p"><p:q p:z="&lt;">2</p:q>c</item></list></r>"#
        let lists = try Self.decoded(Nested.self, at: "list", in: document)
        #expect(
            lists == [
                Nested(items: [
                    .init(body: XMLInnerMarkup("a<b>1</b>"), all: XMLStringValue("a1")),
                    .init(body: XMLInnerMarkup(#"<p:q xmlns:p="urn:p" p:z="&lt;">2</p:q>c"#), all: XMLStringValue("2c")),
                ])
            ])
    }

    @Test("inner markup counts against maximumTextBytes, as a record's does")
    func markupLimit() throws {
        var safety = SafetyProfile.default
        safety.maximumTextBytes = 40
        let document = "<r><item><p>" + String(repeating: "<b>x</b>", count: 10) + "</p></item></r>"
        for size in [document.utf8.count, 1, 7, 4096] {
            let error = #expect(throws: XMLParseError.self) {
                try XMLRecordDecoder().forEach(MarkupOfP.self, at: "item", in: .pieces(document, of: size), safety: safety) { _ in }
            }
            #expect(error?.code == .textLimitExceeded, "by \(size)")
        }
    }

    struct MarkupOfP: Decodable { var p: XMLInnerMarkup }

    @Test("from another decoder, XMLInnerMarkup decodes from a single string")
    func otherDecoder() throws {
        let value = try JSONDecoder().decode([XMLInnerMarkup].self, from: Data(#"["<a/>"]"#.utf8))
        #expect(value == [XMLInnerMarkup("<a/>")])
        #expect(value.first?.description == "<a/>")
    }
}

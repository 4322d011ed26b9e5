import Foundation
import SAXDispatch
import Testing

@Suite("Record fields: whole text and inner markup")
struct RecordWholeTextTests {
    static let feed = """
        <!DOCTYPE feed [<!ENTITY co "ACME &amp; Sons">]>
        <feed>
          <entry id="1">
            <title>A <em>bold</em> title</title>
            <summary>By &co; <![CDATA[<now>]]><!-- c --></summary>
            <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">A <b class="x">bold</b> move &amp; <![CDATA[<raw>]]><!-- c --><?pi x?><br/></div></content>
            <extra>ignored <deep>deeper</deep></extra>
          </entry>
          <entry id="2"><title>Plain</title><summary/><content>   </content><extra/></entry>
        </feed>
        """

    struct Entry: Equatable, Sendable {
        var id: Int
        var title: String
        var wholeTitle: String
        var summary: String
        var content: String
        var everything: String
    }

    static func entries(_ pattern: ElementPattern) -> XMLRecord<Entry> {
        XMLRecord(
            pattern,
            .value("@id", as: Int.self),
            .text("title"),
            .text("title", scope: .whole),
            .text("summary", whitespace: .preserve, scope: .whole),
            .markup("content"),
            .text(".", whitespace: .collapse, scope: .whole)
        ) { Entry(id: $0, title: $1, wholeTitle: $2, summary: $3, content: $4, everything: $5) }
    }

    static let expected = [
        Entry(
            id: 1, title: "A  title", wholeTitle: "A bold title", summary: "By ACME & Sons <now>",
            content: #"<div xmlns="http://www.w3.org/1999/xhtml">A <b class="x">bold</b> move &amp; &lt;raw&gt;<br/></div>"#,
            everything: "A bold title By ACME & Sons <now> A bold move & <raw> ignored deeper"),
        Entry(id: 2, title: "Plain", wholeTitle: "Plain", summary: "", content: "", everything: "Plain"),
    ]

    /// The models of `record` in `document`, fed whole, by 1 and by 3 bytes, checked to agree.
    static func models<Model: Equatable>(_ record: XMLRecord<Model>, _ document: String) throws -> [Model] {
        var results: [[Model]] = []
        for chunk in [document.utf8.count, 1, 3] {
            var models: [Model] = []
            try record.forEach(in: .pieces(document, of: chunk)) { models.append($0) }
            results.append(models)
        }
        #expect(results[1] == results[0], "fed by 1 byte")
        #expect(results[2] == results[0], "fed by 3 bytes")
        return results[0]
    }

    @Test("own text, whole text, inner markup and the record's own whole text, fed whole and byte by byte")
    func fields() throws {
        #expect(try Self.models(Self.entries("entry"), Self.feed) == Self.expected)
        // With fewer fields, what no field reads is pruned; what a markup field reads is not.
        let markupOnly = XMLRecord("entry", .markup("content", whitespace: .preserve), .text("extra")) { $0 + "|" + $1 }
        #expect(try Self.models(markupOnly, Self.feed) == [Self.expected[0].content + "|ignored", "   |"])
        // The record element's own inner markup, beside its own text.
        let own = XMLRecord("note", .markup("."), .text(".")) { $0 + "|" + $1 }
        #expect(try Self.models(own, #"<r><note> a <b x="1">b</b> &amp; c </note></r>"#) == [#"a <b x="1">b</b> &amp; c|a  & c"#])
    }

    @Test("an anchored record, whose document is filtered to what its fields read, keeps all a whole field needs")
    func anchored() throws {
        #expect(try Self.models(Self.entries("/feed/entry"), Self.feed) == Self.expected)
        // Without the record's own whole text, the filter still keeps the whole of <content>.
        let content = XMLRecord("/feed/entry", .markup("content"), .text("title", scope: .whole)) { "\($1): \($0)" }
        #expect(
            try Self.models(content, Self.feed) == [
                #"A bold title: <div xmlns="http://www.w3.org/1999/xhtml">A <b class="x">bold</b> move &amp; &lt;raw&gt;<br/></div>"#,
                "Plain: ",
            ])
    }

    @Test("typed fields take the whole text with textScope; nested records and attributes are unchanged")
    func typedFields() throws {
        let line = XMLRecord(
            "line",
            .value("price", as: Decimal.self).textScope(.whole),
            .many("note", as: String.self).textScope(.whole),
            .value("@n", as: Int.self).textScope(.whole),
            .optional(.value("missing", as: Int.self).textScope(.whole))
        ) { "\($2) \($0) \($1) \($3.map(String.init) ?? "nil")" }
        let order = XMLRecord("order", .many("line", line), .text("code")) { "\($1): " + $0.joined(separator: "; ") }
        let document = """
            <order><code>X<i>1</i></code>
              <line n="1"><price>12<sup>.50</sup></price><note>a <b>b</b></note><note>c</note></line>
              <line n="2"><price><w>3</w></price></line>
            </order>
            """
        // (A `Decimal` prints as 12.5.)
        #expect(try Self.models(order, document) == [#"X: 1 12.5 ["a b", "c"] nil; 2 3 [] nil"#])
    }

    @Test("a whole-text field whose element is absent fails as missing; one marked nil as marked nil")
    func absence() throws {
        let record = XMLRecord("r", .text("t", scope: .whole)) { $0 }
        do {
            _ = try record.all(in: .string("<r><u>x</u></r>"))
            Issue.record("no error")
        } catch let error as XMLRecordError {
            #expect(error.failures.map(\.message) == ["record String has no t"])
        }
        do {
            _ = try record.all(in: .string(#"<r><t nil="true">x<b>y</b></t></r>"#))
            Issue.record("no error")
        } catch let error as XMLRecordError {
            #expect(error.failures.map(\.message) == ["t of record String is nil but required"])
        }
    }

    @Test("whole text and markup over maximumTextBytes fail the parse at their element")
    func limits() throws {
        var safety = SafetyProfile.default
        safety.maximumTextBytes = .atMost(40)
        do {
            _ = try Self.entries("entry").all(in: .string(Self.feed), safety: safety)
            Issue.record("no error")
        } catch let error as XMLParseError {
            #expect(error.code == .textLimitExceeded)
            #expect(error.message == "the whole text of <entry> is longer than maximumTextBytes (40)")
            #expect((error.line, error.column) == (3, 3))
        }
        let content = XMLRecord("entry", .markup("content")) { $0 }
        do {
            _ = try content.all(in: .string(Self.feed), safety: safety)
            Issue.record("no error")
        } catch let error as XMLParseError {
            #expect(error.code == .textLimitExceeded)
            #expect(error.message == "the inner markup of <content> is longer than maximumTextBytes (40)")
            #expect((error.line, error.column) == (6, 5))
        }
    }
}

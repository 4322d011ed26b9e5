import Foundation
import SAXDispatch
import SAXDispatchTools
import SAXDispatchTestSupport
import Testing

@Suite("saxdispatch extract: string(RELPATH) reads a whole text")
struct ExtractWholeTextTests {
    func extract(_ arguments: [String], input: String) throws -> CommandRunner.Result {
        try CommandRunner.run("saxdispatch", ["extract", "-"] + arguments, input: Data(input.utf8))
    }

    static let items = """
        <!DOCTYPE rss [<!ENTITY co "ACME &amp; Sons">]>
        <rss><channel>
          <item><title>Plain <em>and</em> simple</title>
            <description>By &co;: <b>bold <i>and</i></b> <![CDATA[<raw>]]><!-- no --><?pi no?>&#x2014; done</description>
            <price>12<sup>.50</sup></price>
          </item>
          <item><title>Two</title><description/><price>3</price></item>
        </channel></rss>
        """

    @Test("own text, whole text, the record's own whole text, and a typed whole text, as JSON Lines and CSV")
    func columns() throws {
        let fields = [
            "--field", "title", "--field", "whole=string(title)", "--field", "string(description)",
            "--field", "total=string(price):decimal", "--field", "all=string(.)",
        ]
        let result = try extract(["--record", "item"] + fields, input: Self.items)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        #expect(
            result.output.split(separator: "\n") == [
                #"{"title":"Plain  simple","whole":"Plain and simple","string(description)":"By ACME & Sons: bold and <raw>— done","#
                    + #""total":12.5,"all":"Plain and simple\n    By ACME & Sons: bold and <raw>— done\n    12.50"}"#,
                #"{"title":"Two","whole":"Two","string(description)":"","total":3,"all":"Two3"}"#,
            ])

        let csv = try extract(["--record", "item", "--format", "csv", "--field", "title", "--field", "t=string(title)"], input: Self.items)
        #expect(csv.status == 0)
        #expect(csv.output == "title,t\nPlain  simple,Plain and simple\nTwo,Two\n")
    }

    @Test("string(RELPATH) arguments: name, path, type and scope")
    func arguments() throws {
        let cases: [(String, String, String, String)] = [
            ("string(description)", "string(description)", "description", "string"),
            ("string(.)", "string(.)", ".", "string"),
            ("t=string(.):string?", "t", ".", "string?"),
            ("p=string(dc:price):decimal", "p", "dc:price", "decimal"),
            ("string(dc:date):date", "string(dc:date)", "dc:date", "date"),
            ("n=string(link[@rel='a=b']/x):int[]", "n", "link[@rel='a=b']/x", "int[]"),
            ("string(//name)", "string(//name)", "//name", "string"),
        ]
        for (argument, name, path, type) in cases {
            let field = try ExtractField(parsing: argument)
            #expect(field.name == name, "\(argument)")
            #expect(field.path.description == path, "\(argument)")
            #expect(field.typeDescription == type, "\(argument)")
            #expect(field.scope == .whole, "\(argument)")
        }
        #expect(try ExtractField(parsing: "description").scope == .own)
        #expect(try ExtractField(parsing: "x=dc:date:date").scope == .own)
    }

    @Test("a malformed string(…) is a usage error, exit 2, saying what is wrong")
    func malformed() throws {
        let cases: [(String, String)] = [
            ("string()", "'string()' needs a path: 'string(.)' reads the record's own whole text"),
            ("string(a", "'string(' is not closed: write 'string(RELPATH)'"),
            ("x=string(a)b", "'b' follows 'string(…)'; only ':TYPE' may"),
            ("string(a):strng", "unknown type 'strng': did you mean 'string'?"),
            ("string(a):", "unknown type ''"),
            ("string(a?)", "'a?' is not an element name"),
            ("string(/a)", "paths are relative to the record; drop the leading '/'"),
        ]
        for (field, message) in cases {
            let result = try extract(["--record", "item", "--field", field], input: "<r/>")
            #expect(result.status == 2, "\(field)")
            #expect(result.error.hasPrefix("Error: --field '\(field)': "), "\(field): \(result.error)")
            #expect(result.error.contains(message), "\(field): \(result.error)")
        }
    }

    @Test("a whole text over --limit text fails the run at its element")
    func limit() throws {
        let result = try extract(
            ["--record", "item", "--field", "string(description)", "--limit", "text-bytes=20"], input: Self.items)
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(
            result.error.hasPrefix(
                "-:4:5: error: the whole text of <description> is longer than maximumTextBytes (20) (in rss/channel/item/description)"),
            "\(result.error)")
    }
}

import Foundation
import SAXDispatchTestSupport
import Testing

@Suite("saxdispatch filter")
struct FilterCommandTests {
    /// Runs `filter -` on `input`, encoded as its declaration says (ISO-8859-1 or UTF-8).
    func filter(_ arguments: [String], input: String) throws -> CommandRunner.Result {
        let encoding: String.Encoding = input.contains("ISO-8859-1") ? .isoLatin1 : .utf8
        let bytes = try #require(input.data(using: encoding))
        return try CommandRunner.run("saxdispatch", ["filter", "-"] + arguments, input: bytes)
    }

    static let document = """
        <?xml version="1.0" encoding="ISO-8859-1"?>
        <!DOCTYPE r [<!ENTITY e "entit\u{E9}">]>
        <r xmlns:x="urn:x" style="a">
          <a id="1" style="b"><b>&e;</b><![CDATA[<c>]]></a>
          <x:a x:id="2"><b>two</b></x:a>
          <d/>
        </r>
        """

    @Test("no option: the document through, UTF-8 with a declaration, entities expanded, CDATA as text, no DOCTYPE")
    func copiesThrough() throws {
        let result = try filter([], input: Self.document)
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        #expect(
            result.output == """
                <?xml version="1.0" encoding="UTF-8"?>
                <r xmlns:x="urn:x" style="a">
                  <a id="1" style="b"><b>entit\u{E9}</b>&lt;c&gt;</a>
                  <x:a x:id="2"><b>two</b></x:a>
                  <d/>
                </r>
                """)
        let latin1 = Data(Self.document.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
        let canonical = try CommandRunner.run("saxdispatch", ["canon", "-"], input: latin1)
        let copied = try CommandRunner.run("saxdispatch", ["canon", "-"], input: Data(result.output.utf8))
        #expect(copied.output == canonical.output)
    }

    @Test("--drop, --keep, --rename and --strip-attribute, with -N for prefixed names")
    func rules() throws {
        let result = try filter(
            ["--keep", "a", "--keep", "x:a", "--drop", "x:a/b", "--rename", "a[@id='1']=first", "--strip-attribute", "style",
             "-N", "x=urn:x"],
            input: Self.document)
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output == """
                <?xml version="1.0" encoding="UTF-8"?>
                <r xmlns:x="urn:x"><first id="1"><b>entit\u{E9}</b>&lt;c&gt;</first><x:a x:id="2"/></r>
                """)
    }

    @Test("a rule that matches nothing is a warning; a malformed document keeps what was written and exits 1")
    func warningsAndErrors() throws {
        let unmatched = try filter(["--drop", "titel"], input: "<r><title/></r>")
        #expect(unmatched.status == 0)
        #expect(unmatched.error.contains("warning: pattern `titel` matched no element"))
        let malformed = try filter(["--drop", "b"], input: "<r><a>kept</a>\n<b/><c></r>")
        #expect(malformed.status == 1)
        #expect(malformed.error.hasPrefix("-:2:10: error: mismatched tag"))
        #expect(malformed.output.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<r><a>kept</a>\n"))
    }

    @Test("usage errors exit 2: a pattern that does not parse, a rename without NAME, an unbound -N")
    func usageErrors() throws {
        #expect(try filter(["--drop", "a[@"], input: "<r/>").status == 2)
        #expect(try filter(["--rename", "a"], input: "<r/>").status == 2)
        let badName = try filter(["--rename", "a=no good"], input: "<r/>")
        #expect(badName.status == 2)
        #expect(badName.error.contains("--rename: cannot rename a to \"no good\": not an XML name"))
        #expect(badName.output.isEmpty)
        #expect(try filter(["-N", "x"], input: "<r/>").status == 2)
    }
}

import Foundation
import SAXDispatchTestSupport
import Testing

/// Undeclared entities and the entities of well-known DTDs on the built tool: the
/// DocBook-style attribute whose reference expat would drop, with and without `--strict`;
/// an XHTML page; `--no-known-dtd-entities` and `--undeclared-entities skip`.
@Suite("saxdispatch: undeclared entities and known DTDs")
struct EntityCommandTests {
    /// An XSL stylesheet in the style of DocBook's, whose entity is declared in an external DTD.
    let stylesheet = Data(
        """
        <?xml version="1.0"?>
        <!DOCTYPE xsl:stylesheet SYSTEM "entities.dtd">
        <xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" version="1.0">
          <xsl:value-of select="substring-after($text, &lowercase;)"/>
        </xsl:stylesheet>
        """.utf8)

    let page = Data(
        """
        <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
        <html xmlns="http://www.w3.org/1999/xhtml"><body><p title="&copy; 2024">&laquo;Gr&uuml;&szlig;e&raquo;&nbsp;&auml;</p></body></html>
        """.utf8)

    @Test("the DocBook-style attribute is rejected with line and column, with --strict too")
    func attributeRejected() throws {
        for strict in [[], ["--strict"]] {
            let result = try CommandRunner.run("saxdispatch", ["check", "-"] + strict, input: stylesheet)
            #expect(result.status == 1)
            #expect(
                result.error
                    == "-:4:48: error: entity &lowercase; in an attribute value of <xsl:value-of> is not declared"
                    + " in the document; a declaration in an external DTD or parameter entity would not be read, and"
                    + " expat would leave the reference out of the value (in xsl:stylesheet)\n")
        }
    }

    @Test("an XHTML page reads its entities; --no-known-dtd-entities makes them undeclared")
    func xhtmlPage() throws {
        let read = try CommandRunner.run(
            "saxdispatch", ["extract", "-", "--record", "p", "--field", "t=@title", "--field", "."], input: page)
        #expect(read.status == 0)
        #expect(read.error.isEmpty)
        #expect(read.output == #"{"t":"© 2024",".":"«Grüße»\#u{A0}ä"}"# + "\n")
        let off = try CommandRunner.run("saxdispatch", ["check", "-", "--no-known-dtd-entities"], input: page)
        #expect(off.status == 1)
        #expect(off.error.hasPrefix("-:2:60: error: entity &copy; in an attribute value of <p> is not declared"))
    }

    @Test("--undeclared-entities skip leaves the reference out with a warning")
    func skip() throws {
        let checked = try CommandRunner.run("saxdispatch", ["check", "-", "--undeclared-entities", "skip"], input: stylesheet)
        #expect(checked.status == 0)
        #expect(
            checked.error
                == "-: warning: entity &lowercase; is not declared in the document (a declaration in an external"
                + " DTD or after a parameter entity reference is not read): its reference was left out, the first at"
                + " line 4, column 48\n")
        let extracted = try CommandRunner.run(
            "saxdispatch",
            ["extract", "-", "--undeclared-entities", "skip", "--record", "xsl:value-of", "--field", "s=@select"]
                + ["-N", "xsl=http://www.w3.org/1999/XSL/Transform"],
            input: stylesheet)
        #expect(extracted.status == 0)
        #expect(extracted.output == #"{"s":"substring-after($text, )"}"# + "\n")
        #expect(extracted.error.contains("warning: entity &lowercase; is not declared"))
    }
}

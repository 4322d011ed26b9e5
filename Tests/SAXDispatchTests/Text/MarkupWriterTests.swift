@testable import SAXDispatch
import Testing

@Suite("Markup writer: fragments that stand alone, namespaces declared where needed")
struct MarkupWriterTests {
    static let xhtml = "http://www.w3.org/1999/xhtml"
    static let atom = "http://www.w3.org/2005/Atom"
    static let xlink = "http://www.w3.org/1999/xlink"

    func name(_ local: String, _ uri: String? = nil, _ prefix: String? = nil) -> MarkupName {
        MarkupName(namespaceURI: uri, localName: local, prefix: prefix)
    }

    func text(_ writer: MarkupWriter, _ string: String) {
        var string = string
        string.withUTF8 { writer.text(UnsafeRawBufferPointer($0)) }
    }

    @Test("the default namespace is declared on the outermost element that uses it, and inherited below")
    func defaultNamespace() {
        let writer = MarkupWriter()
        writer.startElement(name("div", Self.xhtml), attributes: [])
        writer.startElement(name("p", Self.xhtml), attributes: [(name("class"), "intro")])
        text(writer, "Hi")
        writer.endElement()
        writer.endElement()
        // A second top-level element has no enclosing declaration: it declares its own.
        writer.startElement(name("p", Self.xhtml), attributes: [])
        writer.endElement()
        #expect(
            writer.string
                == #"<div xmlns="http://www.w3.org/1999/xhtml"><p class="intro">Hi</p></div><p xmlns="http://www.w3.org/1999/xhtml"/>"#)
    }

    @Test("prefixes are declared where first used and kept as written; a different URI redeclares")
    func prefixes() {
        let writer = MarkupWriter()
        writer.startElement(name("entry", Self.atom, "a"), attributes: [])
        writer.startElement(name("title", Self.atom, "a"), attributes: [])
        writer.endElement()
        writer.startElement(name("link", Self.xhtml, "a"), attributes: [])
        writer.endElement()
        writer.endElement()
        #expect(
            writer.string
                == #"<a:entry xmlns:a="http://www.w3.org/2005/Atom"><a:title/><a:link xmlns:a="http://www.w3.org/1999/xhtml"/></a:entry>"#
        )
    }

    @Test("an unprefixed element in no namespace undeclares an inherited default namespace")
    func undeclaringTheDefault() {
        let writer = MarkupWriter()
        writer.startElement(name("svg", "http://www.w3.org/2000/svg"), attributes: [])
        writer.startElement(name("plain"), attributes: [])
        writer.startElement(name("inner"), attributes: [])
        writer.endElement()
        writer.endElement()
        writer.endElement()
        writer.startElement(name("plain"), attributes: [])
        writer.endElement()
        #expect(writer.string == #"<svg xmlns="http://www.w3.org/2000/svg"><plain xmlns=""><inner/></plain></svg><plain/>"#)
    }

    @Test("attributes: prefixes declared, xml never, a missing or clashing prefix replaced by a free one")
    func attributePrefixes() {
        let writer = MarkupWriter()
        writer.startElement(
            name("a", Self.xhtml),
            attributes: [
                (name("href", Self.xlink, "xlink"), "#x"),
                (name("lang", MarkupWriter.xmlNamespace, "xml"), "en"),
                (name("title"), "T"),
            ])
        // An attribute in a namespace with no prefix, and one whose prefix the element binds elsewhere.
        writer.startElement(
            name("e", "urn:one", "p"),
            attributes: [(name("x", "urn:two"), "1"), (name("y", "urn:three", "p"), "2"), (name("z", Self.xlink), "3")])
        writer.endElement()
        writer.endElement()
        #expect(
            writer.string
                == ##"<a xmlns="http://www.w3.org/1999/xhtml" xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="#x" xml:lang="en" title="T">"##
                + #"<p:e xmlns:p="urn:one" xmlns:ns1="urn:two" xmlns:ns2="urn:three" ns1:x="1" ns2:y="2" xlink:z="3"/></a>"#)
    }

    @Test("text escapes & < > and carriage returns; attribute values also \" and whitespace characters")
    func escaping() {
        let writer = MarkupWriter()
        writer.startElement(name("q"), attributes: [(name("v"), "a\"b<c>&d\te\nf\rg 'h'")])
        text(writer, "1 < 2 && 3 > 2]]>\r\n\"quoted\" 'single' ü")
        writer.endElement()
        #expect(
            writer.string
                == #"<q v="a&quot;b&lt;c&gt;&amp;d&#9;e&#10;f&#13;g 'h'">1 &lt; 2 &amp;&amp; 3 &gt; 2]]&gt;&#13;"#
                + "\n\"quoted\" 'single' ü</q>")
        var sample = "a&<>\rz"
        let counted = sample.withUTF8 { writer.textCount(UnsafeRawBufferPointer($0)) }
        #expect(counted == 1 + 5 + 4 + 4 + 5 + 1)
    }

    @Test("names as written, without namespace processing: written unchanged, nothing declared")
    func namesAsWritten() {
        let writer = MarkupWriter()
        writer.startElement(name("x:a"), attributes: [(name("xmlns:x"), "urn:x"), (name("x:b"), "1")])
        writer.startElement(name("x:c"), attributes: [])
        text(writer, "t")
        writer.endElement()
        writer.endElement()
        #expect(writer.string == #"<x:a xmlns:x="urn:x" x:b="1"><x:c>t</x:c></x:a>"#)
        writer.removeAll()
        #expect(writer.string == "" && writer.count == 0)
    }
}

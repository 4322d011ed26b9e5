import Foundation
import SAXDispatchTestSupport
import SAXDispatchTools
import Testing

@testable import SAXDispatch

/// Transforms: a document copied through a writer while rules drop, keep, rename, edit and
/// replace what they match; exact output for each rule, namespaces kept as written, the
/// copy with no rule equal to the original in canonical form, held elements, errors.
@Suite("Transforming: copying a document through rules")
struct XMLTransformTests {
    /// What `transform` writes for `text`, without the XML declaration.
    static func transformed(_ text: String, _ transform: XMLTransform, chunkSize: Int? = nil) throws -> String {
        let collected = XMLWriterTests.Collected()
        var input = XMLInput.string(text)
        if let chunkSize { input.chunkSize = chunkSize }
        try transform.run(input, to: .writer(name: "memory") { collected }, options: XMLWriter.Options(writesDeclaration: false))
        return collected.string
    }

    static let catalog = """
        <?xml version="1.0"?>
        <!-- catalog -->
        <catalog xmlns:x="urn:x" x:v="1">
          <book id="b1" lang="en"><title>Dune</title><price cur="EUR">9</price><!-- c --></book>
          <book id="b2"><title>Emma</title><price>7</price><?pi data?></book>
          <note>n</note>
        </catalog>
        <?after x?>
        """

    @Test("with no rule the document is copied: the same canonical form, names, prefixes and declarations as written")
    func copiesThrough() throws {
        let copy = try Self.transformed(Self.catalog, XMLTransform())
        #expect(
            copy == """
                <!-- catalog --><catalog xmlns:x="urn:x" x:v="1">
                  <book id="b1" lang="en"><title>Dune</title><price cur="EUR">9</price><!-- c --></book>
                  <book id="b2"><title>Emma</title><price>7</price><?pi data?></book>
                  <note>n</note>
                </catalog><?after x?>
                """)
        let original = try CanonicalXML().canonicalize(Array(Self.catalog.utf8))
        #expect(try CanonicalXML().canonicalize(Array(copy.utf8)) == original)
    }

    @Test("a declaration only content uses stays: xsi:type values keep their prefixes bound")
    func keepsDeclarationsContentUses() throws {
        let soap = """
            <e:Envelope xmlns:e="urn:env" xmlns:xs="http://www.w3.org/2001/XMLSchema" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><e:Body><v xmlns="" xsi:type="xs:string">a</v>\
            <w xmlns="urn:d" xmlns:unused="urn:u"><y/></w></e:Body></e:Envelope>
            """
        #expect(try Self.transformed(soap, XMLTransform()) == soap)
        var asWritten = XMLTransform()
        asWritten.processesNamespaces = false
        #expect(try Self.transformed(soap, asWritten) == soap)
    }

    @Test("an element kept out of an ancestor that is not written declares the namespaces it needs")
    func keepsNamespacesOfAncestorsLeftOut() throws {
        let text = #"<r><w xmlns:p="urn:p" xmlns="urn:d"><p:i a="1" p:b="2"/><j/><k xmlns=""/></w></r>"#
        var transform = XMLTransform()
        transform.namespaces = ["p": "urn:p"]
        transform.keep("p:i")
        transform.keep("{urn:d}j")
        transform.keep("k")
        let result = try Self.transformed(text, transform)
        #expect(result == #"<r><p:i xmlns:p="urn:p" a="1" p:b="2"/><j xmlns="urn:d"/><k xmlns=""/></r>"#)
    }

    @Test("an attribute added to a copied start tag is checked against the attributes copied")
    func attributeAfterCopiedStartTag() throws {
        let collected = XMLWriterTests.Collected()
        let writer = try XMLWriter(to: .writer(name: "memory") { collected }, options: XMLWriter.Options(writesDeclaration: false))
        var refusals: [XMLWriterError.Code] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { element in
            try writer.startElement(copying: element)
            do {
                try writer.attribute("a", value: "again")
            } catch let error as XMLWriterError {
                refusals.append(error.code)
            }
            try writer.attribute("added", value: "yes")
        }
        dispatcher.onAnyEnd { _ in try writer.endElement() }
        try dispatcher.parse(.string(#"<r a="1"><e a="2" b="&quot;"/></r>"#))
        try writer.finish()
        #expect(refusals == [.invalidAttribute, .invalidAttribute])
        #expect(collected.string == #"<r a="1" added="yes"><e a="2" b="&quot;" added="yes"/></r>"#)
    }

    @Test("a copied start tag's declarations and prefixed attributes are in the writer's scope for what is added to it")
    func attributeAfterCopiedPrefixedStartTag() throws {
        let collected = XMLWriterTests.Collected()
        let writer = try XMLWriter(to: .writer(name: "memory") { collected }, options: XMLWriter.Options(writesDeclaration: false))
        var refusals: [XMLWriterError.Code] = []
        var dispatcher = Dispatcher()
        dispatcher.keepsNamespaceDeclarations = true
        dispatcher.onAnyStart { element in
            try writer.startElement(copying: element)
            guard element.localName == "e" else { return }
            for attempt in [
                { try writer.attribute("a", namespace: "urn:p", value: "again") },
                { try writer.attribute("q:a", namespace: "urn:p", value: "again") },
                { try writer.attribute("xmlns:p", value: "urn:other") },
            ] {
                do {
                    try attempt()
                } catch let error as XMLWriterError {
                    refusals.append(error.code)
                }
            }
            try writer.attribute("b", namespace: "urn:p", value: "added")
        }
        dispatcher.onAnyEnd { _ in try writer.endElement() }
        try dispatcher.parse(.string(#"<r xmlns:p="urn:p"><p:e xmlns:q="urn:q" p:a="1" q:a="2" xml:lang="en"/></r>"#))
        try writer.finish()
        #expect(refusals == [.invalidAttribute, .invalidAttribute, .invalidNamespace])
        #expect(
            collected.string
                == #"<r xmlns:p="urn:p"><p:e xmlns:q="urn:q" p:a="1" q:a="2" xml:lang="en" p:b="added"/></r>"#)
    }

    @Test("a start tag with attributes is copied as written when its bytes read back the same anywhere")
    func copiesStartTagsAsWritten() throws {
        // As written: spacing, quotes, references to characters and predefined entities.
        let plain = "<r><a  x = '1'\n y=\"&lt;&#65;&amp;\"/><p:b xmlns:p=\"urn:p\" p:c='2'>t</p:b></r>"
        #expect(try Self.transformed(plain, XMLTransform()) == plain)
        // From what the parse reported: an attribute defaulted or normalised by its type in
        // the DTD, a reference to a declared entity, a tag inside an entity's replacement text.
        let declared = """
            <!DOCTYPE r [<!ATTLIST a d CDATA "def" n NMTOKENS #IMPLIED><!ENTITY e "v&#38;#38;lue">\
            <!ENTITY t "<b x='in'/>">]><r><a  x = '1'/><a  n = ' 1   2 ' y='&e;'/>&t;<b y='&e;'/></r>
            """
        let copy = try Self.transformed(declared, XMLTransform())
        #expect(copy.hasSuffix(#"<r><a x="1" d="def"/><a n="1 2" y="v&amp;lue" d="def"/><b x="in"/><b y="v&amp;lue"/></r>"#))
        let entities = "<!DOCTYPE r [<!ENTITY e 'value'>]><r><a  y='&e;'/><b  z='&amp;'/></r>"
        #expect(try Self.transformed(entities, XMLTransform()).hasSuffix(#"<r><a y="value"/><b  z='&amp;'/></r>"#))
        // A document expat reads in another encoding than UTF-8.
        let latin1 = Array("<?xml version='1.0' encoding='ISO-8859-1'?><r  a = 'caf".utf8) + [0xE9] + Array("'/>".utf8)
        let collected = XMLWriterTests.Collected()
        try XMLTransform().run(
            .bytes(latin1), to: .writer(name: "memory") { collected }, options: XMLWriter.Options(writesDeclaration: false))
        #expect(collected.string == #"<r a="café"/>"#)
    }

    @Test("drop removes each match with its subtree; the rest is unchanged")
    func drops() throws {
        var transform = XMLTransform()
        transform.drop("book/price")
        transform.drop("note")
        #expect(
            try Self.transformed(Self.catalog, transform) == """
                <!-- catalog --><catalog xmlns:x="urn:x" x:v="1">
                  <book id="b1" lang="en"><title>Dune</title><!-- c --></book>
                  <book id="b2"><title>Emma</title><?pi data?></book>
                  \n</catalog><?after x?>
                """)
    }

    @Test("keep selects the matches inside the root: the root's own text and markup between them go; rules apply inside")
    func keeps() throws {
        var transform = XMLTransform()
        transform.keep("book")
        transform.drop("title")
        #expect(
            try Self.transformed(Self.catalog, transform) == """
                <!-- catalog --><catalog xmlns:x="urn:x" x:v="1"><book id="b1" lang="en"><price cur="EUR">9</price>\
                <!-- c --></book><book id="b2"><price>7</price><?pi data?></book></catalog><?after x?>
                """)
        var nested = XMLTransform()
        nested.keep("title")
        nested.keep("book[@id='b2']")
        #expect(
            try Self.transformed(Self.catalog, nested) == """
                <!-- catalog --><catalog xmlns:x="urn:x" x:v="1"><title>Dune</title><book id="b2"><title>Emma</title>\
                <price>7</price><?pi data?></book></catalog><?after x?>
                """)
    }

    @Test("with keep rules, the other rules act only on what is kept: no replacement, edit or held element outside it")
    func rulesActOnlyOnWhatIsKept() throws {
        var transform = XMLTransform()
        var edited: [String] = []
        transform.replace("note") { _, _, writer in try writer.element("replaced", text: "x") }
        transform.edit("book") { element, _ in edited.append(element.attributes["id"] ?? "") }
        transform.drop("title") { _ in true }
        transform.keep("book[@id='b2']")
        let result = try Self.transformed(Self.catalog, transform)
        let expected = #"<!-- catalog --><catalog xmlns:x="urn:x" x:v="1"><book id="b2"><price>7</price><?pi data?></book>"#
        #expect(result == expected + "</catalog><?after x?>")
        #expect(edited == ["b2"])
    }

    @Test("keep and drop with a condition decide at the element's end, from its children's text; the rest is taken back whole")
    func heldElements() throws {
        var transform = XMLTransform()
        transform.keep("book") { book in book.childText("price") == "7" }
        #expect(
            try Self.transformed(Self.catalog, transform) == """
                <!-- catalog --><catalog xmlns:x="urn:x" x:v="1"><book id="b2"><title>Emma</title><price>7</price>\
                <?pi data?></book></catalog><?after x?>
                """)
        var dropping = XMLTransform()
        dropping.drop("book") { book in book.attributes["lang"] == "en" || book.childText("title") == "Nothing" }
        #expect(
            try Self.transformed(Self.catalog, dropping, chunkSize: 7) == """
                <!-- catalog --><catalog xmlns:x="urn:x" x:v="1">
                  \n  <book id="b2"><title>Emma</title><price>7</price><?pi data?></book>
                  <note>n</note>
                </catalog><?after x?>
                """)
    }

    @Test("a held element larger than maximumHeldBytes ends the run with recordSizeLimitExceeded at its start tag")
    func heldElementLimit() throws {
        var transform = XMLTransform()
        transform.maximumHeldBytes = 100
        transform.keep("page") { _ in true }
        let text = "<r><page>small</page>\n<page>" + String(repeating: "x", count: 500) + "</page></r>"
        #expect {
            try Self.transformed(text, transform)
        } throws: { error in
            guard let error = error as? XMLParseError else { return false }
            return error.code == .recordSizeLimitExceeded && error.line == 2 && error.column == 1 && error.limit == 100
        }
    }

    @Test("rename: a local name keeps the namespace and prefix; {uri}local and prefix:local change it")
    func renames() throws {
        let text = #"<a:r xmlns:a="urn:a" xmlns:b="urn:b"><a:x k="1"/><y/><z/></a:r>"#
        var transform = XMLTransform()
        transform.rename("a:x", to: "renamed")
        transform.rename("y", to: "{urn:b}why")
        transform.rename("z", to: "b:zed")
        transform.namespaces = ["a": "urn:a"]
        #expect(
            try Self.transformed(text, transform)
                == #"<a:r xmlns:a="urn:a" xmlns:b="urn:b"><a:renamed k="1"/><b:why/><b:zed/></a:r>"#)
        var invalid = XMLTransform()
        invalid.rename("y", to: "no good")
        #expect(throws: XMLWriterError.self) { try Self.transformed(text, invalid) }
    }

    @Test("removeAttribute: by name in no namespace, by prefix as bound, by Clark name; from every element or the matches")
    func removesAttributes() throws {
        let text = #"<r xmlns:p="urn:p" id="1" p:id="2"><e id="3" p:id="4" xml:lang="en"/></r>"#
        var transform = XMLTransform()
        transform.removeAttribute("id")
        #expect(try Self.transformed(text, transform) == #"<r xmlns:p="urn:p" p:id="2"><e p:id="4" xml:lang="en"/></r>"#)
        var clark = XMLTransform()
        clark.removeAttribute("{urn:p}id", from: "e")
        clark.removeAttribute("xml:lang")
        #expect(try Self.transformed(text, clark) == #"<r xmlns:p="urn:p" id="1" p:id="2"><e id="3"/></r>"#)
        // A prefix the transform does not bind names the attribute as written, wherever the
        // element is; with a rename of the same elements.
        var written = XMLTransform()
        written.removeAttribute("p:id")
        written.rename("e", to: "f")
        #expect(try Self.transformed(text, written) == #"<r xmlns:p="urn:p" id="1"><f id="3" xml:lang="en"/></r>"#)
        var unprocessed = XMLTransform()
        unprocessed.processesNamespaces = false
        unprocessed.removeAttribute("p:id")
        unprocessed.rename("e", to: "g")
        #expect(try Self.transformed(text, unprocessed) == #"<r xmlns:p="urn:p" id="1"><g id="3" xml:lang="en"/></r>"#)
    }

    @Test("edit changes attributes and drops by what the element holds; rules apply in the order added")
    func edits() throws {
        var transform = XMLTransform()
        transform.edit("book") { element, edit in
            edit["id"] = edit["id"].map { $0.uppercased() }
            edit["seen"] = "yes"
            if element.attributes["lang"] == nil { edit.drop() }
        }
        transform.rename("book", to: "item")
        #expect(
            try Self.transformed(Self.catalog, transform) == """
                <!-- catalog --><catalog xmlns:x="urn:x" x:v="1">
                  <item id="B1" lang="en" seen="yes"><title>Dune</title><price cur="EUR">9</price><!-- c --></item>
                  \n  <note>n</note>
                </catalog><?after x?>
                """)
    }

    @Test("editText edits each run of an element's own text whole, however the input is split")
    func editsText() throws {
        var transform = XMLTransform()
        transform.editText("title") { _, title in "[\(title.uppercased())]" }
        transform.editText("p") { element, text in "\(element.name):\(text.count)" }
        let text = "<r><title>Dune &amp; more</title><p>ab<b>c</b>def<!--x-->g</p></r>"
        for chunkSize in [1, 3, 64] {
            #expect(
                try Self.transformed(text, transform, chunkSize: chunkSize)
                    == "<r><title>[DUNE &amp; MORE]</title><p>p:2<b>c</b>p:3<!--x-->p:1</p></r>")
        }
    }

    @Test("replace writes in place of each match once it was read, with its whole text")
    func replaces() throws {
        var transform = XMLTransform()
        transform.replace("price") { element, text, writer in
            try writer.element("cost", attributes: ["of": element.ancestor(at: 1) ?? ""], text: text + "00")
        }
        transform.replace("note") { _, _, _ in }
        #expect(
            try Self.transformed(Self.catalog, transform) == """
                <!-- catalog --><catalog xmlns:x="urn:x" x:v="1">
                  <book id="b1" lang="en"><title>Dune</title><cost of="book">900</cost><!-- c --></book>
                  <book id="b2"><title>Emma</title><cost of="book">700</cost><?pi data?></book>
                  \n</catalog><?after x?>
                """)
    }

    @Test("a malformed document ends the run with the parse error at its position; what a rule throws is a HandlerError")
    func errors() throws {
        #expect {
            try Self.transformed("<r><a></b></r>", XMLTransform())
        } throws: { error in
            guard let error = error as? XMLParseError else { return false }
            return error.line == 1 && error.column == 9
        }
        struct Refused: Error {}
        var transform = XMLTransform()
        transform.edit("a") { _, _ in throw Refused() }
        #expect {
            try Self.transformed("<r>\n <a/></r>", transform)
        } throws: { error in
            guard let error = error as? HandlerError else { return false }
            return error.underlying is Refused && error.line == 2 && error.column == 2
        }
    }

    @Test("a rule whose pattern matches nothing is a warning")
    func warnsAboutUnmatchedRules() throws {
        var transform = XMLTransform()
        transform.drop("titel")
        var warnings: [String] = []
        transform.onWarning { warnings.append($0.message) }
        _ = try Self.transformed(Self.catalog, transform)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("titel") == true)
    }
}

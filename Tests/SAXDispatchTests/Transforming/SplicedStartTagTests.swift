import Testing

@testable import SAXDispatch

/// Renames and attribute removals written from the document's bytes: the tag as written,
/// with a new name and without the attributes removed, each with the white space before it.
/// A declared attribute in the DTD keeps every tag off that path, so the same transform on
/// the same document with one is the oracle the spliced output is compared with.
@Suite("Transforming: start tags renamed or stripped as written")
struct SplicedStartTagTests {
    static func transformed(_ text: String, _ transform: XMLTransform, chunkSize: Int? = nil) throws -> String {
        try XMLTransformTests.transformed(text, transform, chunkSize: chunkSize)
    }

    /// A DTD that declares an attribute no element has: the tags are written from what the
    /// parse reported.
    static let declaringDTD = "<!DOCTYPE r [<!ATTLIST unused q CDATA #IMPLIED>]>"

    @Test("a removed attribute goes with the white space before it; spacing, quotes and references stay as written")
    func removesAsWritten() throws {
        var transform = XMLTransform()
        transform.removeAttribute("v")
        let cases: [(String, String)] = [
            (#"<r><a v="1" x='2'/></r>"#, #"<r><a x='2'/></r>"#),
            (#"<r><a x='2'  v="1"/></r>"#, #"<r><a x='2'/></r>"#),
            ("<r><a x='2'\tv=\"1\" y = \"&lt;3&#65;\" /></r>", #"<r><a x='2' y = "&lt;3&#65;" /></r>"#),
            ("<r><a\n  x='>/'\n  v='\"'\n>t</a></r>", "<r><a\n  x='>/'\n>t</a></r>"),
            (#"<r v="0"><a v="1"></a></r>"#, #"<r><a/></r>"#),
        ]
        for (input, expected) in cases {
            #expect(try Self.transformed(input, transform) == expected, "\(input)")
            #expect(try Self.transformed(input, transform, chunkSize: 3) == expected, "\(input) in chunks of 3")
        }
    }

    @Test("namespace declarations are copied, never taken for attributes; prefixed attributes are removed by namespace")
    func keepsDeclarations() throws {
        let text = #"<r xmlns:p="urn:p"><a xmlns="urn:d" p:v='1'  v="2" xmlns:q="urn:q" q:w="3"/></r>"#
        var byNamespace = XMLTransform()
        byNamespace.removeAttribute("{urn:p}v")
        byNamespace.removeAttribute("{urn:q}w")
        #expect(try Self.transformed(text, byNamespace) == #"<r xmlns:p="urn:p"><a xmlns="urn:d"  v="2" xmlns:q="urn:q"/></r>"#)
        var unprefixed = XMLTransform()
        unprefixed.removeAttribute("v")
        #expect(
            try Self.transformed(text, unprefixed) == #"<r xmlns:p="urn:p"><a xmlns="urn:d" p:v='1' xmlns:q="urn:q" q:w="3"/></r>"#)
    }

    @Test("a rename writes the new local name after the prefix, in the start and the end tag, with the tag's bytes")
    func renamesAsWritten() throws {
        var transform = XMLTransform()
        transform.rename("a", to: "b")
        transform.rename("*:c", to: "d")
        transform.removeAttribute("x", from: "a")
        let text = #"<r xmlns:p="urn:p"><a  x="1" y='2'>t</a><p:c xmlns:q="urn:q" q:z = "3"/><p:c>u</p:c><c/></r>"#
        #expect(
            try Self.transformed(text, transform)
                == #"<r xmlns:p="urn:p"><b y='2'>t</b><p:d xmlns:q="urn:q" q:z = "3"/><p:d>u</p:d><d/></r>"#)
    }

    @Test("without namespace processing names are as written; a tag with a colon in a name is written as reported")
    func withoutNamespaces() throws {
        var transform = XMLTransform()
        transform.processesNamespaces = false
        transform.removeAttribute("w")
        transform.removeAttribute("p:v")
        transform.rename("a", to: "e")
        let text = #"<r><a w="1" v='2'/><a v='3'  w="4"/><a p:v="1" v='2'/></r>"#
        #expect(try Self.transformed(text, transform) == #"<r><e v='2'/><e v='3'/><e v="2"/></r>"#)
    }

    @Test("random tags: the spliced output reads as the output written from what the parse reported", arguments: 0..<4)
    func matchesReportedPath(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed &+ 71)
        let spaces = [" ", "  ", "\n", "\t", " \n "]
        let names = ["a", "v", "p:v", "q:w", "id", "xmlns:q", "xmlns", "long-name.x"]
        let values = ["1", "&lt;", "a>b", "x/y", "&#x20AC;", "", "'", "\""]
        var body = ""
        for index in 0..<60 {
            var seen = Set<String>()
            body += "<e\(index % 3)"
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                let name = names.randomElement(using: &random) ?? "a"
                guard seen.insert(name).inserted else { continue }
                var value = name == "xmlns" ? "urn:d" : name == "xmlns:q" ? "urn:q" : values.randomElement(using: &random) ?? ""
                if name == "q:w" && !seen.contains("xmlns:q") { continue }
                let quote = value.contains("\"") ? "'" : value.contains("'") ? "\"" : Bool.random(using: &random) ? "'" : "\""
                if value.isEmpty && Bool.random(using: &random) { value = "0" }
                body += (spaces.randomElement(using: &random) ?? " ") + name
                body += Bool.random(using: &random) ? "=" : " = "
                body += quote + value + quote
            }
            body += (spaces.randomElement(using: &random) ?? "")
            body += Bool.random(using: &random) ? "/>" : ">t</e\(index % 3)>"
        }
        let document = #"<r xmlns:p="urn:p">"# + body + "</r>"
        var transforms: [XMLTransform] = []
        for removed in ["v", "{urn:p}v", "{urn:q}w", "id"] {
            var transform = XMLTransform()
            transform.removeAttribute(removed)
            transform.rename("e1", to: "renamed")
            transforms.append(transform)
        }
        var fromMatches = XMLTransform()
        fromMatches.removeAttribute("a", from: "e2")
        fromMatches.removeAttribute("{urn:p}v", from: "e2")
        transforms.append(fromMatches)
        for transform in transforms {
            let spliced = try Self.transformed(document, transform)
            let reported = try Self.transformed(Self.declaringDTD + document, transform)
            #expect(try XMLWriterTests.events(spliced) == XMLWriterTests.events(reported))
            #expect(try Self.transformed(document, transform, chunkSize: 5) == spliced)
        }
    }
}

/// What a writer keeps of the names it copied (``CopiedNameCache``) describes the names
/// their ids have now: the documents of a concatenated input give their ids to other names.
@Suite("Writing: names copied from one parse after another")
struct CopiedNameCacheTests {
    @Test("a writer copying start tags from concatenated documents writes each document's own names")
    func namesOfLaterDocuments() throws {
        let collected = XMLWriterTests.Collected()
        let writer = try XMLWriter(to: .writer(name: "memory") { collected }, options: XMLWriter.Options(writesDeclaration: false))
        try writer.startElement("all")
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { element in try writer.startElement(copying: element) }
        dispatcher.onAnyEnd { _ in try writer.endElement() }
        let documents = "<a><b/><c x='1'/></a><p><q/><r x='2'/><b/></p><b><b/></b>"
        try dispatcher.parse(XMLInput.string(documents).concatenatedDocuments())
        try writer.endElement()
        try writer.finish()
        #expect(collected.string == "<all><a><b/><c x='1'/></a><p><q/><r x='2'/><b/></p><b><b/></b></all>")
    }
}

import Foundation
import SAXDispatchTestSupport
import SAXDispatchTools
import Testing

@testable import SAXDispatch

/// The streaming writer: what it writes, byte for byte; what it refuses, leaving the
/// document able to go on; namespaces; indentation; its outputs.
@Suite("Writing: the streaming XML writer")
struct XMLWriterTests {
    /// A writer of the bytes it is handed, kept for the test; counts the writes.
    final class Collected: XMLOutputWriter, @unchecked Sendable {
        var bytes: [UInt8] = []
        var writes = 0
        var largestWrite = 0
        var closed = 0
        func write(_ buffer: UnsafeRawBufferPointer) throws {
            bytes += buffer
            writes += 1
            largestWrite = max(largestWrite, buffer.count)
        }
        func close() throws { closed += 1 }
        var string: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// What `body` writes, as a string (no XML declaration unless `declaration`).
    static func written(
        _ options: XMLWriter.Options = XMLWriter.Options(writesDeclaration: false), _ body: (XMLWriter) throws -> Void
    ) throws -> String {
        let collected = Collected()
        let writer = try XMLWriter(to: .writer(name: "memory") { collected }, options: options)
        try body(writer)
        try writer.finish()
        #expect(collected.closed == 1)
        return collected.string
    }

    /// The elements, attributes and text a parse with namespaces reads from `text`.
    static func events(_ text: String) throws -> [String] {
        var events: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { element in
            let attributes = element.attributes.map { "{\($0.namespaceURI ?? "")}\($0.localName)=\($0.value)" }.sorted()
            events.append("<{\(element.namespaceURI ?? "")}\(element.localName) \(attributes.joined(separator: " "))>")
        }
        dispatcher.onAnyText { _, chunk in events.append("text \(chunk.string)") }
        dispatcher.onAnyEnd { element in events.append("</\(element.localName)>") }
        try dispatcher.parse(.string(text))
        return events
    }

    @Test("a document, byte for byte, with the XML declaration")
    func document() throws {
        let text = try Self.written(.compact) { writer in
            try writer.startElement("feed", attributes: ["version": "2"])
            try writer.element("title", text: "Zoo & friends")
            try writer.startElement("empty")
            try writer.endElement("empty")
            try writer.comment(" a comment ")
            try writer.processingInstruction("render", "fast")
            try writer.endElement()
        }
        #expect(
            text == #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
                + #"<feed version="2"><title>Zoo &amp; friends</title><empty/><!-- a comment --><?render fast?></feed>"#)
    }

    @Test("escaping: text, attribute values and CDATA sections read back as written")
    func escaping() throws {
        let value = "a\"b<c>d&e\tf\ng\rh 'i'"
        let content = "x ]]> y < & > \r\n z ]]]]>"
        let text = try Self.written { writer in
            try writer.startElement("r", attributes: ["v": value])
            try writer.text(content)
            try writer.startElement("c")
            try writer.cdata(content)
            try writer.endElement()
            try writer.endElement()
        }
        #expect(text.contains(#"v="a&quot;b&lt;c&gt;d&amp;e&#9;f&#10;g&#13;h 'i'""#))
        #expect(text.contains("<![CDATA[x ]]]]><![CDATA[> y"))
        var values: [String] = []
        var texts: [String: String] = [:]
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { if $0.name == "r" { values.append($0.attributes["v"] ?? "") } }
        dispatcher.onAnyEnd(text: .own, whitespace: .preserve) { element, text in texts[element.name] = text }
        try dispatcher.parse(.string(text))
        #expect(values == [value])
        #expect(texts["r"] == content)
        #expect(texts["c"] == content)
    }

    @Test("refusals: each with its code, and nothing written, so the document goes on")
    func refusals() throws {
        let collected = Collected()
        let writer = try XMLWriter(to: .writer(name: "memory") { collected }, options: XMLWriter.Options(writesDeclaration: false))
        func refused(_ code: XMLWriterError.Code, _ call: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
            let error = #expect(throws: XMLWriterError.self, sourceLocation: sourceLocation) { try call() }
            #expect(error?.code == code, sourceLocation: sourceLocation)
            #expect(error?.output == "memory", sourceLocation: sourceLocation)
        }
        refused(.outsideRootElement) { try writer.text("before the root") }
        refused(.unfinishedDocument) { try writer.finish() }
        refused(.mismatchedEndTag) { try writer.endElement() }
        refused(.invalidName) { try writer.startElement("1st") }
        refused(.invalidName) { try writer.startElement("a b") }
        refused(.invalidName) { try writer.startElement("a:b:c") }
        refused(.invalidNamespace) { try writer.startElement("p:r") }
        try writer.startElement("r", attributes: ["id": "1"])
        refused(.invalidAttribute) { try writer.attribute("id", value: "2") }
        refused(.invalidCharacter) { try writer.attribute("x", value: "\u{0}") }
        refused(.invalidCharacter) { try writer.text("bell \u{7}") }
        refused(.invalidCharacter) { try writer.text("\u{FFFE}") }
        refused(.invalidCharacter) { try [UInt8]([0x61, 0xC0, 0x80]).withUnsafeBytes { try writer.text($0) } }
        refused(.invalidCharacter) { try [UInt8]([0xED, 0xA0, 0x80]).withUnsafeBytes { try writer.text($0) } }
        refused(.invalidCharacter) { try writer.startElement("a", attributes: ["v": "\u{1B}"]) }
        refused(.invalidComment) { try writer.comment("a -- b") }
        refused(.invalidComment) { try writer.comment("ends with -") }
        refused(.invalidProcessingInstruction) { try writer.processingInstruction("XmL", "x") }
        refused(.invalidProcessingInstruction) { try writer.processingInstruction("p", "a ?> b") }
        refused(.invalidName) { try writer.processingInstruction("p:q") }
        refused(.invalidNamespace) { try writer.startElement("x", attributes: ["xmlns:p": ""]) }
        refused(.invalidNamespace) { try writer.startElement("x", attributes: ["xmlns:xmlns": "urn:x"]) }
        refused(.invalidNamespace) { try writer.startElement("x", attributes: ["xmlns:xml": "urn:x"]) }
        refused(.invalidAttribute) { try writer.startElement("x", attributes: ["a": "1", "a": "2"]) }
        refused(.invalidAttribute) {
            try writer.startElement("x", attributes: ["xmlns:p": "urn:p", "xmlns:q": "urn:p", "p:a": "1", "q:a": "2"])
        }
        refused(.mismatchedEndTag) { try writer.endElement("other") }
        try writer.text("text")
        refused(.invalidAttribute) { try writer.attribute("late", value: "1") }
        refused(.unfinishedDocument) { try writer.finish() }
        try writer.endElement("r")
        // White space outside the root is written as it is: no reference may stand there.
        try writer.text("\r\n")
        refused(.outsideRootElement) { try writer.startElement("second") }
        refused(.outsideRootElement) { try writer.cdata("x") }
        try writer.finish()
        refused(.unfinishedDocument) { try writer.comment("after the end") }
        refused(.unfinishedDocument) { try Array("late".utf8).withUnsafeBytes { try writer.text($0) } }
        // Nothing refused was written: the output is the document that went on.
        #expect(collected.string == "<r id=\"1\">text</r>\r\n")
        #expect(try Self.events(collected.string) == ["<{}r {}id=1>", "text text", "</r>"])
    }

    @Test("namespaces: declared where needed, prefixes reused in scope, chosen for attributes given only a URI")
    func namespaces() throws {
        let atom = "http://www.w3.org/2005/Atom"
        let xlink = "http://www.w3.org/1999/xlink"
        let text = try Self.written { writer in
            try writer.startElement("feed", namespace: atom)
            try writer.startElement("entry", namespace: atom)
            try writer.attribute("href", namespace: xlink, value: "a")
            try writer.attribute("xl:title", namespace: xlink, value: "b")
            try writer.startElement("media:content", namespace: "urn:media", attributes: ["url": "u"])
            try writer.startElement("plain", namespace: "")
            try writer.endElement()
            try writer.endElement()
            try writer.startElement("link", namespace: xlink)
            try writer.endElement()
            try writer.startElement("x:id", attributes: ["xmlns:x": "urn:x", "x:n": "1", "xml:lang": "en"])
            try writer.endElement()
            try writer.endElement()
            try writer.endElement()
        }
        #expect(
            text
                == #"<feed xmlns="http://www.w3.org/2005/Atom"><entry xmlns:ns1="http://www.w3.org/1999/xlink" ns1:href="a" "#
                + #"xmlns:xl="http://www.w3.org/1999/xlink" xl:title="b"><media:content xmlns:media="urn:media" url="u">"#
                + #"<plain xmlns=""/></media:content><xl:link/><x:id xmlns:x="urn:x" x:n="1" xml:lang="en"/></entry></feed>"#)
        #expect(
            try Self.events(text) == [
                "<{\(atom)}feed >", "<{\(atom)}entry {\(xlink)}href=a {\(xlink)}title=b>", "<{urn:media}content {}url=u>",
                "<{}plain >", "</plain>", "</content>", "<{\(xlink)}link >", "</link>",
                "<{urn:x}id {http://www.w3.org/XML/1998/namespace}lang=en {urn:x}n=1>", "</id>", "</entry>", "</feed>",
            ])
    }

    @Test("an element in a namespace whose own attributes declare another default namespace gets a prefix (a fuzzer's find)")
    func defaultNamespaceDeclaredByTheAttributes() throws {
        let text = try Self.written { writer in
            try writer.startElement("r", namespace: "urn:r")
            try writer.startElement("e", namespace: "urn:p", attributes: ["xmlns": "", "a": "1"])
            try writer.element("child", text: "x")
            try writer.endElement()
            try writer.endElement()
        }
        #expect(text == #"<r xmlns="urn:r"><ns1:e xmlns:ns1="urn:p" xmlns="" a="1"><child>x</child></ns1:e></r>"#)
        #expect(try Self.events(text) == ["<{urn:r}r >", "<{urn:p}e {}a=1>", "<{}child >", "text x", "</child>", "</e>", "</r>"])
    }

    @Test("a prefix a name in the tag uses is never declared again there for another namespace (a fuzzer's find)")
    func prefixInUseInTheTag() throws {
        // ns1 is bound to urn:q above; the tag's first attribute uses it. An attribute in
        // urn:p written as ns1:… must not rebind ns1 on the same tag.
        let text = try Self.written { writer in
            try writer.startElement("r", namespace: "urn:q", attributes: ["xmlns:ns1": "urn:q"])
            try writer.startElement("x", namespace: nil)
            try writer.attribute("ns1:e", namespace: "urn:q", value: "1")
            try writer.attribute("ns1:e", namespace: "urn:p", value: "2")
            try writer.endElement()
            try writer.startElement("ns1:y", namespace: "urn:q", attributes: ["ns1:e": "3"])
            try writer.attribute("ns1:f", namespace: "urn:p", value: "4")
            try writer.endElement()
            try writer.endElement()
        }
        let events = try Self.events(text)
        #expect(events.contains("<{}x {urn:p}e=2 {urn:q}e=1>"), "\(text)")
        #expect(events.contains("<{urn:q}y {urn:p}f=4 {urn:q}e=3>"), "\(text)")
        // Given both in one call, too.
        let together = try Self.written { writer in
            try writer.startElement("r", namespace: "urn:q", attributes: [])
            try writer.attribute("xmlns:ns1", value: "urn:q")
            try writer.startElement(
                "x", namespace: nil,
                attributes: [
                    ElementAttributes.Attribute(name: "ns1:e", value: "1", namespaceURI: "urn:q"),
                    ElementAttributes.Attribute(name: "ns1:e", value: "2", namespaceURI: "urn:p"),
                ])
            try writer.endElement()
            try writer.endElement()
        }
        #expect(try Self.events(together).contains("<{urn:q}x {urn:p}e=2 {urn:q}e=1>"), "\(together)")
    }

    @Test("indentation: elements on lines of their own, never inside an element with text")
    func indentation() throws {
        let text = try Self.written(XMLWriter.Options(indentation: 2)) { writer in
            try writer.startElement("zoo")
            try writer.startElement("animal", attributes: ["id": "1"])
            try writer.element("name", text: "Ëlsa")
            try writer.startElement("note")
            try writer.text("mixed ")
            try writer.element("b", text: "content")
            try writer.endElement()
            try writer.startElement("empty")
            try writer.endElement()
            try writer.endElement()
            try writer.comment(" end ")
            try writer.endElement()
        }
        #expect(
            text == """
                <?xml version="1.0" encoding="UTF-8"?>
                <zoo>
                  <animal id="1">
                    <name>Ëlsa</name>
                    <note>mixed <b>content</b></note>
                    <empty/>
                  </animal>
                  <!-- end -->
                </zoo>

                """)
    }

    @Test("outputs: a file, a pipe, and a writer of one's own handed the bytes in chunks of about chunkSize")
    func outputs() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(getpid()).xml").path
        defer { unlink(path) }
        let toFile = try XMLWriter(to: .file(path))
        try toFile.element("r", text: "é")
        try toFile.finish()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<r>é</r>")

        var pipe: [Int32] = [0, 0]
        #expect(Glibc.pipe(&pipe) == 0)
        let toPipe = try XMLWriter(to: .fileDescriptor(pipe[1]), options: XMLWriter.Options(writesDeclaration: false))
        try toPipe.element("p", text: "x")
        try toPipe.finish()
        close(pipe[1])
        var read = [UInt8](repeating: 0, count: 64)
        let count = Glibc.read(pipe[0], &read, 64)
        close(pipe[0])
        #expect(String(decoding: read.prefix(max(0, count)), as: UTF8.self) == "<p>x</p>")

        let collected = Collected()
        var output = XMLOutput.writer(name: "chunks") { collected }
        output.chunkSize = 4096
        let writer = try XMLWriter(to: output)
        try writer.startElement("records")
        for index in 0..<20_000 { try writer.element("record", attributes: ["id": "\(index)"], text: "value \(index)") }
        try writer.endElement()
        try writer.finish()
        #expect(collected.writes > 100)
        #expect(collected.largestWrite < 4096 + 1024)
        var records = 0
        var dispatcher = Dispatcher()
        dispatcher.onStart("record") { _ in records += 1 }
        try dispatcher.parse(.bytes(collected.bytes))
        #expect(records == 20_000)

        let unwritable = #expect(throws: XMLWriterError.self) { try XMLWriter(to: .file("/nonexistent/dir/out.xml")) }
        #expect(unwritable?.code == .outputFailed)
        #expect(unwritable?.errorNumber == ENOENT)
    }

    /// What copying the document at `path` through the writer gives: the original's
    /// canonical form and the copy's, or the writer's refusal, or `nil` for a document
    /// the writer cannot be judged on (a DOCTYPE with notations, which it does not write).
    enum Copy {
        case copied(original: [UInt8], copy: [UInt8])
        case refused(String)
    }

    static func copy(_ path: String) throws -> Copy? {
        let original = try CanonicalXML().canonicalize(.file(path))
        // The Sun form lists notations in a DOCTYPE, which the writer does not write.
        guard !original.starts(with: Array("<!DOCTYPE".utf8)) else { return nil }
        let collected = Collected()
        let writer = try XMLWriter(to: .writer(name: path) { collected })
        var dispatcher = Dispatcher()
        dispatcher.processesNamespaces = false
        dispatcher.onAnyStart { element in
            try writer.startElement(element.name, namespace: nil, attributes: element.attributes)
        }
        dispatcher.onAnyText { _, chunk in try chunk.withUnsafeBytes { try writer.text($0) } }
        dispatcher.onAnyEnd { _ in try writer.endElement() }
        dispatcher.onComment { try writer.comment($0) }
        dispatcher.onProcessingInstruction { try writer.processingInstruction($0, $1) }
        do {
            try dispatcher.parse(.file(path))
            try writer.finish()
        } catch let error as HandlerError where error.underlying is XMLWriterError {
            return .refused("\(error.underlying)")
        }
        return .copied(original: original, copy: try CanonicalXML().canonicalize(collected.bytes))
    }

    /// Checks that `paths` copy through to their canonical forms, and that the writer
    /// refuses only documents that are not namespace-well-formed (which a parse with
    /// namespaces rejects too); returns how many were copied.
    static func checkCopies(_ paths: [String]) throws -> Int {
        var copied = 0
        for path in paths {
            switch try copy(path) {
            case .copied(let original, let copy):
                #expect(copy == original, "\(path)")
                copied += 1
            case .refused(let reason):
                var namespaced = Dispatcher()
                namespaced.processesNamespaces = true
                #expect((try? namespaced.parse(.file(path))) == nil, "\(path) refused: \(reason)")
            case nil:
                break
            }
        }
        return copied
    }

    @Test(
        "round trips: every valid standalone document of xmltest, copied through the writer, has the original's canonical form",
        .enabled(if: TestPaths.conformanceSuite != nil, TestPaths.conformanceSuiteMissing))
    func roundTrips() throws {
        let suite = try #require(TestPaths.conformanceSuite)
        let directory = suite.appendingPathComponent("xmltest/valid/sa")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".xml") }.sorted()
        #expect(try Self.checkCopies(files.map { directory.appendingPathComponent($0).path }) > 100)
    }

    @Test(
        "round trips: the adversarial corpus's well-formed documents, copied through the writer, have the original's canonical form",
        .enabled(if: AdversarialCorpus.shared != nil, TestPaths.adversarialGeneratorMissing))
    func adversarialRoundTrips() throws {
        let corpus = try #require(AdversarialCorpus.shared)
        let paths = corpus.cases.filter { $0.expectedDefault == .ok }.map(\.url.path).filter {
            ((try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) ?? .max) <= 2 << 20
        }
        #expect(try Self.checkCopies(paths) > 10)
    }
}

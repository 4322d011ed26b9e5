import Foundation
import SAXDispatch
import SAXDispatchCompression
import SAXDispatchTestSupport
import Testing

/// The code of WritingXML.md, verbatim.
@Suite("Article: Writing XML")
struct WritingXMLArticleTests {
    struct Animal {
        let id: String
        let name: String
    }

    final class Collected: XMLOutputWriter, @unchecked Sendable {
        var bytes: [UInt8] = []
        func write(_ buffer: UnsafeRawBufferPointer) throws { bytes += buffer }
        var string: String { String(decoding: bytes, as: UTF8.self) }
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid()).xml").path
    }

    @Test("a zoo written to a file, indented")
    func zoo() throws {
        let path = Self.temporaryPath("article-zoo")
        defer { unlink(path) }
        let animals = [Animal(id: "1", name: "Ëlsa"), Animal(id: "2", name: "Tom & Jerry")]
        let writer = try XMLWriter(to: .file(path), options: .indented)
        try writer.startElement("zoo")
        for animal in animals {
            try writer.startElement("animal", attributes: ["id": animal.id])
            try writer.element("name", text: animal.name)
            try writer.endElement()
        }
        try writer.endElement()
        try writer.finish()
        #expect(
            try String(contentsOfFile: path, encoding: .utf8) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <zoo>
                  <animal id="1">
                    <name>Ëlsa</name>
                  </animal>
                  <animal id="2">
                    <name>Tom &amp; Jerry</name>
                  </animal>
                </zoo>

                """)

        // Refusals leave the document able to go on.
        let collected = Collected()
        let other = try XMLWriter(to: .writer(name: "memory") { collected })
        try other.startElement("r")
        try refusal(other)
        try other.endElement()
        try other.finish()
        #expect(collected.string.hasSuffix("<r><!--a - b--></r>"))
    }

    func refusal(_ writer: XMLWriter) throws {
        do {
            try writer.comment("a -- b")
        } catch let error as XMLWriterError where error.code == .invalidComment {
            try writer.comment("a - b")
        }
    }

    @Test("namespaces declared from URIs")
    func namespaces() throws {
        let collected = Collected()
        let feed = try XMLWriter(to: .writer(name: "feed") { collected }, options: XMLWriter.Options(writesDeclaration: false))
        let atom = "http://www.w3.org/2005/Atom"
        try feed.startElement("feed", namespace: atom)          // <feed xmlns="http://www.w3.org/2005/Atom">
        try feed.startElement("entry", namespace: atom)         // <entry>
        try feed.attribute("lang", namespace: "http://www.w3.org/XML/1998/namespace", value: "en")  // xml:lang="en"
        try feed.element("media:title", namespace: "urn:media", text: "Lions")  // declares xmlns:media
        try feed.endElement()
        try feed.endElement()
        try feed.finish()
        #expect(
            collected.string
                == #"<feed xmlns="http://www.w3.org/2005/Atom"><entry xml:lang="en"><media:title xmlns:media="urn:media">Lions</media:title></entry></feed>"#
        )
    }

    @Test("a document copied through keeps its names, namespaces and content")
    func copy() throws {
        let path = Self.temporaryPath("article-copy-source")
        defer { unlink(path) }
        let source = #"<?xml version="1.0"?><a:feed xmlns:a="urn:a" xmlns="urn:d"><entry a:id="1" x="y">t &amp; u<![CDATA[<c>]]><!-- c --><?p d?></entry></a:feed>"#
        _ = FileManager.default.createFile(atPath: path, contents: Data(source.utf8))
        let collected = Collected()
        let copy = try XMLWriter(to: .writer(name: "copy") { collected }, options: XMLWriter.Options(writesDeclaration: false))
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { element in try copy.startElement(copying: element) }
        dispatcher.onAnyText { _, chunk in try copy.text(chunk.string) }
        dispatcher.onAnyEnd { _ in try copy.endElement() }
        dispatcher.onComment { try copy.comment($0) }
        dispatcher.onProcessingInstruction { try copy.processingInstruction($0, $1) }
        try dispatcher.parse(.file(path))
        try copy.finish()
        #expect(
            collected.string
                == #"<a:feed xmlns:a="urn:a"><entry xmlns="urn:d" a:id="1" x="y">t &amp; u&lt;c&gt;<!-- c --><?p d?></entry></a:feed>"#)
    }

    @Test("compressed output reads back as the document written")
    func compressedOutput() throws {
        let gzipPath = Self.temporaryPath("article-compressed") + ".gz"
        defer { unlink(gzipPath) }
        let compressed = try XMLWriter(to: XMLOutput.file(gzipPath).compressed(.gzip))
        try compressed.element("r", text: "gzip")
        try compressed.finish()
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("r") { _, text in texts.append(text) }
        try dispatcher.parse(.decompressing(.file(gzipPath)))
        #expect(texts == ["gzip"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: gzipPath)).prefix(2) == Data([0x1F, 0x8B]))
    }
}

import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import SAXDispatchTools
import Testing

/// The code of TransformingDocuments.md, verbatim, on the zoo fixture and a small dump.
@Suite("Article: Transforming documents")
struct TransformingDocumentsArticleTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid()).xml").path
    }

    static func contents(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test("no rule: the copy has the canonical form of the original")
    func copy() throws {
        let path = TestPaths.fixture("zoo.xml").path
        let copyPath = Self.temporaryPath("article-copy")
        defer { unlink(copyPath) }
        try XMLTransform().run(.file(path), to: .file(copyPath))
        #expect(try CanonicalXML().canonicalize(.file(copyPath)) == CanonicalXML().canonicalize(.file(path)))
    }

    @Test("keep the animals, without their nested nonsense")
    func keepAndDrop() throws {
        let path = TestPaths.fixture("zoo.xml").path
        let animalsPath = Self.temporaryPath("article-animals")
        defer { unlink(animalsPath) }
        var transform = XMLTransform()
        transform.keep("animal")
        transform.drop("animal/nested_nonsense")
        try transform.run(.file(path), to: .file(animalsPath))
        let written = try Self.contents(animalsPath)
        #expect(written.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<zoo><animal>\n            <kind>cat</kind>"))
        #expect(!written.contains("nested_nonsense") && !written.contains("toilet"))
        #expect(written.components(separatedBy: "<animal>").count == 3)
    }

    @Test("the articles of a dump, held until their namespace is read")
    func articles() throws {
        let dumpPath = FileManagerTemp.write(
            """
            <mediawiki><page><title>A</title><ns>0</ns><revision><text>long</text></revision></page>
            <page><title>Talk:A</title><ns>1</ns><revision><text>talk</text></revision></page></mediawiki>
            """, name: "article-dump-\(getpid()).xml")
        let articlesPath = Self.temporaryPath("article-articles")
        defer {
            unlink(dumpPath)
            unlink(articlesPath)
        }
        var articles = XMLTransform()
        articles.keep("page") { page in page.childText("ns") == "0" }
        articles.drop("revision/text")
        try articles.run(.file(dumpPath), to: .file(articlesPath))
        #expect(
            try Self.contents(articlesPath) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <mediawiki><page><title>A</title><ns>0</ns><revision/></page></mediawiki>
                """)
    }

    @Test("rename, remove, edit and edit text, in the order added")
    func cleanup() throws {
        let path = FileManagerTemp.write(
            #"<zoo><animal id="1"><kind>cat</kind></animal><archive><animal><kind>dodo</kind></animal></archive></zoo>"#,
            name: "article-cleanup-\(getpid()).xml")
        let cleanPath = Self.temporaryPath("article-clean")
        defer {
            unlink(path)
            unlink(cleanPath)
        }
        var cleanup = XMLTransform()
        cleanup.rename("animal", to: "creature")
        cleanup.removeAttribute("id")
        cleanup.edit("animal") { element, edit in
            edit["legs"] = "4"
            if element.isInside("archive") { edit.drop() }
        }
        cleanup.editText("kind") { _, kind in kind.uppercased() }
        try cleanup.run(.file(path), to: .file(cleanPath))
        #expect(
            try Self.contents(cleanPath) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <zoo><creature legs="4"><kind>CAT</kind></creature><archive/></zoo>
                """)
    }

    @Test("replace the toilet by a facility with its text")
    func replace() throws {
        let path = TestPaths.fixture("zoo.xml").path
        let facilitiesPath = Self.temporaryPath("article-facilities")
        defer { unlink(facilitiesPath) }
        var prices = XMLTransform()
        prices.replace("toilet") { element, text, writer in
            try writer.element("facility", attributes: ["kind": element.name], text: text)
        }
        try prices.run(.file(path), to: .file(facilitiesPath))
        let written = try Self.contents(facilitiesPath)
        #expect(written.contains("<facilities>\n        <facility kind=\"toilet\">42</facility>\n        <disabled_parking>"))
    }
}

import SAXDispatch
import Testing

@Suite("Namespaces: typed records")
struct NamespaceRecordTests {
    struct Entry: Equatable {
        var title: String
        var link: String?
    }

    static let entry = XMLRecord(
        "atom:entry", .text("atom:title"), .optional(.text("atom:link[@rel='alternate']/@href"))
    ) { Entry(title: $0, link: $1) }
    .namespaces(["atom": AtomSpellings.atom])

    @Test("a record with bindings reads every spelling alike, and no decoy", arguments: AtomSpellings.all)
    func spellings(_ document: String) throws {
        #expect(try Self.entry.all(in: .string(document)) == [Entry(title: "One", link: "/1"), Entry(title: "Two", link: nil)])
    }

    @Test("the same through a dispatcher, fed byte by byte", arguments: AtomSpellings.all)
    func throughDispatcher(_ document: String) throws {
        var entries: [Entry] = []
        var dispatcher = Dispatcher()
        dispatcher.onRecord(Self.entry) { entries.append($0) }
        let parser = PushParser(dispatcher)
        try parser.feed(Array(document.utf8), inPiecesOf: 1)
        _ = try parser.finish()
        #expect(entries == [Entry(title: "One", link: "/1"), Entry(title: "Two", link: nil)])
    }

    @Test("Clark names in field paths, URIs with slashes included")
    func clarkFields() throws {
        let record = XMLRecord(
            "{http://www.w3.org/2005/Atom}entry", .text("{http://www.w3.org/2005/Atom}title"),
            .optional(.text("{http://www.w3.org/2005/Atom}link/@href"))
        ) { Entry(title: $0, link: $1) }
        for document in AtomSpellings.all {
            #expect(try record.all(in: .string(document)) == [Entry(title: "One", link: "/1"), Entry(title: "Two", link: "/2")])
        }
    }

    struct Feed: Equatable {
        var title: String
        var entries: [Entry]
    }

    @Test("nested records inherit their parent's bindings, and add their own")
    func nested() throws {
        let entry = XMLRecord("a:entry", .text("a:title"), .optional(.text("b:link/@href"))) { Entry(title: $0, link: $1) }
            .namespaces(["b": AtomSpellings.atom])
        let feed = XMLRecord("/a:feed", .text("a:title"), .many("a:entry", entry)) { Feed(title: $0, entries: $1) }
            .namespaces(["a": AtomSpellings.atom])
        for document in AtomSpellings.all {
            #expect(
                try feed.first(in: .string(document))
                    == Feed(title: "Feed", entries: [Entry(title: "One", link: "/1"), Entry(title: "Two", link: "/2")]))
        }
    }

    @Test("namespaced attribute fields: bound, Clark, xml:, and the xsi:nil convention with any prefix")
    func attributes() throws {
        struct Link: Equatable {
            var href: String
            var lang: String?
            var title: String?
        }
        let document = """
            <r xmlns:L="http://www.w3.org/1999/xlink" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">\
            <link L:href="/a" xml:lang="en"><title>A</title></link>\
            <link L:href="/b"><title i:nil="true"/></link></r>
            """
        let record = XMLRecord(
            "link", .text("@xlink:href"), .optional(.text("@xml:lang")), .optional(.text("title"))
        ) { Link(href: $0, lang: $1, title: $2) }
        .namespaces(["xlink": "http://www.w3.org/1999/xlink"])
        #expect(
            try record.all(in: .string(document)) == [
                Link(href: "/a", lang: "en", title: "A"), Link(href: "/b", lang: nil, title: nil),
            ])
        let clark = XMLRecord("link", .text("@{http://www.w3.org/1999/xlink}href")) { $0 }
        #expect(try clark.all(in: .string(document)) == ["/a", "/b"])
    }

    @Test("a legacy document reads with namespace processing off")
    func legacy() throws {
        let record = XMLRecord("x:item", .text("x:name")) { $0 }
        let document = "<r><x:item><x:name>a</x:name></x:item></r>"
        #expect(throws: XMLParseError.self) { try record.all(in: .string(document)) }
        #expect(try record.processingNamespaces(false).all(in: .string(document)) == ["a"])
    }
}

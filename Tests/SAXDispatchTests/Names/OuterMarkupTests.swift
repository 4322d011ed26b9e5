import SAXDispatch
import Testing

@Suite("Outer markup: an element as a fragment that stands alone")
struct OuterMarkupTests {
    @Test("each spelling's entry is written with the declarations it needs, and parses again alone")
    func spellings() throws {
        let record = XMLRecord("atom:entry", .outerMarkup(".")) { $0 }.namespaces(["atom": AtomSpellings.atom])
        let expected = [
            #"<entry xmlns="http://www.w3.org/2005/Atom"><title>One</title><link rel="alternate" href="/1"/>"#,
            #"<atom:entry xmlns:atom="http://www.w3.org/2005/Atom"><atom:title>One</atom:title>"#,
            #"<a9:entry xmlns:a9="http://www.w3.org/2005/Atom"><a9:title>One</a9:title>"#,
        ]
        for (document, start) in zip(AtomSpellings.all, expected) {
            let fragments = try record.all(in: .string(document))
            #expect(fragments.count == 2)
            #expect(fragments[0].hasPrefix(start), "\(fragments[0])")
            // Each fragment stands alone, and reads as the same entry.
            for fragment in fragments {
                var titles: [String] = []
                var dispatcher = Dispatcher()
                dispatcher.namespaces = ["atom": AtomSpellings.atom]
                dispatcher.onEnd("/atom:entry/atom:title") { _, text in titles.append(text) }
                try dispatcher.parse(.string(fragment))
                #expect(titles.count == 1)
            }
        }
    }

    @Test("attributes in other namespaces, text escaped, an empty element, fed whole and byte by byte")
    func details() throws {
        let document = #"<r xmlns:x="urn:x"><e x:k="a&quot;b" plain="1">1 &lt; 2 <![CDATA[&]]><!-- c --><?p d?><x:f/></e></r>"#
        let record = XMLRecord("e", .outerMarkup(".")) { $0 }
        let expected = #"<e xmlns:x="urn:x" x:k="a&quot;b" plain="1">1 &lt; 2 &amp;<x:f/></e>"#
        #expect(try record.all(in: .string(document)) == [expected])
        var pieces: [String] = []
        try record.forEach(in: .pieces(document, of: 1)) {
            pieces.append($0)
        }
        #expect(pieces == [expected])
        #expect(try XMLRecord("x:f", .outerMarkup(".")) { $0 }.all(in: .string(document)) == [#"<x:f xmlns:x="urn:x"/>"#])
    }
}

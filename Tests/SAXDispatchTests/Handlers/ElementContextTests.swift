import SAXDispatch
import SAXDispatchTestSupport
import Testing

@Suite("Attributes, ancestors and positions")
struct ElementContextTests {
    @Test("attribute lookup, iteration in document order, count")
    func attributes() throws {
        var seen: [[ElementAttributes.Attribute]] = []
        var lookups: [String?] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("border") { element in
            let attributes = element.attributes
            seen.append(Array(attributes))
            lookups.append(attributes["type"])
            lookups.append(attributes["missing"])
            #expect(attributes.count == seen.last?.count)
            #expect(attributes.contains("type"))
            #expect(!attributes.contains("typ"))
            #expect(!attributes.contains("types"))
        }
        dispatcher.onStart("kind") { element in
            lookups.append(element.attributes["a"])
            lookups.append(element.attributes["c"])
            #expect(element.attributes[1] == .init(name: "b", value: "  spaces   kept  "))
            #expect(element.attributes.dictionary == ["a": "tab\tnl\ncr\r", "b": "  spaces   kept  ", "c": "line break"])
        }
        dispatcher.onEnd("border") { element in
            #expect(element.attributes.isEmpty)
        }
        try dispatcher.parse(.file(TestPaths.fixture("attributes.xml")))
        #expect(seen.count == 2)
        #expect(seen[0].map(\.name) == ["type", "id", "x:note"])
        #expect(seen[0].map(\.value) == ["internal", "b1", "a & b"])
        #expect(seen[1] == [.init(name: "type", value: "external")])
        #expect(lookups == ["internal", nil, "external", nil, "tab\tnl\ncr\r", "line break"])
    }

    @Test("defaulted attributes from the internal subset are reported")
    func defaultedAttributes() throws {
        var languages: [String?] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("book") { languages.append($0.attributes["lang"]) }
        try dispatcher.parse(.file(TestPaths.fixture("doctype.xml")))
        #expect(languages == ["en", "fr"])
    }

    @Test("depth, ancestors, path and isInside")
    func ancestors() throws {
        var checked = 0
        var dispatcher = Dispatcher()
        dispatcher.onStart("name") { element in
            #expect(element.depth == 5)
            #expect(element.name == "name")
            #expect(element.ancestor(at: 0) == "name")
            #expect(element.ancestor(at: 1) == "nested_nonsense")
            #expect(element.ancestor(at: 4) == "zoo")
            #expect(element.ancestor(at: 5) == nil)
            #expect(element.ancestor(at: -1) == nil)
            #expect(element.ancestors == ["nested_nonsense", "animal", "animals", "zoo"])
            #expect(element.path == ["zoo", "animals", "animal", "nested_nonsense", "name"])
            #expect(element.path.description == "zoo/animals/animal/nested_nonsense/name")
            #expect(element.isInside("animal"))
            #expect(!element.isInside("name"))
            #expect(!element.isInside("facilities"))
            #expect(!element.isInside("never-seen"))
            checked += 1
        }
        dispatcher.onEnd("zoo") { element in
            #expect(element.depth == 1)
            #expect(element.ancestors.isEmpty)
            #expect(element.ancestor(at: 1) == nil)
            checked += 1
        }
        try dispatcher.parse(.file(TestPaths.fixture("zoo.xml")))
        #expect(checked == 3)
    }

    @Test("start and end handlers see the start tag's line, column and byte offset")
    func positions() throws {
        var positions: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("b") { positions.append("start \($0.line):\($0.column)+\($0.byteOffset)") }
        dispatcher.onEnd("b") { positions.append("end \($0.line):\($0.column)+\($0.byteOffset)") }
        try dispatcher.parse(.string("<a>\n  é <b>x\n</b>\n<b/></a>"))
        #expect(positions == ["start 2:5+9", "end 2:5+9", "start 4:1+19", "end 4:1+19"])
    }

    @Test("a start-only route reports the same positions")
    func startOnlyPositions() throws {
        var positions: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("b") { positions.append("\($0.line):\($0.column)+\($0.byteOffset)") }
        try dispatcher.parse(.string("<a>\n  é <b>x\n</b>\n<b/></a>"))
        #expect(positions == ["2:5+9", "4:1+19"])
    }

    @Test("a context consulted later, while its element is still open, still reports its own start tag")
    func positionOfAnOpenAncestor() throws {
        var outer: ElementContext?
        var reported: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("a") { outer = $0 }
        dispatcher.onStart("b") { inner in
            if let outer { reported.append("\(outer.line):\(outer.column) \(inner.line):\(inner.column)") }
        }
        try dispatcher.parse(.string("<r>\n <a>\n   <b/></a></r>"))
        #expect(reported == ["2:2 3:4"])
    }

    @Test("processing instructions, comments, doctype and notations")
    func otherEvents() throws {
        var events: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onProcessingInstruction { events.append("pi \($0) \($1)") }
        dispatcher.onComment { events.append("comment \($0)") }
        dispatcher.onDoctype { events.append("doctype \($0.name) \($0.hasInternalSubset)") }
        dispatcher.onNotationDeclaration { events.append("notation \($0.name) \($0.systemID ?? "-")") }
        try dispatcher.parse(.string("<?a b?><!DOCTYPE r [<!NOTATION n SYSTEM 'x'><?c d?><!--e-->]><r><!--f--><?g?></r>"))
        #expect(events == ["pi a b", "doctype r true", "notation n x", "pi c d", "comment e", "comment f", "pi g "])
    }

    @Test("encodings: UTF-16 and ISO-8859-1 reach handlers as UTF-8")
    func encodings() throws {
        var names: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onEnd("name") { _, text in names.append(text) }
        try dispatcher.parse(.file(TestPaths.fixture("utf16le.xml")))
        try dispatcher.parse(.file(TestPaths.fixture("latin1.xml")))
        #expect(names == ["café 漢", "café über"])
    }
}

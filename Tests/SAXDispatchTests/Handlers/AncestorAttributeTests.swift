import SAXDispatch
import Testing

@Suite("Attributes of ancestors declared of interest")
struct AncestorAttributeTests {
    static let map = """
        <map version="2">
          <border type="internal" id="b1"><path>a</path>
            <border type="inner"><path>b</path></border>
            <path>c</path>
          </border>
          <border><path>d</path></border>
          <region><border type="regional"><path>e</path></border></region>
          <path>f</path>
        </map>
        """

    @Test("a handler reads the declared attributes of its nearest matching ancestor")
    func nearestAncestor() throws {
        let lines = try dispatchLog(Self.map) { dispatcher, log in
            dispatcher.retainAttributes("type", of: "border")
            dispatcher.retainAttributes("version", of: "/map")
            dispatcher.onEnd("path") { element, text in
                let type = element.ancestorAttribute("type", of: "border") ?? "-"
                let id = element.ancestorAttribute("id", of: "border") ?? "-"  // not declared
                let version = element.ancestorAttribute("version") ?? "-"
                log("\(text) \(type) \(id) \(version)")
            }
        }
        #expect(lines == ["a internal - 2", "b inner - 2", "c internal - 2", "d - - 2", "e regional - 2", "f - - 2"])
    }

    @Test("the declaration follows patterns, and an element's own attributes are not its ancestors'")
    func patternsAndSelf() throws {
        let lines = try dispatchLog(Self.map) { dispatcher, log in
            dispatcher.retainAttributes("type", "id", of: "/map/border")
            dispatcher.onStart("border") { element in
                log("border sees \(element.ancestorAttribute("type") ?? "-")")
            }
            dispatcher.onEnd("path") { element, text in
                log("\(text) \(element.ancestorAttribute("type", of: "border") ?? "-") \(element.ancestorAttribute("id") ?? "-")")
            }
        }
        #expect(
            lines == [
                "border sees -", "a internal b1", "border sees internal", "b internal b1", "c internal b1",
                "border sees -", "d - -", "border sees -", "e - -", "f - -",
            ])
    }

    @Test("keeping attributes is not handling: the catch-all still sees the element; skipped subtrees keep nothing")
    func catchAllAndSkipping() throws {
        let lines = try dispatchLog(Self.map) { dispatcher, log in
            dispatcher.retainAttributes("type", of: "border")
            dispatcher.onAnyStart { element in
                if element.name == "border" { log("other border") }
            }
            dispatcher.onStart("region") { $0.skipSubtree() }
            dispatcher.onEnd("path") { element, text in log("\(text) \(element.ancestorAttribute("type") ?? "-")") }
        }
        #expect(
            lines == [
                "other border", "a internal", "other border", "b inner", "c internal", "other border", "d -", "f -",
            ])
    }

    @Test("attributes kept by a path pattern on an element only the catch-all handles")
    func pathPatternWithCatchAll() throws {
        let lines = try dispatchLog(Self.map) { dispatcher, log in
            dispatcher.retainAttributes("type", of: "/map/border")
            dispatcher.onAnyStart { element in
                if element.name == "path" { log("\(element.ancestorAttribute("type", of: "border") ?? "-")") }
            }
        }
        #expect(lines == ["internal", "internal", "internal", "-", "-", "-"])
    }

    @Test("a mounted set's declarations are relative to its mount point")
    func mounted() throws {
        let lines = try dispatchLog(Self.map) { dispatcher, log in
            var set = Dispatcher()
            set.retainAttributes("type", of: "border")
            set.onEnd("path") { element, text in log("\(text) \(element.ancestorAttribute("type") ?? "-")") }
            dispatcher.mount(set, at: "region")
        }
        #expect(lines == ["e regional"])
    }
}

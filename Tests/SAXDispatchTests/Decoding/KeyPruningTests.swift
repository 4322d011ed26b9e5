import Foundation
import Testing

@testable import SAXDispatch

@Suite("Decodable: only what the type reads is captured")
struct KeyPruningTests {
    struct Tag: Decodable, Equatable {
        let k: String
        let v: String
    }

    struct Node: Decodable, Equatable {
        let id: Int
        let tag: [Tag]
        let meta: Meta?
    }

    struct Meta: Decodable, Equatable {
        let user: String
    }

    enum Kind: String, Decodable, CaseIterable { case a, b }

    func schema<T: Decodable>(_ type: T.Type, _ options: XMLRecordDecoder = XMLRecordDecoder()) -> KeySchema? {
        DecodingSession(T.self, options: options).schemaForNextElement()
    }

    @Test("the probe learns the children a synthesized conformance reads, nested and in lists")
    func probe() throws {
        let node = try #require(schema(Node.self))
        #expect(node.childNames == ["id", "tag", "meta"])
        #expect(node.captures("tag") && !node.captures("nd"))
        #expect(node.captures(attribute: "id") && !node.captures(attribute: "lat"))
        let tag = try #require(node.schema(ofChild: "tag"))
        #expect(tag.childNames == ["k", "v"])
        #expect(tag.readsAnyChildAsItem)
        #expect(node.schema(ofChild: "meta")?.childNames == ["user"])
    }

    @Test("a CaseIterable enum keeps the probe going; another enum makes its record capture everything")
    func enums() throws {
        struct WithCaseIterable: Decodable {
            let kind: Kind
            let name: String
        }
        enum Plain: String, Decodable { case x }
        struct WithPlain: Decodable {
            let kind: Plain
            let name: String
        }
        #expect(schema(WithCaseIterable.self)?.childNames == ["kind", "name"])
        #expect(schema(WithPlain.self) == nil)
    }

    @Test("allKeys, recursion, and pruning switched off capture everything")
    func captureEverything() throws {
        struct Dynamic: Decodable {
            init(from decoder: any Decoder) throws {
                _ = try decoder.container(keyedBy: AnyKey.self).allKeys
            }
        }
        final class Tree: Decodable {
            let child: [Tree]
        }
        var off = XMLRecordDecoder()
        off.keyPruning = .off
        #expect(schema(Dynamic.self) == nil)
        #expect(schema(Node.self, off) == nil)
        // A recursive type is probed to a depth, and captured whole below it.
        var level = try #require(schema(Tree.self))
        var depth = 0
        while !level.capturesEverything, let next = level.schema(ofChild: "child") {
            level = next
            depth += 1
        }
        #expect(level.capturesEverything)
        #expect(depth > 3)
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test("children nobody reads are not captured, and the values are the same as with everything captured")
    func pruned() throws {
        let xml = """
            <osm>
              <node id="1"><tag k="highway" v="stop"/><nd ref="9"/><junk><deep>x</deep></junk></node>
              <node id="2"><meta><user>ann</user><extra>e</extra></meta></node>
            </osm>
            """
        var elementCounts: [Int] = []
        var nodes: [Node] = []
        var dispatcher = Dispatcher()
        let session = DecodingSession(Node.self, options: XMLRecordDecoder())
        let capture = SubtreeCapture(
            subtree: session.subtree, rootSchema: { session.schemaForNextElement() }, limit: 1 << 20, whitespace: .trim
        ) { subtree, root in
            func captured(_ element: Int) -> Int {
                1 + subtree.children(of: element).reduce(0) { $0 + captured($1) }
            }
            elementCounts.append(captured(root))
            nodes.append(try session.decode(Node.self, root: root, reusing: ElementDecoder.Slot()))
        }
        dispatcher.mount(capture.handlers(), at: "node")
        try dispatcher.parse(.string(xml))
        #expect(elementCounts == [2, 3])  // node+tag; node+meta+user
        var off = XMLRecordDecoder()
        off.keyPruning = .off
        #expect(try off.all(Node.self, at: "node", in: .string(xml)) == nodes)
        #expect(nodes == [
            Node(id: 1, tag: [Tag(k: "highway", v: "stop")], meta: nil), Node(id: 2, tag: [], meta: Meta(user: "ann")),
        ])
    }

    @Test("a key the probe never saw fails that element with a message, and is captured from the next one on")
    func valueDependentKeys() throws {
        struct Shape: Decodable, Equatable {
            let size: Double
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                let kind = try container.decode(String.self, forKey: AnyKey(stringValue: "kind"))
                size = try container.decode(Double.self, forKey: AnyKey(stringValue: kind == "circle" ? "radius" : "side"))
            }
        }
        let xml = """
            <shapes><shape><kind>square</kind><side>2</side></shape>
            <shape><kind>circle</kind><radius>1.5</radius></shape>
            <shape><kind>circle</kind><radius>3</radius></shape></shapes>
            """
        var sizes: [Double] = []
        do {
            try XMLRecordDecoder().forEach(Shape.self, at: "shape", in: .string(xml)) { sizes.append($0.size) }
            Issue.record("decoded a key that was not captured")
        } catch let error as XMLDecodingError {
            guard case .keyNotFound(let key, let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(key.stringValue == "radius")
            #expect(context.debugDescription.contains("<radius> was not captured"), "\(context.debugDescription)")
            #expect(context.debugDescription.contains("keyPruning = .off"))
            // The position is stated once.
            #expect(error.description.hasPrefix("<string>:2:1: error: <radius> was not captured at shapes/shape:"), "\(error)")
            #expect(error.description.components(separatedBy: "<string>:2:1").count == 2, "\(error)")
        }
        #expect(sizes == [2])
        // Within one parse, the elements after the failure have the key.
        var dispatcher = Dispatcher()
        var failures = 0
        sizes = []
        dispatcher.onDecoded(Shape.self, at: "shape") { sizes.append($0.size) }
        for _ in 0..<2 {
            do { try dispatcher.parse(.string(xml)) } catch { failures += 1 }
        }
        #expect(failures == 1)
        #expect(sizes == [2, 2, 1.5, 3])
        var off = XMLRecordDecoder()
        off.keyPruning = .off
        #expect(try off.all(Shape.self, at: "shape", in: .string(xml)).map(\.size) == [2, 1.5, 3])
    }

    @Test("keys named by the data: a bounded number is learned one at a time, then the elements are captured whole")
    func keysFromTheData() throws {
        // Each setting reads the child its `name` attribute names: a new name in every record.
        struct Setting: Decodable {
            let value: String?
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                let name = try container.decode(String.self, forKey: AnyKey(stringValue: "name"))
                value = try? container.decode(String.self, forKey: AnyKey(stringValue: name))
            }
        }
        let count = 600
        let xml = "<settings>" + (0..<count).map { "<s name=\"k\($0)\"><k\($0)>v\($0)</k\($0)></s>" }.joined() + "</settings>"
        let values = try XMLRecordDecoder().all(Setting.self, at: "s", in: .string(xml)).map(\.value)
        #expect(values.count == count)
        // Each new name fails its record (the value is nil) until the schema has learned the
        // most it learns name by name; from then on the elements are captured whole. Values
        // wait in batches of 64 before they are decoded, so learning lags by up to a batch.
        let missing = values.filter { $0 == nil }.count
        #expect(missing >= DecodingSession.maximumLearnedNames && missing <= DecodingSession.maximumLearnedNames + 128)
        let settled = min(count, missing + 64)
        #expect(values.suffix(count - settled) == (settled..<count).map { "v\($0)" })
        #expect(settled < count - 300)

        let session = DecodingSession(Setting.self, options: XMLRecordDecoder())
        let schema = try #require(session.schemaForNextElement())
        let probed = schema.childNames.count
        #expect(!schema.capturesEverything)
        for index in 0..<100 { session.learn(.child(KeyName(stringLiteral: "k\(index)")), in: schema) }
        #expect(session.schemaForNextElement() === schema)
        #expect(schema.capturesEverything)
        #expect(schema.childNames.count == probed + DecodingSession.maximumLearnedNames)

        // A name learned again (once per record of a held batch) counts once.
        let again = DecodingSession(Setting.self, options: XMLRecordDecoder())
        let once = try #require(again.schemaForNextElement())
        for _ in 0..<100 { again.learn(.child("x"), in: once) }
        _ = again.schemaForNextElement()
        for _ in 0..<100 { again.learn(.attribute("id"), in: once) }
        again.learn(.child("y"), in: once)
        _ = again.schemaForNextElement()
        #expect(!once.capturesEverything)
        #expect(once.captures("x") && once.captures("y") && once.captures(attribute: "id"))
        #expect(once.learnedNameCount == 3)
    }

    @Test("key lookups: the first names are kept, the rest computed each time, with the same answers")
    func boundedLookups() {
        struct Model: Decodable {}
        let session = DecodingSession(Model.self, options: XMLRecordDecoder())
        let fresh = DecodingSession(Model.self, options: XMLRecordDecoder())
        for round in 0..<2 {
            for index in 0..<1_000 {
                let key = AnyKey(stringValue: index % 3 == 0 ? "@a\(index)" : "b\(index)/c")
                #expect(session.lookup(key) == fresh.lookup(key), "round \(round), key \(key.stringValue)")
            }
        }
        #expect(session.cachedLookupCount == DecodingSession.maximumCachedLookups)
    }

    @Test("listing an element's keys or children that the capture left out fails like a key it left out, then learns")
    func listingsOfPrunedElements() throws {
        // Reads its other children only for a custom setting, through allKeys.
        struct Setting: Decodable, Equatable {
            let kind: String
            let extras: [String: String]
            init(kind: String, extras: [String: String]) {
                self.kind = kind
                self.extras = extras
            }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                kind = try container.decode(String.self, forKey: AnyKey(stringValue: "kind"))
                var extras: [String: String] = [:]
                if kind == "custom" {
                    for key in container.allKeys where key.stringValue != "kind" {
                        extras[key.stringValue] = try container.decode(String.self, forKey: key)
                    }
                }
                self.extras = extras
            }
        }
        let settings = """
            <settings><setting><kind>plain</kind><color>blue</color></setting>\
            <setting><kind>custom</kind><color>red</color><size>3</size></setting></settings>
            """
        // Reads a list of its children only when it has no <single>.
        struct Values: Decodable, Equatable {
            let values: [String]
            enum Keys: String, CodingKey { case single }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                if container.contains(.single) {
                    values = [try container.decode(String.self, forKey: .single)]
                } else {
                    var list = try decoder.unkeyedContainer()
                    var values: [String] = []
                    while !list.isAtEnd { values.append(try list.decode(String.self)) }
                    self.values = values
                }
            }
        }
        let lists = "<r><values><single>a</single></values><values><v>b</v><v>c</v></values></r>"
        var off = XMLRecordDecoder()
        off.keyPruning = .off
        #expect(
            try off.all(Setting.self, at: "setting", in: .string(settings)) == [
                Setting(kind: "plain", extras: [:]), Setting(kind: "custom", extras: ["color": "red", "size": "3"]),
            ])
        #expect(try off.all(Values.self, at: "values", in: .string(lists)).map(\.values) == [["a"], ["b", "c"]])

        let pruning = XMLRecordDecoder()
        let parses: [() throws -> Void] = [
            { _ = try pruning.forEach(Setting.self, at: "setting", in: .string(settings)) { _ in } },
            { _ = try pruning.forEach(Values.self, at: "values", in: .string(lists)) { _ in } },
        ]
        for parse in parses {
            do {
                try parse()
                Issue.record("listed keys or children that were not captured")
            } catch let error as XMLDecodingError {
            guard case .dataCorrupted(let context) = error.underlying else { Issue.record("\(error)"); return }
                #expect(context.debugDescription.contains("was not captured"), "\(context.debugDescription)")
                #expect(context.debugDescription.contains("keyPruning = .off"))
            }
        }
        // Within one parse, the elements after the failure are captured whole.
        var dispatcher = Dispatcher()
        var failures = 0
        var seen: [Setting] = []
        dispatcher.onDecoded(Setting.self, at: "setting") { seen.append($0) }
        for _ in 0..<2 {
            do { try dispatcher.parse(.string(settings)) } catch { failures += 1 }
        }
        #expect(failures == 1)
        #expect(seen.last == Setting(kind: "custom", extras: ["color": "red", "size": "3"]))
    }

    @Test("an optional value the probe cannot build is captured whole; the rest keeps its pruning and its lists")
    func optionalValueTheProbeCannotBuild() throws {
        struct Meta: Decodable, Equatable { let id: UUID? }
        struct Author: Decodable, Equatable { let name: String }
        struct Post: Decodable, Equatable { let meta: Meta?; let author: [Author] }
        let xml = """
            <posts><post><meta><id>6F9619FF-8B86-D011-B42D-00C04FC964FF</id></meta>\
            <author><name>Ann</name></author><junk><x/></junk></post>\
            <post><author><name>Bob</name></author><author><name>Cy</name></author></post></posts>
            """
        let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")
        let decoder = XMLRecordDecoder()
        let posts = try decoder.all(Post.self, at: "post", in: .string(xml))
        #expect(
            posts == [
                Post(meta: Meta(id: id), author: [Author(name: "Ann")]),
                Post(meta: nil, author: [Author(name: "Bob"), Author(name: "Cy")]),
            ])
        let schema = KeyProbe.schema(
            of: Post.self, session: DecodingSession(Post.self, options: decoder), processesNamespaces: true)
        #expect(!schema.capturesEverything)
        #expect(!schema.captures("junk"))
    }
}

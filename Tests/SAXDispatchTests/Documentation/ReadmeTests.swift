import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// The README's quick start, verbatim, so it cannot silently rot.
@Suite("README")
struct ReadmeTests {
    @Test("the quick start runs and gives what the README says")
    func quickStart() throws {
        let zooPath = TestPaths.fixture("zoo.xml").path
        // --- README quick start (with "zoo.xml" replaced by the fixture's path) ---
        struct Animal: Equatable { let kind: String; let name: String }
        struct BadValue: Error { let text: String }

        var animals: [Animal] = []
        var kind = "", name = ""
        var toilets = 0

        var dispatcher = Dispatcher()
        dispatcher.onEnd("kind") { _, text in kind = text }
        dispatcher.onEnd("nested_nonsense/name") { _, text in name = text }
        dispatcher.onEnd("animal") { _ in animals.append(Animal(kind: kind, name: name)) }
        dispatcher.onEnd("toilet") { _, text in
            guard let count = Int(text) else { throw BadValue(text: text) }
            toilets = count
        }
        try dispatcher.parse(.file(zooPath))
        // --- end of the quick start ---
        #expect(animals == [Animal(kind: "cat", name: "grumpy"), Animal(kind: "dog", name: "i have no idea what i'm doing")])
        #expect(toilets == 42)
    }

    @Test("the README's namespaces example matches Atom in any spelling")
    func namespaces() throws {
        var printed: [String] = []
        func print(_ items: String...) { printed.append(items.joined(separator: " ")) }
        var dispatcher = Dispatcher()
        // --- README "Routing", namespaces ---
        dispatcher.namespaces = ["atom": "http://www.w3.org/2005/Atom"]
        dispatcher.onEnd("atom:entry/atom:title") { element, title in
            print(element.prefix ?? "(default)", element.namespaceURI ?? "-", title)
        }
        // --- end ---
        try dispatcher.parse(.string(#"<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>A</title></entry></feed>"#))
        try dispatcher.parse(.string(#"<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:entry><a:title>B</a:title></a:entry></a:feed>"#))
        #expect(printed == ["(default) http://www.w3.org/2005/Atom A", "a http://www.w3.org/2005/Atom B"])
        // The whole-text line of the README's "Text".
        var whole: [String] = []
        var text = Dispatcher()
        text.onEnd("p", text: .whole) { _, text in whole.append(text) }
        try text.parse(.string("<p>a <b>b</b> c</p>"))
        #expect(whole == ["a b c"])
    }

    @Test("the README's typed-records example builds the zoo")
    func typedRecords() throws {
        let zooPath = TestPaths.fixture("zoo.xml").path
        // --- README "Typed records" (with "zoo.xml" replaced by the fixture's path) ---
        struct Animal { let kind: String; let name: String; let url: URL }
        struct Zoo { let animals: [Animal]; let toiletCount: Int; let disabledParking: Bool }

        let animal = XMLRecord("animal",
            .text("kind"),
            .text("nested_nonsense/name"),
            .value("url", as: URL.self)
        ) { Animal(kind: $0, name: $1, url: $2) }

        let zoo = XMLRecord("/zoo",
            .many("animals/animal", animal),
            .value("facilities/toilet", as: Int.self).named("toiletCount"),
            .value("facilities/disabled_parking", as: Bool.self, default: false)
        ) { Zoo(animals: $0, toiletCount: $1, disabledParking: $2) }

        let model = try zoo.first(in: .file(zooPath))
        var names: [String] = []
        try animal.forEach(in: .file(zooPath)) { names.append($0.name) }
        let all = try animal.all(in: .file(zooPath))
        // --- end ---
        #expect(model.animals.map(\.kind) == ["cat", "dog"])
        #expect(model.toiletCount == 42 && model.disabledParking)
        #expect(names == ["grumpy", "i have no idea what i'm doing"])
        #expect(all.map(\.url.absoluteString) == ["http://en.wikipedia.org/wiki/Grumpy_Cat", "http://knowyourmeme.com/memes/i-have-no-idea-what-im-doing"])
    }

    @Test("the README's run-time fields example reads a feed under a safety profile")
    func runtimeFields() throws {
        let userPath = "title"
        let body = Array("<rss><item id='7'><title>Hello</title></item></rss>".utf8)
        var rows: [[String]] = []
        // --- README "Typed records", fields chosen at run time ---
        enum Cell: Sendable { case text(String), number(Int) }
        let columns: [RecordField<Cell>] = [
            RecordField.text(try RecordFieldPath(userPath).description).map { .text($0) },
            RecordField.value("@id", as: Int.self).map { .number($0) }.named("id"),
        ]
        let row = XMLRecord("item", fields: columns) { $0 }
        try row.forEach(in: .bytes(body).named("feed.xml"), safety: .strict) { cells in rows.append(cells.map { "\($0)" }) }
        // --- end ---
        #expect(rows == [["text(\"Hello\")", "number(7)"]])
    }

    @Test("the README's error example renders as shown")
    func errorExample() {
        let error = #expect(throws: XMLParseError.self) {
            var dispatcher = Dispatcher()
            dispatcher.onEnd("kind") { _, _ in }
            let parser = PushParser(dispatcher, source: "zoo.xml")
            try parser.feed("<zoo>\n  <animals>\n    <animal>\n    </animals>")
            try parser.finish()
        }
        #expect(error?.description == "zoo.xml:4:7: error: mismatched tag (in zoo/animals/animal)")
        #expect(error?.code == .tagMismatch)
    }

    @Test("the security section's profile example compiles and means what it says")
    func profileExample() throws {
        var dispatcher = Dispatcher()
        dispatcher.safety = .strict
        dispatcher.safety.maximumDepth = 64
        dispatcher.safety.maximumTextBytes = .atMost(1 << 30)
        dispatcher.safety.maximumAttributes = .unlimited
        #expect(!dispatcher.safety.allowsInternalSubset)
        #expect(dispatcher.safety.maximumEntityDeclarations == SafetyProfile.default.maximumEntityDeclarations)

        let deep = #expect(throws: XMLParseError.self) {
            try dispatcher.parse(.string(String(repeating: "<a>", count: 65)))
        }
        #expect(deep?.code == .depthLimitExceeded)
        #expect(deep?.limit == 64)
        let subset = #expect(throws: XMLParseError.self) {
            try dispatcher.parse(.string("<!DOCTYPE r [<!ENTITY e 'x'>]><r>&e;</r>"))
        }
        #expect(subset?.code == .internalSubsetForbidden)
        let manyAttributes = (0..<2000).map { "a\($0)='1'" }.joined(separator: " ")
        try dispatcher.parse(.string("<r \(manyAttributes)/>"))

        let text = String(repeating: "t", count: 11 << 20)
        var coalescing = Dispatcher()
        coalescing.onEnd("r") { _, _ in }
        let bigText = #expect(throws: XMLParseError.self) { try coalescing.parse(.string("<r>\(text)</r>")) }
        #expect(bigText?.description == "<string>:1:1: error: the text of <r> is longer than maximumTextBytes (10485760) (in r)")
        var streamed = 0
        var streaming = Dispatcher()
        streaming.onText("r") { _, chunk in streamed += chunk.count }
        try streaming.parse(.string("<r>\(text)</r>"))
        #expect(streamed == text.utf8.count)
    }

    @Test("the README's handler-set example mounts one set at two points")
    func handlerSets() throws {
        // --- README handler sets ---
        struct User: Equatable { var id = "", name = "" }

        /// Handlers for a user-like element, wherever it is mounted.
        func userHandlers(_ found: @escaping (User) -> Void) -> Dispatcher {
            var user = User()
            var set = Dispatcher()
            set.onStart(.mountPoint) { element in user = User(id: element.attributes["id"] ?? "") }
            set.onEnd("/name") { _, text in user.name = text }
            set.onEnd(.mountPoint) { _ in found(user) }
            return set
        }

        var authors: [User] = [], commenters: [User] = []
        var dispatcher = Dispatcher()
        dispatcher.mount(userHandlers { authors.append($0) }, at: "post/author")
        dispatcher.mount(userHandlers { commenters.append($0) }, at: "comment/author")
        // --- end ---
        try dispatcher.parse(
            .string("""
            <post><author id="1"><name>Ann</name></author>
              <comment><author id="2"><name>Bo</name><pet><name>Rex</name></pet></author></comment></post>
            """))
        #expect(authors == [User(id: "1", name: "Ann")])
        #expect(commenters == [User(id: "2", name: "Bo")])
    }

    @Test("the README's ancestor-attribute example reads the enclosing border's type")
    func ancestorAttributes() throws {
        var kinds: [String?] = []
        var dispatcher = Dispatcher()
        // --- README ancestor attributes ---
        dispatcher.retainAttributes("type", of: "border")
        dispatcher.onEnd("border//path") { element, text in
            let kind = element.ancestorAttribute("type", of: "border")  // of the nearest enclosing <border>
            kinds.append(kind)
        }
        // --- end ---
        try dispatcher.parse(.string("<map><border type='internal'><seg><path/></seg></border><border><path/></border></map>"))
        #expect(kinds == ["internal", nil])
    }

    @Test("the README's handler error renders as shown")
    func handlerErrorExample() {
        struct BadValue: Error, CustomStringConvertible {
            let text: String
            var description: String { "cannot convert \(text.debugDescription) to Int" }
        }
        var dispatcher = Dispatcher()
        dispatcher.onEnd("toilet") { _, text in
            guard Int(text) != nil else { throw BadValue(text: text) }
        }
        let parser = PushParser(dispatcher, source: "zoo.xml")
        let error = #expect(throws: HandlerError.self) {
            try parser.feed(String(repeating: "\n", count: 14) + "<zoo>\n    <f><toilet>4x2</toilet></f></zoo>")
            try parser.finish()
        }
        #expect(error?.underlying is BadValue)
        #expect(error?.description == #"zoo.xml:16:8: error: in the end handler of zoo/f/toilet: cannot convert "4x2" to Int"#)
    }

    @Test("the README's Codable example decodes the zoo, and its error reads as shown")
    func codable() throws {
        let zooPath = TestPaths.fixture("zoo.xml").path
        var names: [String] = []
        var dispatcher = Dispatcher()
        // --- README "Codable" (with "zoo.xml" replaced by the fixture's path) ---
        struct Animal: Decodable {
            let kind: String
            let name: String
            let url: URL
            enum CodingKeys: String, CodingKey {
                case kind, url
                case name = "nested_nonsense/name"
            }
        }
        struct Facilities: Decodable { let toilet: Int; let disabledParking: Bool }
        struct Zoo: Decodable { let animals: [Animal]; let facilities: Facilities }

        var decoder = XMLRecordDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let zoo = try decoder.decode(Zoo.self, from: .file(zooPath))
        try decoder.forEach(Animal.self, at: "/zoo/animals/animal", in: .file(zooPath)) { animal in
            names.append(animal.name)
        }
        dispatcher.onDecoded(Animal.self, at: "animal") { animal in names.append(animal.kind) }
        // --- end ---
        try dispatcher.parse(.file(zooPath))
        #expect(zoo.animals.map(\.kind) == ["cat", "dog"])
        #expect(zoo.facilities.toilet == 42 && zoo.facilities.disabledParking)
        #expect(names == ["grumpy", "i have no idea what i'm doing", "cat", "dog"])
        do {
            _ = try decoder.decode(Zoo.self, from: .string("<zoo><animals/>\n<facilities>\n    <toilet>4x2</toilet><disabled_parking>1</disabled_parking></facilities></zoo>"))
            Issue.record("decoded 4x2")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == #"<string>:3:5: cannot convert "4x2" to Int at zoo/facilities/toilet (decoding Zoo): expected an integer"#)
        }
    }

    @Test("the README's async stream examples read the zoo as records and as handler values")
    func asyncStreams() async throws {
        let zooPath = TestPaths.fixture("zoo.xml").path
        struct Animal { let kind: String; let name: String }
        let animal = XMLRecord("animal", .text("kind"), .text("nested_nonsense/name")) { Animal(kind: $0, name: $1) }
        let zooBytes = try TestPaths.fixtureBytes("zoo.xml")
        let chunks = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: zooBytes.count, by: 100) {
                continuation.yield(Array(zooBytes[start..<min(zooBytes.count, start + 100)]))
            }
            continuation.finish()
        }
        var printed: [String] = []
        func print(_ line: String) { printed.append(line) }
        // --- README "Async streams", second block (with "zoo.xml" replaced by the fixture's path) ---
        for try await animal in animal.stream(from: .file(zooPath)) {
            print(animal.name)
        }
        let kinds = XMLStream(from: .chunks(chunks)) { dispatcher, output in
            dispatcher.onEnd("animal/kind") { _, text in output.yield(text) }
        }
        for try await kind in kinds { print(kind) }
        // --- end ---
        #expect(printed == ["grumpy", "i have no idea what i'm doing", "cat", "dog"])
    }
}

import Foundation
import Testing

@testable import SAXDispatch

@Suite("Decodable: errors say what, where and why")
struct DecodingErrorTests {
    struct Facilities: Decodable { let toilet: Int }
    struct Zoo: Decodable { let facilities: Facilities }

    @Test("a bad value: position, element path, text, target type; the conversion error is underneath")
    func conversion() throws {
        let xml = "<zoo>\n  <facilities>\n    <toilet>4x2</toilet>\n  </facilities>\n</zoo>"
        do {
            _ = try XMLRecordDecoder().forEach(Zoo.self, at: "/zoo", in: .string(xml)) { _ in }
            Issue.record("decoded 4x2 as an Int")
        } catch let error as XMLDecodingError {
            guard case .dataCorrupted(let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(context.codingPath.map(\.stringValue) == ["facilities", "toilet"])
            #expect(
                context.debugDescription
                    == #"<string>:3:5: cannot convert "4x2" to Int at zoo/facilities/toilet (decoding Zoo): expected an integer"#
                    || context.debugDescription.hasPrefix(#"<string>:3:5: cannot convert "4x2" to Int at zoo/facilities/toilet (decoding Zoo)"#),
                "\(context.debugDescription)")
            #expect(context.underlyingError is ValueConversionError)
        }
    }

    @Test("errors in a file name it; items of a list are numbered from 1 in the path")
    func listItemInFile() throws {
        struct Animal: Decodable { let legs: Int }
        struct Zoo: Decodable { let animals: [Animal] }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decoding-\(UUID().uuidString).xml")
        try Data("<zoo><animals><animal><legs>4</legs></animal>\n<animal><legs>many</legs></animal></animals></zoo>".utf8)
            .write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            _ = try XMLRecordDecoder().decode(Zoo.self, from: .file(file.path))
            Issue.record("decoded many as an Int")
        } catch let error as XMLDecodingError {
            guard case .dataCorrupted(let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(context.codingPath.map(\.stringValue) == ["animals", "Index 1", "legs"])
            #expect(context.debugDescription.hasPrefix(#"\#(file.path):2:9: cannot convert "many" to Int at zoo/animals[2]/legs"#), "\(context.debugDescription)")
        }
    }

    /// Records the coding paths its decoders and containers report, through every kind of container.
    struct PathProbe: Decodable {
        nonisolated(unsafe) static var seen: [String] = []
        enum Keys: String, CodingKey { case inner, items, name }
        enum NameKey: String, CodingKey { case name }

        init(from decoder: any Decoder) throws {
            func note(_ label: String, _ path: [any CodingKey]) { Self.seen.append("\(label): " + path.map(\.stringValue).joined(separator: "/")) }
            note("decoder", decoder.codingPath)
            let container = try decoder.container(keyedBy: Keys.self)
            note("keyed", container.codingPath)
            let inner = try container.nestedContainer(keyedBy: NameKey.self, forKey: .inner)
            note("nested", inner.codingPath)
            note("inner super", try inner.superDecoder().codingPath)
            note("inner name super", try inner.superDecoder(forKey: .name).codingPath)
            var items = try container.nestedUnkeyedContainer(forKey: .items)
            note("unkeyed", items.codingPath)
            _ = try items.decode(String.self)
            let second = try items.nestedContainer(keyedBy: NameKey.self)
            note("second item", second.codingPath)
            note("item super", try items.superDecoder().codingPath)
        }
    }

    @Test("coding paths through keyed, nested, unkeyed and super decoders")
    func codingPaths() throws {
        PathProbe.seen = []
        let xml = "<r><inner><name>a</name></inner><items><item>x</item><item><name>b</name></item><item/></items></r>"
        var decoder = XMLRecordDecoder()
        decoder.keyPruning = .off
        _ = try decoder.decode(PathProbe.self, from: .string(xml))
        #expect(
            PathProbe.seen == [
                "decoder: ", "keyed: ", "nested: inner", "inner super: inner", "inner name super: inner/name",
                "unkeyed: items", "second item: items/Index 1", "item super: items/Index 2",
            ])
    }

    @Test("a decoder a value keeps is not reused for the next item or record: its coding path stays")
    func keptDecoders() throws {
        struct Keeper: Decodable {
            enum Keys: String, CodingKey { case n }
            let decoder: any Decoder
            let n: Int
            init(from decoder: any Decoder) throws {
                self.decoder = decoder
                n = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .n)
            }
        }
        struct List: Decodable { let item: [Keeper] }
        let list = try XMLRecordDecoder().decode(List.self, from: .string("<r><item n=\"1\"/><item n=\"2\"/><item n=\"3\"/></r>"))
        #expect(list.item.map(\.n) == [1, 2, 3])
        #expect(list.item.map { $0.decoder.codingPath.map(\.stringValue) } == [["item", "Index 0"], ["item", "Index 1"], ["item", "Index 2"]])
        let records = try XMLRecordDecoder().all(Keeper.self, at: "item", in: .string("<r><item n=\"1\"/><item n=\"2\"/></r>"))
        #expect(records.map(\.n) == [1, 2])
        #expect(records[0].decoder as AnyObject !== records[1].decoder as AnyObject)
        // Items nobody keeps share one decoder, and still decode right.
        struct Plain: Decodable { let n: Int }
        struct Plains: Decodable { let item: [Plain] }
        let plains = try XMLRecordDecoder().decode(Plains.self, from: .string("<r><item n=\"1\"/><item n=\"2\"/><item n=\"3\"/></r>"))
        #expect(plains.item.map(\.n) == [1, 2, 3])
    }

    @Test("a bad list item and a bad optional value: paths and positions, from text read without a decoder")
    func textFailures() throws {
        struct Counts: Decodable { let count: [Int] }
        do {
            _ = try XMLRecordDecoder().decode(Counts.self, from: .string("<r><count>1</count>\n<count>2</count>\n <count>x</count></r>"))
            Issue.record("decoded x as an Int")
        } catch let error as XMLDecodingError {
            guard case .dataCorrupted(let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(context.codingPath.map(\.stringValue) == ["count", "Index 2"])
            #expect(context.debugDescription.hasPrefix(#"<string>:3:2: cannot convert "x" to Int at r/count[3]"#), "\(context.debugDescription)")
        }
        struct Maybe: Decodable { let size: Double? }
        do {
            _ = try XMLRecordDecoder().decode(Maybe.self, from: .string("<r>\n<size>big</size></r>"))
            Issue.record("decoded big as a Double")
        } catch let error as XMLDecodingError {
            guard case .dataCorrupted(let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(context.codingPath.map(\.stringValue) == ["size"])
            #expect(context.debugDescription.hasPrefix(#"<string>:2:1: cannot convert "big" to Double at r/size"#), "\(context.debugDescription)")
        }
        #expect(try XMLRecordDecoder().decode(Maybe.self, from: .string("<r><size nil=\"nil\"/></r>")).size == nil)
    }

    @Test("an enum's unknown value gets the position, path and text added")
    func enumValue() throws {
        enum State: String, Decodable { case active, closed }
        struct Account: Decodable { let state: State }
        do {
            _ = try XMLRecordDecoder().decode(Account.self, from: .string("<account>\n<state>frozen</state></account>"))
            Issue.record("decoded frozen")
        } catch let error as XMLDecodingError {
            guard case .dataCorrupted(let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(context.debugDescription.hasPrefix("<string>:2:1: "), "\(context.debugDescription)")
            #expect(context.debugDescription.contains(#"at account/state, text "frozen" (decoding Account)"#), "\(context.debugDescription)")
        }
    }

    @Test("long text is shortened in the middle")
    func longText() throws {
        struct Count: Decodable { let n: Int }
        let long = String(repeating: "7", count: 40) + "x" + String(repeating: "8", count: 40)
        do {
            _ = try XMLRecordDecoder().decode(Count.self, from: .string("<c><n>\(long)</n></c>"))
            Issue.record("decoded garbage")
        } catch let error as XMLDecodingError {
            guard case .dataCorrupted(let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(context.debugDescription.contains(#""777777777777777777777777777777…8888888888888888888888888""#), "\(context.debugDescription)")
        }
    }

    @Test("an element larger than the limit is an error naming it; earlier ones stay delivered")
    func sizeLimit() throws {
        struct Page: Decodable { let text: String }
        var decoder = XMLRecordDecoder()
        decoder.maximumRecordBytes = 1_000
        let big = String(repeating: "x", count: 2_000)
        let xml = "<wiki><page><text>small</text></page>\n<page><text>\(big)</text></page><page><text>z</text></page></wiki>"
        var delivered: [String] = []
        let error = #expect(throws: XMLParseError.self) {
            try decoder.forEach(Page.self, at: "page", in: .string(xml)) { delivered.append($0.text) }
        }
        #expect(delivered == ["small"])
        #expect(error?.code == .recordSizeLimitExceeded)
        #expect(error?.line == 2 && error?.column == 1)
        #expect(error?.limit == 1_000)
        #expect(error?.source == "<string>")
        #expect(error?.elementPath == ["wiki", "page"])
        #expect(error?.message == "<page> holds more than maximumRecordBytes (1000 bytes) of names, attributes and text")
        #expect(error?.description == "<string>:2:1: error: <page> holds more than maximumRecordBytes (1000 bytes) of names, attributes and text (in wiki/page)")
    }

    @Test("a malformed document ends in XMLParseError after the elements before it were delivered")
    func malformed() throws {
        struct Item: Decodable { let n: Int }
        var delivered: [Int] = []
        #expect(throws: XMLParseError.self) {
            try XMLRecordDecoder().forEach(Item.self, at: "item", in: .string("<r><item><n>1</n></item><item><n>2</n></item><item></r>")) {
                delivered.append($0.n)
            }
        }
        #expect(delivered == [1, 2])
    }

    @Test("next to other handlers, a decoding error comes wrapped in HandlerError with the element's position")
    func dispatcherHandlers() throws {
        struct Item: Decodable { let n: Int }
        var dispatcher = Dispatcher()
        var items: [Int] = []
        var titles: [String] = []
        dispatcher.onDecoded(Item.self, at: "item") { items.append($0.n) }
        dispatcher.onEnd("title") { _, text in titles.append(text) }
        try dispatcher.parse(.string("<r><title>T</title><item><n>1</n></item><item><n>2</n></item></r>"))
        #expect(items == [1, 2])
        #expect(titles == ["T"])
        do {
            try dispatcher.parse(.string("<r>\n<item><n>x</n></item></r>"))
            Issue.record("parsed a bad item")
        } catch let error as HandlerError {
            #expect(error.underlying is XMLDecodingError)
            #expect(error.line == 2)
        }
        // The dispatcher is usable again after the failed parse.
        items = []
        try dispatcher.parse(.string("<r><item><n>3</n></item></r>"))
        #expect(items == [3])
    }

    @Test("an element matching inside a matched element is part of it")
    func nestedMatches() throws {
        struct Item: Decodable {
            let name: String
            let item: [Item]
        }
        var names: [String] = []
        try XMLRecordDecoder().forEach(
            Item.self, at: "item", in: .string("<r><item><name>a</name><item><name>b</name></item></item><item><name>c</name></item></r>")
        ) { item in
            names.append(item.name + item.item.map { "(\($0.name))" }.joined())
        }
        #expect(names == ["a(b)", "c"])
    }

    @Test("a dispatcher reused after a parse that failed inside a matched element decodes the next document afresh")
    func reuseAfterFailureInsideElement() throws {
        struct Item: Decodable { let n: Int }
        var values: [Int] = []
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(Item.self, at: "item") { values.append($0.n) }
        // Each parse's engine may be allocated where the last one was: the capture must not
        // take the next parse for the one that left an element open.
        for _ in 0..<10 {
            values = []
            #expect(throws: XMLParseError.self) { try dispatcher.parse(.string("<r><item><n>1</n></item><item><n>2</n><x>")) }
            #expect(values == [1])
            values = []
            try dispatcher.parse(.string("<r><item><n>3</n></item><item><n>4</n></item></r>"))
            #expect(values == [3, 4])
        }
    }
}

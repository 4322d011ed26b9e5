import Foundation
import Testing

@testable import SAXDispatch

/// When decoded values are a dispatcher's only handlers, the engine holds finished records
/// and decodes them a few dozen at a time (``HeldRecords``). Nothing a handler can see may
/// change: every value, in document order, before the parse call returns or throws.
@Suite("Decodable: records held and delivered in a row")
struct HeldDeliveryTests {
    struct Item: Decodable, Equatable { let n: Int }

    /// `<list>` with `count` `<item n="…"/>` (or `<other n="…"/>` for odd `n` when
    /// `alternating`), one per line; line 1 is `<list>`, record `n` is on line `n + 2`.
    static func document(_ count: Int, alternating: Bool = false, replacing: [Int: String] = [:]) -> String {
        var lines = ["<list>"]
        for n in 0..<count {
            let name = alternating && n % 2 == 1 ? "other" : "item"
            lines.append(replacing[n] ?? "  <\(name) n=\"\(n)\"/>")
        }
        lines.append("</list>")
        return lines.joined(separator: "\n")
    }

    @Test("values of two patterns arrive in document order, all of them, across many batches")
    func order() throws {
        var seen: [Int] = []
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(Item.self, at: "item") { seen.append($0.n) }
        dispatcher.onDecoded(Item.self, at: "other") { seen.append(-$0.n) }
        try dispatcher.parse(.string(Self.document(1000, alternating: true)))
        #expect(seen == (0..<1000).map { $0 % 2 == 1 ? -$0 : $0 })
    }

    @Test("records are held only when decodes are the dispatcher's only handlers")
    func onlyWhenAlone() throws {
        var alone = Dispatcher()
        alone.onDecoded(Item.self, at: "item") { _ in }
        #expect(PushParser(alone).engine.deferredDelivery.isAllowed)

        var mixed = alone
        mixed.onEnd("other") { _ in }
        #expect(!PushParser(mixed).engine.deferredDelivery.isAllowed)

        var records = Dispatcher()
        records.onRecord(XMLRecord("item", .value("@n", as: Int.self)) { $0 }) { _ in }
        #expect(!PushParser(records).engine.deferredDelivery.isAllowed)

        // Next to another handler, each value comes at its own end tag, between the others' calls.
        var log: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(Item.self, at: "item") { log.append("item \($0.n)") }
        dispatcher.onStart("other") { log.append("other \($0.attributes["n"] ?? "")") }
        try dispatcher.parse(.string(Self.document(200, alternating: true)))
        #expect(log == (0..<200).map { $0 % 2 == 1 ? "other \($0)" : "item \($0)" })
    }

    @Test("a handler's error on a held value names its element and line; nothing after it is delivered")
    func handlerError() throws {
        struct Enough: Error {}
        var seen: [Int] = []
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(Item.self, at: "item") { item in
            seen.append(item.n)
            if item.n == 100 { throw Enough() }
        }
        do {
            try dispatcher.parse(.string(Self.document(300)))
            Issue.record("the handler's error was lost")
        } catch let error as HandlerError {
            #expect(error.underlying is Enough)
            #expect(error.event == .end)
            #expect(error.elementPath == ["list", "item"])
            #expect(error.line == 102)
            #expect(error.column == 3)
        }
        #expect(seen == Array(0...100))
    }

    @Test("every value before a parse error, an oversized record or a decoding error is delivered first")
    func errorsAfterHeldValues() throws {
        var seen: [Int] = []
        do {
            try XMLRecordDecoder().forEach(Item.self, at: "item", in: .string(Self.document(150, replacing: [120: "  <item n=1/>"]))) {
                seen.append($0.n)
            }
            Issue.record("a malformed document parsed")
        } catch let error as XMLParseError {
            #expect(error.line == 122)
        }
        #expect(seen == Array(0..<120))

        struct Noted: Decodable { let n: Int; let note: String? }
        seen = []
        var small = XMLRecordDecoder()
        small.maximumRecordBytes = 200
        let long = "  <item n=\"7\"><note>\(String(repeating: "x", count: 300))</note></item>"
        do {
            try small.forEach(Noted.self, at: "item", in: .string(Self.document(150, replacing: [130: long]))) { seen.append($0.n) }
            Issue.record("an oversized record was decoded")
        } catch let error as XMLParseError {
            #expect(error.code == .recordSizeLimitExceeded)
            #expect(error.line == 132)
        }
        #expect(seen == Array(0..<130))

        seen = []
        do {
            try XMLRecordDecoder().forEach(Item.self, at: "item", in: .string(Self.document(150, replacing: [90: "  <item n=\"x\"/>"]))) {
                seen.append($0.n)
            }
            Issue.record("decoded x as an Int")
        } catch let error as XMLDecodingError {
            guard case .dataCorrupted(let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(context.debugDescription.hasPrefix(#"<string>:92:3: cannot convert "x" to Int at list/item/"#), "\(context.debugDescription)")
        }
        #expect(seen == Array(0..<90))
    }

    @Test("fed in pieces, the values of every record fed so far are delivered when feed returns")
    func feedReturns() throws {
        var count = 0
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(Item.self, at: "item") { item in
            #expect(item.n == count)
            count += 1
        }
        let parser = PushParser(dispatcher)
        try parser.feed("<list>\n")
        for n in 0..<500 {
            try parser.feed("  <item n=\"\(n)\"/>\n")
            #expect(count == n + 1)
        }
        try parser.feed("</list>")
        try parser.finish()
        #expect(count == 500)
    }

    @Test("large records are held a few at a time, not a batch's worth")
    func largeRecords() throws {
        struct Page: Decodable { let n: Int; let text: String }
        final class ParserBox { var parser: PushParser? }
        let size = 100_000
        let body = (0..<40).map { "<page n=\"\($0)\"><text>\(String(repeating: "x", count: size))</text></page>" }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("held-\(UUID().uuidString).xml")
        try Data(("<pages>" + body.joined() + "</pages>").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let box = ParserBox()
        var furthestAhead = 0
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(Page.self, at: "page") { page in
            #expect(page.text.utf8.count == size)
            let read = box.parser?.byteCount ?? 0
            furthestAhead = max(furthestAhead, read - (page.n + 1) * (size + 40))
        }
        let parser = PushParser(dispatcher)
        box.parser = parser
        let descriptor = open(file.path, O_RDONLY)
        defer { close(descriptor) }
        try parser.parse(.fileDescriptor(descriptor))
        // Held records are handed over once 256 KiB of them are captured: at most three of
        // these, plus the chunk being parsed, were read past the one delivered.
        #expect(furthestAhead > 0)
        #expect(furthestAhead <= 3 * (size + 40) + XMLInput.defaultChunkSize)
    }

    @Test("a file of many records: every value, in order")
    func file() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("held-\(UUID().uuidString).xml")
        try Data(Self.document(5000).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var seen: [Int] = []
        let count = try XMLRecordDecoder().forEach(Item.self, at: "/list/item", in: .file(file.path)) {
            seen.append($0.n)
        }
        #expect(count == 5000)
        #expect(seen == Array(0..<5000))
    }
}

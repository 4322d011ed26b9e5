import SAXDispatch
import Testing

@Suite("Warnings: a pattern, record, field or decoder that matched nothing says so")
struct UnmatchedPatternWarningTests {
    /// A document of `count` items and one `<title>`.
    static func items(_ count: Int) -> String {
        "<feed><title>t</title>" + String(repeating: "<item><name>n</name></item>", count: count) + "</feed>"
    }

    /// The warnings of a parse with `dispatcher`, fed whole and in pieces of 1, 7 and 4,096 bytes.
    static func warnings(_ dispatcher: Dispatcher, _ document: String) throws -> [ParseWarning] {
        let bytes = Array(document.utf8)
        var seen: [[ParseWarning]] = []
        for size in [bytes.count, 1, 7, 4096] {
            let parser = PushParser(dispatcher, source: "doc.xml")
            try parser.feed(bytes, inPiecesOf: size)
            #expect(try parser.finish() == .completed)
            seen.append(parser.warnings)
        }
        #expect(seen.allSatisfy { $0 == seen[0] }, "the same warnings in every split")
        return seen[0]
    }

    @Test("a record pattern that matched nothing: the warning names it and the closest name, with its count")
    func recordPattern() throws {
        let record = XMLRecord("itme", .text("name")) { $0 }
        let summary = try record.forEach(in: .string(Self.items(1_048))) { _ in }
        #expect(summary.delivered == 0)
        let warning = try #require(summary.warnings.first)
        #expect(summary.warnings.count == 1)
        #expect(warning.code == .unmatchedPattern)
        #expect(warning.pattern == "itme")
        #expect(warning.suggestions == [.init(name: "item", namespaceURI: nil, count: 1_048, relation: .spelling)])
        #expect(warning.description == "<string>: warning: record pattern `itme` matched no element; this document has `item` (1,048 times)")

        var dispatcher = Dispatcher()
        dispatcher.onRecord(record) { _ in }
        let pushed = try Self.warnings(dispatcher, Self.items(3))
        #expect(pushed.map(\.message) == ["record pattern `itme` matched no element; this document has `item` (3 times)"])
        // Matched: no warning.
        #expect(try XMLRecord("item", .text("name")) { $0 }.forEach(in: .string(Self.items(2))) { _ in }.warnings.isEmpty)
    }

    @Test("handler patterns: letter case, spelling, a name at other paths; each reported once, with onWarning")
    func handlerPatterns() throws {
        var dispatcher = Dispatcher()
        dispatcher.onEnd("Title") { _, _ in }
        dispatcher.onStart("titel") { _ in }
        dispatcher.onEnd("titel") { _, _ in }
        dispatcher.onStart("channel/item") { _ in }
        dispatcher.onStart("feed/item") { _ in }
        dispatcher.onStart("zzzzzz") { _ in }
        var received: [ParseWarning] = []
        dispatcher.onWarning { received.append($0) }
        let warnings = try Self.warnings(dispatcher, Self.items(2))
        #expect(
            warnings.map(\.message) == [
                "pattern `Title` matched no element; this document has `title` (once)",
                "pattern `titel` matched no element; this document has `title` (once)",
                "pattern `channel/item` matched no element; this document has `item` (2 times) elsewhere",
                "pattern `zzzzzz` matched no element; no element name in this document is close to `zzzzzz`",
            ])
        #expect(warnings.map(\.code) == Array(repeating: .unmatchedPattern, count: 4))
        #expect(warnings[0].suggestions.map(\.relation) == [.letterCase])
        #expect(warnings[2].suggestions.map(\.relation) == [.otherPath])
        received = []
        _ = try dispatcher.parse(.string(Self.items(2)))
        #expect(received.map(\.message) == warnings.map(\.message))
    }

    @Test("a field that matched nothing in any record, while the record matched, is a warning of its own")
    func recordField() throws {
        let record = XMLRecord("item", .optional(.text("nme")), .text("name")) { ($0, $1) }
        let summary = try record.forEach(in: .string(Self.items(2))) { _ in }
        #expect(summary.delivered == 2)
        #expect(summary.warnings.map(\.code) == [.unmatchedField])
        #expect(summary.warnings.map(\.pattern) == ["nme"])
        #expect(
            summary.warnings.map(\.message) == [
                "field `nme` of record `item` matched no element in any record; this document has `name` (2 times)"
            ])
        // A record that matched nothing: its own warning only, not one per field.
        let missing = try XMLRecord("itme", .optional(.text("nme"))) { $0 }.forEach(in: .string(Self.items(2))) { _ in }
        #expect(missing.warnings.map(\.code) == [.unmatchedPattern])
        // A nested record's path is a field of its parent.
        let nested = XMLRecord("feed", .many("itme", XMLRecord("itme", .text("name")) { $0 })) { $0 }
        let nestedSummary = try nested.forEach(in: .string(Self.items(2))) { _ in }
        #expect(nestedSummary.warnings.map(\.message) == [
            "field `itme` of record `feed` matched no element in any record; this document has `item` (2 times)"
        ])
    }

    /// Each field registers its path: the second watch of `zz` was left a handler's pattern,
    /// reported as `pattern \`item/zz\``, even when the record matched nothing.
    @Test("two fields on one path: one field warning, no pattern warning; none but the record's when it matched nothing")
    func twoFieldsOnOnePath() throws {
        let fields = (RecordField<String?>.optional(.text("zz")).named("a"), RecordField<Int?>.optional(.value("zz", as: Int.self)).named("b"))
        let record = XMLRecord("item", fields.0, fields.1) { ($0, $1) }
        let summary = try record.forEach(in: .string(Self.items(2))) { _ in }
        #expect(summary.delivered == 2)
        #expect(summary.warnings.map(\.code) == [.unmatchedField], "\(summary.warnings)")
        #expect(summary.warnings.map(\.pattern) == ["zz"])
        #expect(summary.warnings.allSatisfy { $0.message.hasPrefix("field `zz` of record `item` matched no element in any record") })
        let missing = try XMLRecord("itme", fields.0, fields.1) { ($0, $1) }.forEach(in: .string(Self.items(2))) { _ in }
        #expect(missing.warnings.map(\.code) == [.unmatchedPattern], "\(missing.warnings)")
        #expect(missing.warnings.map(\.pattern) == ["itme"])
        // Mounted on a dispatcher of the application's, read whole and in pieces.
        var dispatcher = Dispatcher()
        dispatcher.onRecord(XMLRecord("itme", fields.0, fields.1) { ($0, $1) }) { _ in }
        #expect(try Self.warnings(dispatcher, Self.items(2)).map(\.pattern) == ["itme"])
    }

    /// A record at an anchored pattern owns its parse and skips what no field reaches
    /// (`<channel>` here): the names in it were never seen, and the warning said no name
    /// was close to `item`.
    @Test("an anchored record or decoder pattern: the names its parse skipped count for the suggestions")
    func anchoredPatternSuggestions() throws {
        struct Item: Decodable { var title: String }
        let document = "<rss><channel><title>t</title><item><title>a</title></item><item><title>b</title></item></channel></rss>"
        let summary = try XMLRecord("/rss/item", .text("title")) { $0 }.forEach(in: .string(document)) { _ in }
        #expect(
            summary.warnings.map(\.message) == [
                "record pattern `/rss/item` matched no element; this document has `item` (2 times) elsewhere"
            ])
        var heard: [String] = []
        _ = try XMLRecordDecoder().all(Item.self, at: "/rss/item", in: .string(document)) { heard.append($0.message) }
        #expect(heard == ["decoded pattern `/rss/item` matched no element; this document has `item` (2 times) elsewhere"])
        // Once the pattern has matched, the names inside what it skips are no longer needed:
        // a record found in a later `<channel>` is still found, and nothing is reported.
        let later = "<rss><head><x/></head><item><title>a</title></item><channel><item/></channel></rss>"
        let found = try XMLRecord("/rss/item", .text("title")) { $0 }.forEach(in: .string(later)) { _ in }
        #expect(found.delivered == 1)
        #expect(found.warnings.isEmpty, "\(found.warnings)")
    }

    /// The name was counted before the subtree filter skipped the element, so the pattern
    /// seemed to have matched: its handler never ran, and no warning said why.
    @Test("skipAll(except:): an element the application skips is not read, so a pattern only it would match is reported")
    func skippedByTheApplication() throws {
        var dispatcher = Dispatcher()
        try dispatcher.skipAll(except: "/r/keep")
        var runs = 0
        dispatcher.onStart("x") { _ in runs += 1 }
        let warnings = try Self.warnings(dispatcher, "<r><x/><keep><y/></keep><x/></r>")
        #expect(runs == 0)
        #expect(warnings.map(\.code) == [.unmatchedPattern], "\(warnings)")
        #expect(warnings.map(\.pattern) == ["x"])
        // What the filter keeps is still read: no warning for `y`.
        var kept = Dispatcher()
        try kept.skipAll(except: "/r/keep")
        kept.onStart("y") { _ in }
        #expect(try Self.warnings(kept, "<r><x/><keep><y/></keep><x/></r>").isEmpty)
        // A record's own skipping is no wish of the application's: what it skips still counts.
        let field = try XMLRecord("/feed/item", .optional(.text("nme"))) { $0 }.forEach(in: .string(Self.items(2))) { _ in }
        #expect(field.warnings.map(\.code) == [.unmatchedField])
        #expect(field.warnings.first?.suggestions.map(\.name) == ["name"], "\(field.warnings)")
    }

    @Test("the work at the end is bounded: past 64 patterns that matched nothing, the warnings name no suggestions")
    func boundedSuggestions() throws {
        var dispatcher = Dispatcher()
        for index in 0..<70 { dispatcher.onStart(ElementPattern(name: "itme\(index)")) { _ in } }
        let document = "<feed>" + (0..<70).map { "<item\($0)/>" }.joined() + "</feed>"
        let warnings = try Self.warnings(dispatcher, document)
        #expect(warnings.count == 70)
        #expect(warnings[0].message == "pattern `itme0` matched no element; this document has `item0` (once)")
        #expect(warnings.prefix(64).allSatisfy { !$0.suggestions.isEmpty })
        #expect(warnings[64].message == "pattern `itme64` matched no element")
        #expect(warnings[64].suggestions.isEmpty)
    }

    @Test("a parse that did not read its document to the end reports none; the message-only initializer still works")
    func onlyWhenRead() throws {
        var dispatcher = Dispatcher()
        dispatcher.onStart("itme") { _ in }
        dispatcher.onStart("title") { element in element.stopParsing() }
        let parser = PushParser(dispatcher)
        try parser.feed(Self.items(2))
        #expect(try parser.finish() == .stopped)
        #expect(parser.warnings.isEmpty)
        let made = ParseWarning(message: "m", source: "s")
        #expect(made.code == .other)
        #expect(made.pattern == nil && made.suggestions.isEmpty)
        #expect(made.description == "s: warning: m")
        #expect(ParseWarning.Code(rawValue: "unmatchedPattern") == .unmatchedPattern)
    }

    @Test("a decoder's pattern that matched nothing")
    func decoderPattern() throws {
        struct Item: Decodable { var name: String }
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(Item.self, at: "feed/itme") { _ in }
        let warnings = try Self.warnings(dispatcher, Self.items(2))
        #expect(
            warnings.map(\.message) == [
                "decoded pattern `feed/itme` matched no element; this document has `item` (2 times)"
            ])
    }

    @Test("a namespace near miss says what the document had instead: the other URI, or the prefixed name")
    func namespaceNearMiss() throws {
        let elements = "http://purl.org/dc/elements/1.1/"
        let terms = "http://purl.org/dc/terms/"
        let feed =
            "<rss xmlns:dc='\(terms)'>" + String(repeating: "<item><dc:date>2024</dc:date></item>", count: 20) + "</rss>"
        var dispatcher = Dispatcher()
        dispatcher.namespaces = ["dc": elements]
        dispatcher.onEnd("dc:date") { _, _ in }
        let warnings = try Self.warnings(dispatcher, feed)
        #expect(
            warnings.map(\.message) == [
                "pattern `dc:date` (\(elements)) matched no element; this document has `dc:date` in \(terms) (20 times)"
                    + " — bind the prefix to the namespace the document uses, or match any namespace with `*:date`"
            ])
        #expect(warnings.first?.suggestions == [.init(name: "dc:date", namespaceURI: terms, count: 20, relation: .otherNamespace)])

        // A Clark name against the same local name in no namespace.
        var clark = Dispatcher()
        clark.onEnd(try ElementPattern("{\(elements)}date")) { _, _ in }
        #expect(
            try Self.warnings(clark, "<r><date>1</date></r>").map(\.message) == [
                "pattern `{\(elements)}date` matched no element; this document has `date` (once)"
                    + " — write the name without a namespace, or match any namespace with `*:date`"
            ])

        let soap =
            "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body><b:customers xmlns:b='urn:billing'>"
            + String(repeating: "<b:customer><b:name>n</b:name></b:customer>", count: 3) + "</b:customers></s:Body></s:Envelope>"
        let record = XMLRecord("customer", .text("name")) { $0 }
        let summary = try record.forEach(in: .string(soap)) { _ in }
        #expect(
            summary.warnings.map(\.message) == [
                "record pattern `customer` matched no element; this document has `b:customer` in urn:billing (3 times)"
                    + " — bind a prefix to its namespace, or match any namespace with `*:customer`"
            ])
    }

    @Test("documents one after another: names of earlier documents count, though each document's names are dropped at its end")
    func concatenatedDocuments() throws {
        var dispatcher = Dispatcher()
        dispatcher.onStart("itme") { _ in }
        // Matched in the first document only: not reported.
        dispatcher.onStart("title") { _ in }
        let documents = "<feed><title>t</title><item/><item/></feed>\n<feed><item/><item/><item/></feed>\n"
        let bytes = Array(documents.utf8)
        var seen: [[String]] = []
        for size in [bytes.count, 1, 7, 4096] {
            let parser = PushParser(dispatcher, source: "log.xml")
            parser.readsConcatenatedDocuments = true
            try parser.feed(bytes, inPiecesOf: size)
            #expect(try parser.finish() == .completed)
            #expect(parser.documentCount == 2)
            seen.append(parser.warnings.map(\.message))
        }
        #expect(seen.allSatisfy { $0 == ["pattern `itme` matched no element; this document has `item` (5 times)"] }, "\(seen)")
    }

    @Test("the calls that return an array say why it is empty through onWarning")
    func arraysSayWhyTheyAreEmpty() throws {
        struct Item: Decodable { var name: String }
        let document = Self.items(4)
        var heard: [String] = []
        let records = try XMLRecord("itme", .text("name")) { $0 }.all(in: .string(document)) { heard.append($0.message) }
        #expect(records.isEmpty)
        let values = try XMLRecordDecoder().all(Item.self, at: "itme", in: .string(document)) { heard.append($0.message) }
        #expect(values.isEmpty)
        #expect(
            heard == [
                "record pattern `itme` matched no element; this document has `item` (4 times)",
                "decoded pattern `itme` matched no element; this document has `item` (4 times)",
            ])
        // Matched: nothing to hear.
        heard = []
        #expect(try XMLRecordDecoder().all(Item.self, at: "item", in: .string(document)) { heard.append($0.message) }.count == 4)
        #expect(heard.isEmpty)
    }

    @Test("an unbound prefix against names in no namespace: the hint says to leave the prefix out, not to bind it")
    func unboundPrefixAgainstNoNamespace() throws {
        var dispatcher = Dispatcher()
        dispatcher.onStart("p:item") { _ in }
        let warnings = try Self.warnings(dispatcher, Self.items(2))
        let unmatched = try #require(warnings.first { $0.code == .unmatchedPattern })
        #expect(
            unmatched.message
                == "pattern `p:item` matched no element; this document has `item` (2 times) — write the name without a"
                + " prefix (`item`), or match any namespace with `*:item`")
    }
}

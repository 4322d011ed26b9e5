import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// The table of element names stays fast on names made to collide.
@Suite("Name table: interning, and names made to collide")
struct NameTableTests {
    /// 120 distinct names whose FNV-1a hashes share their low 16 bits (see the fixtures' README).
    static let colliding: [String] = {
        let text = (try? String(contentsOf: TestPaths.fixture("colliding-names.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }()

    @Test("names interned from C strings and from Swift strings get one id each, and give their strings back")
    func interning() {
        let table = NameTable()
        let ids = ["zoo", "animal", "kind", "zoo", "a-much-longer-name-than-a-word"].map { name in
            name.withCString { table.intern($0) }
        }
        #expect(ids == [0, 1, 2, 0, 3])
        #expect(table.intern("kind") == 2)
        #expect(table.lookup("animal") == 1)
        #expect(table.lookup("absent") == nil)
        #expect(table.string(3) == "a-much-longer-name-than-a-word")
        #expect(!table.isHardened)
    }

    @Test("a name's hash and length are the same read from a C string at any alignment as from its bytes")
    func hashAgreement() {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789:/.\u{1}é".utf8)
        var seen = Set<UInt32>()
        for length in 0...80 {
            let name = (0..<length).map { alphabet[($0 * 7 + length) % alphabet.count] }
            let expected = name.withUnsafeBytes { NameTable.hash($0) }
            seen.insert(expected)
            for offset in 0..<8 {
                let padded = [UInt8](repeating: 0x41, count: offset) + name + [0]
                padded.withUnsafeBytes { raw in
                    let cString = (raw.baseAddress! + offset).assumingMemoryBound(to: CChar.self)
                    let (hash, measured) = NameTable.hashAndLength(cString)
                    #expect(hash == expected && measured == length, "length \(length), offset \(offset)")
                }
            }
        }
        #expect(seen.count == 81)
        // Long names that differ only in their first bytes, or only in their last, hash apart.
        let uri = "http://www.mediawiki.org/xml/export-0.10/\u{1}"
        let names = ["page", "title", "text", "revision", "id", "ns", "contributor", "username"].map { uri + $0 }
            + (0..<50).map { "urn:\($0):ns\u{1}local" }
        let hashes = names.map { name in Array(name.utf8).withUnsafeBytes { NameTable.hash($0) } }
        #expect(Set(hashes).count == names.count)
    }

    @Test("names whose hashes collide switch the table to the seeded hasher; every id stays and every name is found")
    func collidingNames() throws {
        try #require(Self.colliding.count == 120)
        let table = NameTable()
        let ids = Self.colliding.map { name in name.withCString { table.intern($0) } }
        #expect(table.isHardened)
        #expect(ids == (0..<120).map(Int32.init))
        for (index, name) in Self.colliding.enumerated() {
            #expect(name.withCString { table.intern($0) } == Int32(index))
            #expect(table.lookup(name) == Int32(index))
            #expect(table.string(Int32(index)) == name)
        }
        #expect(table.intern("fresh") == 120)
        #expect(table.count == 121)
    }

    /// Names as expat spells them with namespace processing on (`uri␁local␁prefix`), in
    /// namespaces whose URIs differ only by a number in their middle, as many schemas'
    /// versions, observation sets and tenant namespaces do.
    static let middleDigitNames: [String] = (0..<150).flatMap { number in
        ["record", "value", "note"].map { "http://example.org/schema/\(number)/observations\u{1}\($0)\u{1}o" }
    }

    @Test("a name's whole hash agrees from a C string at any alignment and from its bytes, and tells middle bytes apart")
    func wholeHashAgreement() {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789:/.\u{1}é".utf8)
        for length in 0...80 {
            let name = (0..<length).map { alphabet[($0 * 5 + length) % alphabet.count] }
            let expected = name.withUnsafeBytes { NameTable.hash($0, wholeName: true) }
            for offset in 0..<8 {
                let padded = [UInt8](repeating: 0x41, count: offset) + name + [0]
                padded.withUnsafeBytes { raw in
                    let cString = (raw.baseAddress! + offset).assumingMemoryBound(to: CChar.self)
                    let (hash, measured) = NameTable.hashAndLength(cString, wholeName: true)
                    #expect(hash == expected && measured == length, "length \(length), offset \(offset)")
                }
            }
        }
        let sampled = Self.middleDigitNames.map { name in Array(name.utf8).withUnsafeBytes { NameTable.hash($0) } }
        let whole = Self.middleDigitNames.map { name in
            Array(name.utf8).withUnsafeBytes { NameTable.hash($0, wholeName: true) }
        }
        // The sampled hash reads none of the bytes that differ: one hash per local name and
        // length of the number; the whole hash spreads them over the low bits that choose a slot.
        #expect(Set(sampled).count == 9)
        #expect(Set(whole).count == Self.middleDigitNames.count)
        #expect(Set(whole.map { $0 & 0x3FF }).count > 300)
    }

    @Test("names that differ only in the middle move the table to the whole hash, not the seeded hasher; every id stays")
    func middleDigitNamesHashWhole() {
        let table = NameTable()
        let ids = Self.middleDigitNames.map { name in name.withCString { table.intern($0) } }
        #expect(table.hashMode == .whole)
        #expect(ids == (0..<Int32(Self.middleDigitNames.count)).map { $0 })
        for (index, name) in Self.middleDigitNames.enumerated() {
            #expect(name.withCString { table.intern($0) } == Int32(index))
            #expect(table.lookup(name) == Int32(index))
        }
        #expect(table.string(0) == "o:record")
        #expect(table.intern("fresh") == Int32(Self.middleDigitNames.count))
    }

    @Test("a document whose records each bind a prefix to a URI differing in its middle parses with the right events")
    func middleDigitNamespaceDocument() throws {
        let records = (0..<150).map { number in
            "<o:record xmlns:o=\"http://example.org/schema/\(number)/observations\" o:id=\"\(number)\">"
                + "<o:value>\(number)</o:value><o:note/></o:record>"
        }
        let document = "<feed xmlns=\"urn:feed\">" + records.joined() + "</feed>"
        var ends: [String] = []
        var uris = Set<String>()
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { element in uris.insert(element.namespaceURI ?? "") }
        dispatcher.onAnyEnd { ends.append($0.name) }
        let parser = PushParser(dispatcher)
        try parser.feed(Array(document.utf8))
        try parser.finish()
        #expect(ends == Array(repeating: ["o:value", "o:note", "o:record"], count: 150).flatMap { $0 } + ["feed"])
        #expect(uris.count == 151)
        #expect(parser.engine.names.hashMode == .whole)
    }

    @Test("a document of colliding names parses with the right events, hardened")
    func collidingDocument() throws {
        let document = "<r>" + Self.colliding.map { "<\($0)/>" }.joined() + Self.colliding.map { "<\($0)>x</\($0)>" }.joined() + "</r>"
        var names: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyEnd { names.append($0.name) }
        let parser = PushParser(dispatcher)
        try parser.feed(Array(document.utf8))
        try parser.finish()
        #expect(names == Self.colliding + Self.colliding + ["r"])
        #expect(parser.engine.names.isHardened)
    }

    @Test("the name table counts against maximumParserMemoryBytes: many distinct names fail at the limit, with the element's position")
    func memoryBudget() throws {
        // 20,000 distinct names take expat about 1.7 MB and the name table about 2.8 MB more.
        let document = "<r>\n" + (0..<20_000).map { "<e\($0)/>" }.joined() + "</r>"
        var dispatcher = Dispatcher()
        dispatcher.safety.maximumParserMemoryBytes = .atMost(3 << 20)
        var started = 0
        dispatcher.onAnyStart { _ in started += 1 }
        do {
            try dispatcher.parse(.string(document))
            Issue.record("parsed 20,000 distinct names within 3 MiB")
        } catch let error as XMLParseError {
            #expect(error.code == .memoryLimitExceeded)
            #expect(error.limit == 3 << 20)
            // Whichever asks for memory past the limit first, expat or the name table, fails the parse.
            #expect(error.message.hasPrefix("the parser needs more memory than maximumParserMemoryBytes"), "\(error.message)")
            #expect(error.line == 2 && error.column > 1)
            #expect(started > 1_000 && started < 20_000)
        }
        dispatcher.safety.maximumParserMemoryBytes = .atMost(8 << 20)
        #expect(try dispatcher.parse(.string(document)) == .completed)
    }
}

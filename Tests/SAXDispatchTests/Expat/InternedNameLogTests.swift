import Testing

@testable import SAXDispatch
@testable import SAXDispatchTools  // SplitMix64, a seeded generator

/// The log of the names a range's parser interned holds every distinct name of the
/// document, though the driver hands it only the start tags before which expat allocated
/// (``ExpatDriver/admitsStartTag(_:_:skipped:)``): a name met for the first time after a
/// long run of known ones, in a skipped subtree, on an attribute or with a prefix, is
/// still logged.
@Suite("Interned-name log: every distinct name, though only tags after expat allocated are read")
struct InternedNameLogTests {
    /// A document of records (`x`, kept) and elements between them (skipped), whose names
    /// and attribute names come from pools that grow now and then, so that new names turn
    /// up late among many known ones; and the distinct names it holds, as the log spells
    /// them (a prefixed attribute expanded: `uri␁local␁prefix`).
    static func document(seed: UInt64) -> (text: String, elements: Set<String>, attributes: Set<String>) {
        var random = SplitMix64(seed: seed)
        // Skipped elements' names and records' children's apart: only the log holds the
        // first, only the dispatcher's table the second.
        var skippedPool = ["a"]
        var childPool = ["b"]
        var attributePool = ["k"]
        var elements: Set<String> = ["r", "x"]
        var attributes: Set<String> = ["id"]
        let separator = QualifiedName.separatorText
        func pick(_ pool: inout [String], _ prefix: String) -> String {
            // Mostly a known name; seldom a new one, at any point of the document.
            if random.next() % 97 == 0 { pool.append("\(prefix)\(pool.count)") }
            return pool[Int(random.next() % UInt64(pool.count))]
        }
        var text = "<r xmlns:p='urn:p'>\n"
        for index in 0..<3_000 {
            // Between records: a skipped element with a child and attributes.
            let outer = pick(&skippedPool, "s")
            let inner = pick(&skippedPool, "s")
            let plain = pick(&attributePool, "k")
            let prefixed = pick(&attributePool, "k")
            elements.formUnion([outer, inner])
            attributes.formUnion([plain, "urn:p" + separator + prefixed + separator + "p"])
            text += "<\(outer) \(plain)='1' p:\(prefixed)='2'><\(inner)/></\(outer)>\n"
            // A record, with children of its own.
            let child = pick(&childPool, "c")
            let attribute = pick(&attributePool, "k")
            elements.insert(child)
            attributes.insert(attribute)
            text += "<x id='\(index)'><\(child) \(attribute)='3'>t</\(child)></x>\n"
        }
        text += "</r>\n"
        return (text, elements, attributes)
    }

    @Test("the names logged are every name of the document", arguments: [1, 2, 3, 4] as [UInt64])
    func everyName(seed: UInt64) throws {
        let (text, elements, attributes) = Self.document(seed: seed)
        var dispatcher = Dispatcher()
        try dispatcher.skipAll(except: "/r/x")
        var records = 0
        dispatcher.onStart("x") { _ in records += 1 }
        let parser = PushParser(dispatcher, source: "names.xml")
        let log = InternedNameLog()
        parser.driver.nameLog = log
        try withExtendedLifetime(log) {
            // In pieces, so that expat's buffer grows and is refilled between tags.
            var random = SplitMix64(seed: seed)
            var rest = Substring(text)
            while !rest.isEmpty {
                let length = min(rest.utf8.count, 1 + Int(random.next() % 4096))
                let piece = rest.utf8.prefix(length)
                try parser.feed(Array(piece))
                rest = Substring(rest.utf8.dropFirst(length))
            }
            _ = try parser.finish()
        }
        #expect(records == 3_000)
        let names = log.names(dispatched: parser.engine.names, peakBytes: 0)
        func strings(_ names: [[UInt8]]) -> Set<String> { Set(names.map { String(decoding: $0, as: UTF8.self) }) }
        let loggedElements = strings(names.elements)
        #expect(elements.isSubset(of: loggedElements), "missing: \(elements.subtracting(loggedElements).sorted())")
        #expect(strings(names.attributes) == attributes)
        #expect(elements.count > 40 && attributes.count > 40)
        // The log read only the tags before which expat allocated: those with a new name,
        // and a few more (a buffer grown), of the 12,001 start tags.
        #expect(log.tagsLogged >= 80 && log.tagsLogged < 900, "\(log.tagsLogged) tags logged")
    }
}

import Testing

@testable import SAXDispatch

/// Long names (namespaced, as expat spells them) arrive at one address, which the name
/// table measures first: whatever that address holds now, every name keeps its id.
@Suite("Name table: long names at one address")
struct NameTableLongNameTests {
    /// Interns each name as a C string written into one buffer, as expat writes the names
    /// of one namespace into its binding's buffer, and checks its id against the order in
    /// which the names first appear, and its parts against the name.
    /// `known`: the ids of names the table had before.
    @discardableResult
    private static func internAtOneAddress(
        _ names: [String], into table: NameTable = NameTable(), known: [String: Int32] = [:]
    ) -> (table: NameTable, ids: [String: Int32]) {
        var firstSeen = known
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: 256)
        defer { buffer.deallocate() }
        for name in names {
            let bytes = Array(name.utf8)
            precondition(bytes.count < 256)
            for (offset, byte) in bytes.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
            buffer[bytes.count] = 0
            let expected = firstSeen[name] ?? Int32(table.count)
            firstSeen[name] = expected
            let id = table.intern(UnsafePointer(buffer))
            #expect(id == expected, "\(name.debugDescription)")
            #expect(table.bytes(id).elementsEqual(bytes), "\(name.debugDescription)")
        }
        return (table, firstSeen)
    }

    @Test("names at one address keep their ids whatever URI, length or local name comes next")
    func oneAddress() {
        let a = "urn:example:a\u{1}"
        let longer = "http://www.example.org/a-namespace-longer-than-the-first/\u{1}"
        let names = [
            a + "item", a + "title", a + "item",
            // Another URI at the same address: longer, then shorter than the one before it.
            longer + "item", a + "item", longer + "title\u{1}p",
            // Short names (no namespace) at the address of the last long one, starting with
            // another byte than it or the same, and back.
            "x", "item", "x", a + "title", "urn", a + "item", "u", "abcdefgh", "abcdefghi", "abcdefgh",
            longer + "item", "http", "h", a + "item",
            // A name that is the start of the one before, and one that extends it.
            a + "ite", a + "items", a + "item",
            // The URI alone with an empty local name is not a name expat gives; its bytes still intern.
            "", a + "item",
        ]
        let table = Self.internAtOneAddress(names).table
        #expect(table.count == Set(names).count)
        #expect(table.hashMode == .sampled)
        let title = table.intern(longer + "title\u{1}p")
        #expect(table.string(title) == "p:title")
        #expect(table.parts(title).namespaceURI == "http://www.example.org/a-namespace-longer-than-the-first/")
        #expect(table.namespaceURI(table.intern("x")) == nil)
    }

    @Test("URIs that differ only in the middle, at one address, get their own ids and move the table to the whole hash")
    func middleDigitsAtOneAddress() {
        let names = NameTableTests.middleDigitNames
        let (table, ids) = Self.internAtOneAddress(names + names.reversed())
        #expect(table.count == names.count)
        #expect(table.hashMode == .whole)
        #expect(table.parts(3).namespaceURI == "http://example.org/schema/1/observations")
        // Whole-hashed, short names at that address still find their ids.
        Self.internAtOneAddress(["a", "b", names[0], "a"], into: table, known: ids)
        #expect(table.hashMode == .whole)
    }

    @Test("names made to collide, at the address of a long name, still switch the table to the seeded hasher")
    func collidingAtOneAddress() throws {
        try #require(NameTableTests.colliding.count == 120)
        let long = "http://example.org/ns\u{1}record"
        let table = Self.internAtOneAddress([long] + NameTableTests.colliding + [long]).table
        #expect(table.isHardened)
        #expect(table.count == 121)
        // And from the whole hash, as well.
        let (whole, ids) = Self.internAtOneAddress(NameTableTests.middleDigitNames)
        #expect(whole.hashMode == .whole)
        Self.internAtOneAddress(NameTableTests.colliding + NameTableTests.middleDigitNames, into: whole, known: ids)
        #expect(whole.isHardened)
    }

    @Test("a name measured first has the hash and length it has measured as it is hashed, at any alignment")
    func measuredFirstAgrees() {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789:/.\u{1}é".utf8)
        for wholeName in [false, true] {
            for length in 0...80 {
                let name = (0..<length).map { alphabet[($0 * 11 + length) % alphabet.count] }
                for offset in 0..<8 {
                    let padded = [UInt8](repeating: 0x41, count: offset) + name + [0]
                    padded.withUnsafeBytes { raw in
                        let cString = (raw.baseAddress! + offset).assumingMemoryBound(to: CChar.self)
                        let hashed = NameTable.hashAndLength(cString, wholeName: wholeName)
                        let measured = NameTable.hashAndLengthMeasuredFirst(cString, wholeName: wholeName)
                        #expect(hashed == measured, "length \(length), offset \(offset), whole \(wholeName)")
                    }
                }
            }
        }
    }

    @Test("names compare equal only when every byte is, at every length and position of a difference")
    func comparison() {
        // The first `length` bytes of two arrays, each with a byte past them, so never empty.
        func equal(_ x: [UInt8], _ y: [UInt8], _ length: Int) -> Bool {
            x.withUnsafeBytes { a in
                y.withUnsafeBytes { b in NameTable.equal(a.baseAddress!, b.baseAddress!, length) }
            }
        }
        for length in 0...80 {
            let name = (0..<length).map { UInt8(0x61 + $0 % 26) } + [0]
            #expect(equal(name, name.map { $0 }, length), "length \(length)")
            for position in 0..<length {
                var other = name
                other[position] ^= 0x20
                #expect(!equal(name, other, length), "length \(length), at \(position)")
            }
        }
    }

    @Test("a prefix rebound between siblings, to URIs longer and shorter than before, gives each element its own URI")
    func reboundPrefixDocument() throws {
        let document = """
            <r xmlns:p="urn:a"><p:x/><p:x xmlns:p="urn:b"/><p:x xmlns:p="http://example.org/a/much/longer/uri"/>\
            <p:x/><p:y xmlns:p="u"><p:x/><x/></p:y><x/><p:x xmlns:p="urn:a:2"/><p:x xmlns:p="urn:a:1"/>\
            <e xmlns="http://example.org/a/much/longer/uri"><p:x/></e></r>
            """
        var seen: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { element in
            seen.append("\(element.namespaceURI ?? "-") \(element.localName) \(element.name)")
        }
        try dispatcher.parse(.string(document))
        #expect(
            seen == [
                "- r r", "urn:a x p:x", "urn:b x p:x", "http://example.org/a/much/longer/uri x p:x", "urn:a x p:x",
                "u y p:y", "u x p:x", "- x x", "- x x", "urn:a:2 x p:x", "urn:a:1 x p:x",
                "http://example.org/a/much/longer/uri e e", "urn:a x p:x",
            ])
    }
}

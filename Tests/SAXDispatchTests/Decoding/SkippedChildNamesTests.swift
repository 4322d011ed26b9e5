import Foundation
import Testing

@testable import SAXDispatch

/// A child that no key reads is left out by its name's id once its name was looked up:
/// these are the cases where an id must not stand for an earlier answer.
@Suite("Decodable: children left out by name id, only while the id and the schema say the same")
struct SkippedChildNamesTests {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test("entries hold in their epoch only, up to the largest id kept, until emptied")
    func entries() {
        let first = NameEpoch.none.next
        let second = first.next
        var names = SkippedChildNames()
        #expect(!names.contains(3, in: first))
        names.insert(3, in: first)
        #expect(names.contains(3, in: first))
        #expect(!names.contains(2, in: first) && !names.contains(4, in: first))
        #expect(!names.contains(3, in: second))
        // An entry of a later epoch replaces the earlier ones.
        names.insert(1, in: second)
        #expect(names.contains(1, in: second) && !names.contains(3, in: second) && !names.contains(3, in: first))
        names.removeAll()
        #expect(!names.contains(1, in: second))
        // Beyond the largest id kept, and before any parse, nothing is noted.
        names.insert(Int32(SkippedChildNames.maximumID), in: second)
        #expect(!names.contains(Int32(SkippedChildNames.maximumID), in: second))
        names.insert(5, in: .none)
        #expect(!names.contains(5, in: .none))
        #expect(NameEpoch.none.next != .none && second != first)
    }

    @Test("a schema that learns a child, or to capture more, forgets the children it left out")
    func schemaChanges() throws {
        let epoch = NameEpoch.none.next
        let schema = KeySchema(processesNamespaces: true)
        schema.noteSkippedChild(named: 7, in: epoch)
        #expect(schema.skipsChild(named: 7, in: epoch))
        _ = schema.child("radius")
        #expect(!schema.skipsChild(named: 7, in: epoch))

        schema.noteSkippedChild(named: 7, in: epoch)
        schema.capturesEverything = true
        #expect(!schema.skipsChild(named: 7, in: epoch))

        let list = KeySchema(processesNamespaces: true)
        list.noteSkippedChild(named: 7, in: epoch)
        list.readsAnyChildAsItem = true
        #expect(!list.skipsChild(named: 7, in: epoch))
    }

    /// Reads `radius` only for circles: the probe never asks for it.
    struct Shape: Decodable, Equatable {
        let size: Double?
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            let kind = try container.decode(String.self, forKey: AnyKey(stringValue: "kind"))
            size = try? container.decode(Double.self, forKey: AnyKey(stringValue: kind == "circle" ? "radius" : "side"))
        }
    }

    @Test("a key learned from a later record is read from the next record on, though its name was left out before")
    func learnedKey() throws {
        // The first record leaves <radius> out (its name is then left out by id); the second
        // asks for it and misses it, which teaches the schema; the third must capture it.
        let xml = """
            <shapes><shape><kind>square</kind><side>2</side><radius>9</radius></shape>\
            <shape><kind>circle</kind><radius>1.5</radius></shape>\
            <shape><kind>circle</kind><radius>3</radius></shape></shapes>
            """
        var sizes: [Double?] = []
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(Shape.self, at: "shape") { sizes.append($0.size) }
        // Another handler: each value is decoded at its end tag, before the next record starts.
        dispatcher.onStart("shapes") { _ in }
        try dispatcher.parse(.string(xml))
        #expect(sizes == [2, nil, 3])
    }

    struct Entry: Decodable, Equatable {
        let v: Int
    }

    @Test("the next document of a concatenated input, whose names get the ids of other names, reads its own")
    func concatenatedDocuments() throws {
        // In the second document, <v> is interned under the id <junk> had in the first.
        let xml = "<log><entry><junk>j</junk><v>1</v></entry></log>\n<log><entry><v>2</v><junk>k</junk></entry></log>"
        #expect(try XMLRecordDecoder().all(Entry.self, at: "entry", in: .string(xml).concatenatedDocuments()) == [
            Entry(v: 1), Entry(v: 2),
        ])
    }

    @Test("another parse with the same dispatcher, whose names get the ids of other names, reads its own")
    func anotherParse() throws {
        var entries: [Entry] = []
        var dispatcher = Dispatcher()
        dispatcher.onDecoded(Entry.self, at: "entry") { entries.append($0) }
        try dispatcher.parse(.string("<log><entry><junk>j</junk><v>1</v></entry></log>"))
        try dispatcher.parse(.string("<log><entry><v>2</v><junk>k</junk></entry></log>"))
        #expect(entries == [Entry(v: 1), Entry(v: 2)])
    }

    struct Titled: Decodable, Equatable {
        let title: String
        enum CodingKeys: String, CodingKey { case title = "{urn:a}title" }
    }

    @Test("a name left out in one namespace is still read in another, whatever the prefix")
    func namespaces() throws {
        // The same prefix and local name, bound to the URI the key reads only in later records.
        let xml = """
            <items xmlns:p="urn:b">\
            <item><p:title>decoy</p:title><title>plain</title><t:title xmlns:t="urn:a">one</t:title></item>\
            <item><p:title>decoy</p:title><p:title xmlns:p="urn:a">two</p:title></item>\
            <item xmlns:p="urn:a"><p:title>three</p:title></item>\
            <item xmlns="urn:a"><title>four</title></item>\
            </items>
            """
        #expect(try XMLRecordDecoder().all(Titled.self, at: "item", in: .string(xml)).map(\.title) == [
            "one", "two", "three", "four",
        ])
    }

    @Test("a name left out under one parent is still read under another")
    func parents() throws {
        struct Page: Decodable, Equatable {
            let id: Int
            let revision: Revision
        }
        struct Revision: Decodable, Equatable {
            let id: Int
            let text: String
        }
        // <text> is left out of the page and read in its revision; <id> the other way round too.
        let xml = """
            <wiki><page><text>no</text><revision><text>a</text><id>7</id></revision><id>1</id></page>\
            <page><id>2</id><text>no</text><revision><id>8</id><text>b</text></revision></page></wiki>
            """
        #expect(try XMLRecordDecoder().all(Page.self, at: "page", in: .string(xml)) == [
            Page(id: 1, revision: Revision(id: 7, text: "a")), Page(id: 2, revision: Revision(id: 8, text: "b")),
        ])
    }
}

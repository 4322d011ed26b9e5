import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// A start tag reads its name's key and its bucket's route flags from one slot
/// (``NameKeys/route(of:)``): the flags kept there must be the route table's for the key, for
/// every name, whenever it was interned.
@Suite("Name keys: each name's slot keeps its key's route flags")
struct NameRouteTests {
    /// Keys are the pattern names `animal`, `name`, then ``NameKeys/other``: three flag sets,
    /// one per key, all different.
    static let flagsOfKeys: [RouteFlags] = [[.start, .end], [.collectsText], [.matchesAncestors]]

    static func makeKeys() -> (NameTable, NameKeys) {
        let names = NameTable()
        let keys = NameKeys(
            names: names, patterns: [ElementPattern("animal"), ElementPattern("name")],
            processesNamespaces: false)
        return (names, keys)
    }

    static func intern(_ names: NameTable, _ keys: NameKeys, _ name: String) -> Int32 {
        let id = name.withCString { names.intern($0) }
        keys.update()
        return id
    }

    @Test("names decided before the flags are attached get them at attachment; later ones when decided")
    func flagsFollowTheKey() {
        let (names, keys) = Self.makeKeys()
        #expect(keys.keyCount == Self.flagsOfKeys.count)
        names.keepAsBase()
        let early = Self.intern(names, keys, "animal")
        #expect(keys.route(of: early).flags == [])
        keys.attachRouteFlags(Self.flagsOfKeys)
        let late = Self.intern(names, keys, "name")
        let unknown = Self.intern(names, keys, "keeper")
        for id in [early, late, unknown] {
            let route = keys.route(of: id)
            #expect(route.key == keys.key(of: id))
            #expect(route.flags == Self.flagsOfKeys[Int(route.key)])
        }
        #expect(keys.route(of: early).flags == [.start, .end])
        #expect(keys.route(of: late).flags == [.collectsText])
        #expect(keys.route(of: unknown).flags == [.matchesAncestors])
    }

    @Test("counting reads the same key and flags, and counts one start tag per read")
    func countedRoute() {
        let (names, keys) = Self.makeKeys()
        keys.attachRouteFlags(Self.flagsOfKeys)
        let id = Self.intern(names, keys, "name")
        for expected in 1...3 {
            let route = keys.countedRoute(of: id)
            #expect(route.key == 1)
            #expect(route.flags == [.collectsText])
            #expect(keys.count(of: id) == expected)
        }
    }

    @Test("a name decided again after the document's names were dropped gets its new key's flags")
    func flagsAfterDroppedNames() {
        let (names, keys) = Self.makeKeys()
        names.keepAsBase()
        keys.attachRouteFlags(Self.flagsOfKeys)
        let first = Self.intern(names, keys, "keeper")
        #expect(keys.route(of: first).flags == [.matchesAncestors])
        names.dropNamesAfterBase()
        keys.dropKeysOfDroppedNames()
        // The id is given to a pattern's name now, whose key and flags differ.
        let second = Self.intern(names, keys, "animal")
        #expect(second == first)
        #expect(keys.route(of: second).key == 0)
        #expect(keys.route(of: second).flags == [.start, .end])
    }
}

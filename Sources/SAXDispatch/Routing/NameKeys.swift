/// The keys that patterns match elements by: what a name means to the patterns of
/// one parse, decided once per distinct name, so that matching compares small integers
/// whatever namespaces and prefixes the document uses.
///
/// The names that patterns use are interned first, under their match spelling
/// (``QualifiedName/matchKey(name:namespace:processesNamespaces:)``), and are keys
/// `0..<patternNameCount`. An element can match up to three of them at once: its name
/// as written (`link`, or `a:link` with an unbound prefix), its name by namespace
/// (`{U}link`), and its local name in any namespace (`*:link`): `<a:link xmlns:a="U">`
/// is the unbound `a:link`, `{U}link` and `*:link`. Each such combination that the
/// patterns make possible has a key of its own, after the pattern names, that
/// ``accepts(_:_:)`` each of its names; every name that no pattern uses has the last
/// key, ``other``. Without namespace processing names compare as written, and only a
/// name and `*:` with its local part combine.
final class NameKeys {
    private let names: NameTable
    let processesNamespaces: Bool
    /// Keys below this are pattern names, with the same number in the name table.
    let patternNameCount: Int32
    /// The pattern names of each combined key, from ``patternNameCount`` on (`-1`: none).
    private let combinations: [(first: Int32, second: Int32, third: Int32)]
    /// The combined key of two or three pattern names (as written, by namespace, in any
    /// namespace, in that order).
    private let combinationKeys: [Combination: Int32]
    /// Whether some pattern name matches a local name in any namespace (`*:link`): only
    /// then is a document name's any-namespace spelling looked up.
    private let hasAnyNamespaceNames: Bool
    /// The key of every name no pattern uses.
    let other: Int32
    /// The local names of the pattern names (with namespace processing), any-namespace ones
    /// included: a name whose local name is not among them has the key ``other`` without a
    /// lookup of its spellings.
    private let patternLocalNames: Set<String>
    /// Per key: the ``ElementFrame/nameBit(_:)`` of each pattern name it stands for. A
    /// buffer, not an array: reading an array stored in a class retains it, per start tag.
    private let bits: UnsafeMutableBufferPointer<UInt64>
    /// Per interned name id: its key, its key's route flags, and how many start tags had
    /// the name (``countedRoute(of:)``). Grows as the document brings new names (``update()``).
    @exclusivity(unchecked) private var keys = GrowableBuffer<NameEntry>(capacity: 64)
    /// Per key: the route flags of its bucket (``RouteTable/flags(bucket:)``), copied into
    /// each name's entry so that a start tag reads its key and flags from one slot. Empty
    /// until ``attachRouteFlags(_:)``: every name's flags are empty until then.
    private var routeFlagsOfKeys: [RouteFlags] = []

    /// What a start tag needs of its name: the key, and the flags of the key's bucket in the
    /// route table (``RouteTable/flags(bucket:)``).
    struct NameRoute {
        var key: Int32
        var flags: RouteFlags
    }

    /// One name's slot: what must stay true is that `route.flags` is the route table's flags
    /// of `route.key`'s bucket, for every name, also those decided again after a document's
    /// names were dropped. Key and flags fill 8 bytes, so the slot is 16 bytes as the key and
    /// count alone were.
    private struct NameEntry {
        var route: NameRoute
        /// The start tags counted with the name: what the warnings about patterns that
        /// matched nothing are derived from (``DispatchEngine/unmatchedPatternWarnings()``).
        var count: Int
    }

    private struct Combination: Hashable {
        var first: Int32
        var second: Int32
        var third: Int32
    }

    /// Interns the names of `patterns`; `names` must be empty.
    init(names: NameTable, patterns: [ElementPattern], processesNamespaces: Bool) {
        precondition(names.count == 0, "pattern names are interned first")
        self.names = names
        self.processesNamespaces = processesNamespaces
        for pattern in patterns {
            for step in pattern.steps {
                if let name = step.name {
                    _ = names.intern(
                        QualifiedName.matchKey(
                            name: name, namespace: step.namespace, processesNamespaces: processesNamespaces))
                }
            }
        }
        let count = Int32(names.count)
        patternNameCount = count
        // By local name: the names as written, by namespace, and in any namespace.
        var written: [(local: String, id: Int32)] = []
        var namespaced: [String: [Int32]] = [:]
        var anyNamespace: [String: Int32] = [:]
        for id in 0..<count {
            let bytes = names.bytes(id)
            if processesNamespaces && bytes.contains(QualifiedName.separator) {
                namespaced[QualifiedName.parts(of: bytes).localName, default: []].append(id)
                continue
            }
            var text = String(decoding: bytes, as: UTF8.self)
            if !processesNamespaces { text.removeFirst(QualifiedName.writtenMarker.count) }
            if let local = QualifiedName.anyNamespaceLocalName(of: text) {
                anyNamespace[local] = id
            } else {
                written.append((QualifiedName.localPart(of: text), id))
            }
        }
        hasAnyNamespaceNames = !anyNamespace.isEmpty
        patternLocalNames = Set(written.map(\.local)).union(namespaced.keys).union(anyNamespace.keys)
        var combinations: [(first: Int32, second: Int32, third: Int32)] = []
        var combinationKeys: [Combination: Int32] = [:]
        func add(_ first: Int32, _ second: Int32, _ third: Int32) {
            combinationKeys[Combination(first: first, second: second, third: third)] = count + Int32(combinations.count)
            combinations.append((first, second, third))
        }
        // A name as written and one by namespace first, in the order of the names.
        for (local, first) in written {
            for second in namespaced[local] ?? [] { add(first, second, -1) }
        }
        // Then each with the any-namespace name of their local name.
        for (local, any) in anyNamespace.sorted(by: { $0.value < $1.value }) {
            let writtenIDs = written.filter { $0.local == local }.map(\.id)
            let namespacedIDs = namespaced[local] ?? []
            for first in writtenIDs { add(first, any, -1) }
            for second in namespacedIDs { add(second, any, -1) }
            for first in writtenIDs {
                for second in namespacedIDs { add(first, second, any) }
            }
        }
        self.combinations = combinations
        self.combinationKeys = combinationKeys
        other = count + Int32(combinations.count)
        let keyBits =
            (0..<count).map { ElementFrame.nameBit($0) }
            + combinations.map { combination in
                [combination.first, combination.second, combination.third].reduce(UInt64(0)) {
                    $1 >= 0 ? $0 | ElementFrame.nameBit($1) : $0
                }
            }
            + [ElementFrame.nameBit(count + Int32(combinations.count))]
        bits = .allocate(capacity: keyBits.count)
        _ = bits.initialize(from: keyBits)
        update()
    }

    deinit {
        bits.deallocate()
    }

    /// The number of keys: pattern names, combinations and ``other``.
    var keyCount: Int { Int(other) + 1 }

    /// The key of a pattern step's name, as interned at creation.
    func key(ofPatternName name: String, namespace: String?) -> Int32 {
        let spelling = QualifiedName.matchKey(name: name, namespace: namespace, processesNamespaces: processesNamespaces)
        guard let id = names.lookup(spelling), id < patternNameCount else { return other }
        return id
    }

    /// Gives every key the flags of its bucket in the route table (indexed by key, one per
    /// key), which the table built from these keys decides: ``route(of:)`` then reads them
    /// with the key.
    func attachRouteFlags(_ flags: [RouteFlags]) {
        precondition(flags.count == keyCount, "one route flag set per key")
        routeFlagsOfKeys = flags
        for id in 0..<keys.count {
            let entry = keys.address(id)
            entry.pointee.route.flags = flags[Int(entry.pointee.route.key)]
        }
    }

    /// The key of an interned name; ``update()`` must have seen its id.
    @inline(__always)
    func key(of id: Int32) -> Int32 { keys[Int(id)].route.key }

    /// The key of an interned name and its bucket's route flags; ``update()`` must have seen
    /// its id.
    @inline(__always)
    func route(of id: Int32) -> NameRoute { keys[Int(id)].route }

    /// The key and route flags of an interned name, counting one more start tag with it: the
    /// one slot they are read from, so that the count costs an increment per element.
    @inline(__always)
    func countedRoute(of id: Int32) -> NameRoute {
        let entry = keys.address(Int(id))
        entry.pointee.count &+= 1
        return entry.pointee.route
    }

    /// Counts one more start tag with the name `id`, whose key was read without counting.
    @inline(__always)
    func count(_ id: Int32) {
        keys.address(Int(id)).pointee.count &+= 1
    }

    /// How many start tags ``countedRoute(of:)`` counted with the name `id`.
    func count(of id: Int32) -> Int { keys[Int(id)].count }

    /// The number of interned names whose keys are decided (``update()``).
    var decidedNameCount: Int { keys.count }

    /// The bytes of the per-name keys and counts, which grow with the document's distinct
    /// names and are charged to the parse's memory budget with the name table.
    var heldBytes: Int { keys.count * MemoryLayout<NameEntry>.stride }

    /// Whether an element with key `key` matches the pattern name with key `name`.
    @inline(__always)
    func accepts(_ key: Int32, _ name: Int32) -> Bool {
        if key == name { return true }
        guard key >= patternNameCount && key < other else { return false }
        let combination = combinations[Int(key - patternNameCount)]
        return combination.first == name || combination.second == name || combination.third == name
    }

    /// The ``ElementFrame/openNames`` bits of an element with key `key`.
    @inline(__always)
    func bits(of key: Int32) -> UInt64 { bits[Int(key)] }

    /// The combined keys that stand for the pattern name `name`.
    func pairs(containing name: Int32) -> [Int32] {
        combinations.indices.filter {
            combinations[$0].first == name || combinations[$0].second == name || combinations[$0].third == name
        }.map { patternNameCount + Int32($0) }
    }

    /// Decides the keys of the names interned since the last call.
    func update() {
        while keys.count < names.count {
            let key = key(ofName: Int32(keys.count))
            let flags = routeFlagsOfKeys.isEmpty ? [] : routeFlagsOfKeys[Int(key)]
            keys.append(NameEntry(route: NameRoute(key: key, flags: flags), count: 0))
        }
    }

    /// Forgets the keys and counts of names the table dropped
    /// (``NameTable/dropNamesAfterBase()``): their ids are given to new names, whose keys
    /// ``update()`` decides afresh. What the warnings need of them is taken first
    /// (``DispatchEngine/endDocument()``).
    func dropKeysOfDroppedNames() {
        if keys.count > names.count { keys.truncate(to: names.count) }
    }

    private func key(ofName id: Int32) -> Int32 {
        // Decided for every new name, and for each document's names again in concatenated
        // documents (``dropKeysOfDroppedNames()``): the names of no pattern cost little.
        guard patternNameCount > 0 else { return other }
        let bytes = names.bytes(id)
        guard processesNamespaces else {
            let text = String(decoding: bytes, as: UTF8.self)
            let written = key(ofSpelling: QualifiedName.writtenMarker + text)
            guard hasAnyNamespaceNames else { return written ?? other }
            let any = key(
                ofSpelling: QualifiedName.writtenMarker + QualifiedName.anyNamespacePrefix + QualifiedName.localPart(of: text))
            return combined([written, any])
        }
        let parts = QualifiedName.parts(of: bytes)
        guard patternLocalNames.contains(parts.localName) else { return other }
        // The unprefixed or unbound-prefix spelling, the namespaced one, and the any-namespace one.
        let written = key(ofSpelling: parts.prefix.map { "\($0):\(parts.localName)" } ?? parts.localName)
        let namespaced = key(
            ofSpelling: (parts.namespaceURI ?? "") + QualifiedName.separatorText + parts.localName)
        let any = hasAnyNamespaceNames ? key(ofSpelling: QualifiedName.anyNamespacePrefix + parts.localName) : nil
        return combined([written, namespaced, any])
    }

    /// The key of the pattern names an element matches at once, in the order written, by
    /// namespace, in any namespace.
    private func combined(_ matched: [Int32?]) -> Int32 {
        let found = matched.compactMap { $0 }
        switch found.count {
        case 0: return other
        case 1: return found[0]
        default:
            let combination = Combination(
                first: found[0], second: found[1], third: found.count > 2 ? found[2] : -1)
            return combinationKeys[combination] ?? other
        }
    }

    private func key(ofSpelling spelling: String) -> Int32? {
        guard let id = names.lookup(spelling), id < patternNameCount else { return nil }
        return id
    }
}

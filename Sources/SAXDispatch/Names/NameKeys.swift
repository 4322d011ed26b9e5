/// The keys that patterns match elements by: what a name means to the patterns of
/// one parse, decided once per distinct name, so that matching compares small integers
/// whatever namespaces and prefixes the document uses.
///
/// The names that patterns use are interned first, under their match spelling
/// (``QualifiedName/matchKey(name:namespace:processesNamespaces:)``), and are keys
/// `0..<patternNameCount`. An element can match two of them at once: `<link xmlns="U">`
/// is both the unprefixed `link` and `{U}link`; `<a:link xmlns:a="U">` both the unbound
/// `a:link` and `{U}link`. Each such pair that the patterns make possible has a key of
/// its own, after the pattern names, that ``accepts(_:_:)`` both names; every name that
/// no pattern uses has the last key, ``other``. Without namespace processing names
/// compare as written and no pairs arise.
final class NameKeys {
    private let names: NameTable
    let processesNamespaces: Bool
    /// Keys below this are pattern names, with the same number in the name table.
    let patternNameCount: Int32
    /// The two pattern names of each pair key, from ``patternNameCount`` on.
    private let pairs: [(first: Int32, second: Int32)]
    /// The pair key of two pattern names (the unprefixed or unbound one first).
    private let pairKeys: [PairKey: Int32]
    /// The key of every name no pattern uses.
    let other: Int32
    /// The local names of the pattern names (with namespace processing): a name whose
    /// local name is not among them has the key ``other`` without a lookup of its spellings.
    private let patternLocalNames: Set<String>
    /// Per key: the ``ElementFrame/nameBit(_:)`` of each pattern name it stands for. A
    /// buffer, not an array: reading an array stored in a class retains it, per start tag.
    private let bits: UnsafeMutableBufferPointer<UInt64>
    /// Per interned name id: its key. Grows as the document brings new names (``update()``).
    @exclusivity(unchecked) private var keys = GrowableBuffer<Int32>(capacity: 64)

    private struct PairKey: Hashable {
        var first: Int32
        var second: Int32
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
        // Pairs: an unprefixed or unbound-prefix name and a namespaced one with the same local name.
        var pairs: [(first: Int32, second: Int32)] = []
        var pairKeys: [PairKey: Int32] = [:]
        var localNames: Set<String> = []
        if processesNamespaces {
            var namespaced: [String: [Int32]] = [:]
            var others: [(local: String, id: Int32)] = []
            for id in 0..<count {
                let bytes = names.bytes(id)
                if bytes.contains(QualifiedName.separator) {
                    let local = QualifiedName.parts(of: bytes).localName
                    namespaced[local, default: []].append(id)
                    localNames.insert(local)
                } else {
                    let local = QualifiedName.localPart(of: String(decoding: bytes, as: UTF8.self))
                    others.append((local, id))
                    localNames.insert(local)
                }
            }
            for (local, first) in others {
                for second in namespaced[local] ?? [] {
                    pairKeys[PairKey(first: first, second: second)] = count + Int32(pairs.count)
                    pairs.append((first, second))
                }
            }
        }
        self.pairs = pairs
        self.pairKeys = pairKeys
        patternLocalNames = localNames
        other = count + Int32(pairs.count)
        let keyBits =
            (0..<count).map { ElementFrame.nameBit($0) }
            + pairs.map { ElementFrame.nameBit($0.first) | ElementFrame.nameBit($0.second) }
            + [ElementFrame.nameBit(count + Int32(pairs.count))]
        bits = .allocate(capacity: keyBits.count)
        _ = bits.initialize(from: keyBits)
        update()
    }

    deinit {
        bits.deallocate()
    }

    /// The number of keys: pattern names, pairs and ``other``.
    var keyCount: Int { Int(other) + 1 }

    /// The key of a pattern step's name, as interned at creation.
    func key(ofPatternName name: String, namespace: String?) -> Int32 {
        let spelling = QualifiedName.matchKey(name: name, namespace: namespace, processesNamespaces: processesNamespaces)
        guard let id = names.lookup(spelling), id < patternNameCount else { return other }
        return id
    }

    /// The key of an interned name; ``update()`` must have seen its id.
    @inline(__always)
    func key(of id: Int32) -> Int32 { keys[Int(id)] }

    /// Whether an element with key `key` matches the pattern name with key `name`.
    @inline(__always)
    func accepts(_ key: Int32, _ name: Int32) -> Bool {
        if key == name { return true }
        guard key >= patternNameCount && key < other else { return false }
        let pair = pairs[Int(key - patternNameCount)]
        return pair.first == name || pair.second == name
    }

    /// The ``ElementFrame/openNames`` bits of an element with key `key`.
    @inline(__always)
    func bits(of key: Int32) -> UInt64 { bits[Int(key)] }

    /// The pair keys that stand for the pattern name `name`.
    func pairs(containing name: Int32) -> [Int32] {
        pairs.indices.filter { pairs[$0].first == name || pairs[$0].second == name }.map {
            patternNameCount + Int32($0)
        }
    }

    /// Decides the keys of the names interned since the last call.
    func update() {
        while keys.count < names.count {
            keys.append(key(ofName: Int32(keys.count)))
        }
    }

    /// Forgets the keys of names the table dropped (``NameTable/dropNamesAfterBase()``):
    /// their ids are given to new names, whose keys ``update()`` decides afresh.
    func dropKeysOfDroppedNames() {
        if keys.count > names.count { keys.truncate(to: names.count) }
    }

    private func key(ofName id: Int32) -> Int32 {
        // Decided for every new name, and for each document's names again in concatenated
        // documents (``dropKeysOfDroppedNames()``): the names of no pattern cost little.
        guard patternNameCount > 0 else { return other }
        let bytes = names.bytes(id)
        guard processesNamespaces else {
            return key(ofSpelling: QualifiedName.writtenMarker + String(decoding: bytes, as: UTF8.self)) ?? other
        }
        let parts = QualifiedName.parts(of: bytes)
        guard patternLocalNames.contains(parts.localName) else { return other }
        // The unprefixed or unbound-prefix spelling, and the namespaced one.
        let written = key(ofSpelling: parts.prefix.map { "\($0):\(parts.localName)" } ?? parts.localName)
        let namespaced = key(
            ofSpelling: (parts.namespaceURI ?? "") + QualifiedName.separatorText + parts.localName)
        switch (written, namespaced) {
        case (nil, nil): return other
        case (let key?, nil), (nil, let key?): return key
        case (let first?, let second?): return pairKeys[PairKey(first: first, second: second)] ?? other
        }
    }

    private func key(ofSpelling spelling: String) -> Int32? {
        guard let id = names.lookup(spelling), id < patternNameCount else { return nil }
        return id
    }
}

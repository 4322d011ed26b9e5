/// A few attribute names (``KeyName``s), found by an attribute name as expat gives it (a
/// NUL-terminated C string) without making a `String` of it: the capture asks once per
/// attribute of every captured element, so names of other first bytes are turned away by
/// one bit test.
///
/// Expat spells an attribute `local` (unprefixed, or without namespace processing) or
/// `uri␁local␁prefix` (``QualifiedName``). A name compared as written must match exactly;
/// a name in a namespace is kept as `uri␁local` and matches a spelling that ends there or
/// goes on with a separator; each kind has its own table, so that looking up names without
/// a namespace costs what it would with no other kind. A prefix no binding declares
/// matches by the end of the spelling, `␁local␁prefix`, whatever URI comes first, so those
/// few names are compared in turn after the others.
///
/// A class: the capture looks up every attribute of every captured element, and a lookup
/// in a set stored in a ``KeySchema`` as a struct first copied the whole set.
final class AttributeNameSet {
    // Changed only while a schema learns names, never during a lookup or re-entrantly: no
    // runtime exclusivity checks.
    /// How a name of the set is found, and what the capture learns from finding it.
    enum Found {
        /// As written, with this name: the attribute is in no namespace.
        case written(String)
        /// By namespace, with this URI: the prefix is the document's.
        case namespaced(uri: String)
        /// By an unbound prefix, in any namespace, with this name as written.
        case prefixed(String)
    }

    /// The names, in the order they were added.
    @exclusivity(unchecked) private(set) var names: [KeyName] = []
    /// The names' keys (``KeyName/key``): read by namespace, and the others.
    @exclusivity(unchecked) private var namespacedKeys: [String] = []
    @exclusivity(unchecked) private var writtenKeys: [String] = []
    /// Per name: how it is found, kept apart from ``names`` so that the capture copies a
    /// `String` at most, not a ``KeyName``.
    @exclusivity(unchecked) private var found: [Found] = []
    /// The names compared as written, and those in a namespace.
    @exclusivity(unchecked) private var written = SpellingTable()
    @exclusivity(unchecked) private var namespaced = SpellingTable()
    /// Bit `b` of word `b / 64` is set when a name of either table starts with byte `b`.
    @exclusivity(unchecked) private var firstBytes = FirstBytes()
    /// The names written with a prefix no binding declares, with the end of expat's spelling
    /// (`␁local␁prefix`) and their index in ``names``.
    @exclusivity(unchecked) private var prefixed: [(suffix: [UInt8], index: Int)] = []
    /// Whether expat resolves prefixes: a prefixed name compared as written then comes as
    /// `uri␁local␁prefix`, never as `prefix:local`.
    let processesNamespaces: Bool

    init(_ names: [KeyName] = [], processesNamespaces: Bool = false) {
        self.processesNamespaces = processesNamespaces
        for name in names { insert(name) }
    }

    @inline(__always)
    func contains(_ name: KeyName) -> Bool {
        // By kind: a name in a namespace is long, and comparing a short name with it would
        // not stop at its first byte.
        name.isNamespaced ? namespacedKeys.contains(name.key) : writtenKeys.contains(name.key)
    }

    /// Adds `name` unless it is there already.
    func insert(_ name: KeyName) {
        guard !contains(name) else { return }
        if let (namespace, local) = name.namespaceAndLocalName {
            guard Self.canBeInSpelling(namespace), Self.canBeInSpelling(local) else { return }
            namespaced.add(namespace + QualifiedName.separatorText + local, index: names.count)
            firstBytes.insert(String(namespace))
            found.append(.namespaced(uri: String(namespace)))
        } else if processesNamespaces, let prefix = QualifiedName.prefix(of: name.key) {
            guard Self.canBeInSpelling(name.key) else { return }
            let separator = QualifiedName.separatorText
            let suffix = "\(separator)\(QualifiedName.localPart(of: name.key))\(separator)\(prefix)"
            prefixed.append((Array(suffix.utf8), names.count))
            found.append(.prefixed(name.key))
        } else {
            guard Self.canBeInSpelling(name.key) else { return }
            written.add(name.key, index: names.count)
            firstBytes.insert(name.key)
            found.append(.written(name.key))
        }
        names.append(name)
        if name.isNamespaced { namespacedKeys.append(name.key) } else { writtenKeys.append(name.key) }
    }

    /// Whether `part` can be part of expat's spelling of an attribute's name: an empty name
    /// cannot be an attribute's, and a NUL or separator would end the stored name early.
    private static func canBeInSpelling(_ part: some StringProtocol) -> Bool {
        !part.isEmpty && !part.utf8.contains(where: { $0 <= QualifiedName.separator })
    }

    /// How name `index` is found, with what the capture keeps of it.
    @inline(__always)
    func found(at index: Int) -> Found { found[index] }

    /// The index in ``names`` of the name `cString` spells, if it is one of them.
    @inline(__always)
    func index(of cString: UnsafePointer<CChar>) -> Int? {
        let first = UInt8(bitPattern: cString.pointee)
        if firstBytes.contains(first) {
            if written.firstBytes.contains(first), let index = written.find(cString) { return index }
            if namespaced.firstBytes.contains(first), let index = namespaced.findContinuingAtSeparator(cString) {
                return index
            }
        }
        return prefixed.isEmpty ? nil : findPrefixed(cString)
    }

    /// The index of the name written with an unbound prefix that `cString` spells, if any.
    @inline(never)
    private func findPrefixed(_ cString: UnsafePointer<CChar>) -> Int? {
        let start = UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self)
        var length = 0
        while start[length] != 0 { length += 1 }
        let candidate = UnsafeBufferPointer(start: start, count: length)
        for (suffix, index) in prefixed
        where length > suffix.count && candidate.suffix(suffix.count).elementsEqual(suffix) {
            return index
        }
        return nil
    }
}

/// A bit per byte that some names start with.
private struct FirstBytes {
    /// Bit `b` of word `b / 64` is set when a name starts with byte `b`.
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    mutating func insert(_ name: String) {
        let first = name.utf8.first ?? 0
        let bit = UInt64(1) << UInt64(first & 63)
        if first < 64 {
            words.0 |= bit
        } else if first < 128 {
            words.1 |= bit
        } else if first < 192 {
            words.2 |= bit
        } else {
            words.3 |= bit
        }
    }

    @inline(__always)
    func contains(_ first: UInt8) -> Bool {
        let word = first < 64 ? words.0 : first < 128 ? words.1 : first < 192 ? words.2 : words.3
        return word & (1 << UInt64(first & 63)) != 0
    }
}

/// Spellings back to back, each followed by a NUL, with a bit per first byte.
private struct SpellingTable {
    private var bytes: [UInt8] = []
    /// Where each spelling starts in ``bytes``, and the index its name has in the set.
    private var starts: [Int] = []
    private var indices: [Int] = []
    private(set) var firstBytes = FirstBytes()

    mutating func add(_ spelling: String, index: Int) {
        starts.append(bytes.count)
        indices.append(index)
        bytes.append(contentsOf: spelling.utf8)
        bytes.append(0)
        firstBytes.insert(spelling)
    }

    /// The index of the name whose spelling `cString` is.
    @inline(never)
    func find(_ cString: UnsafePointer<CChar>) -> Int? {
        let candidate = UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self)
        let slot = bytes.withUnsafeBufferPointer { stored -> Int? in
            guard let base = stored.baseAddress else { return nil }
            for slot in 0..<starts.count {
                // Compare up to and including the stored spelling's NUL.
                let name = base + starts[slot]
                var offset = 0
                while name[offset] == candidate[offset] {
                    if name[offset] == 0 { return slot }
                    offset += 1
                }
            }
            return nil
        }
        return slot.map { indices[$0] }
    }

    /// The index of the name whose spelling `cString` is, or begins and goes on with a
    /// separator: `uri␁local` for `uri␁local␁prefix`.
    @inline(never)
    func findContinuingAtSeparator(_ cString: UnsafePointer<CChar>) -> Int? {
        let candidate = UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self)
        let slot = bytes.withUnsafeBufferPointer { stored -> Int? in
            guard let base = stored.baseAddress else { return nil }
            for slot in 0..<starts.count {
                let name = base + starts[slot]
                var offset = 0
                while name[offset] == candidate[offset] {
                    if name[offset] == 0 { return slot }
                    offset += 1
                }
                if name[offset] == 0 && candidate[offset] == QualifiedName.separator { return slot }
            }
            return nil
        }
        return slot.map { indices[$0] }
    }
}

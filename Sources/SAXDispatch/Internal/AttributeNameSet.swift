/// A few attribute names (``KeyName``s), found by an attribute name as expat gives it (a
/// NUL-terminated C string) without making a `String` of it: the capture asks once per
/// attribute of every captured element, so names of other first bytes are turned away by
/// one bit test.
///
/// Expat spells an attribute `local` (unprefixed, or without namespace processing) or
/// `uri␁local␁prefix` (``QualifiedName``). A name compared as written is stored as it is
/// and must match exactly; a name in a namespace is stored as `uri␁local` and matches
/// whatever follows a separator; a prefix no binding declares matches by the end of the
/// spelling, `␁local␁prefix`, whatever URI comes first, so those few names are compared
/// in turn after the others.
struct AttributeNameSet {
    /// The names, in the order they were added.
    private(set) var names: [KeyName] = []
    /// The names' UTF-8 bytes as expat spells them (the start of that spelling, for a name
    /// in a namespace), each followed by a NUL.
    private var bytes: [UInt8] = []
    /// Where each stored name starts in ``bytes``, its index in ``names``, and whether it
    /// matches a spelling that goes on past its stored end with a separator.
    private var starts: [Int] = []
    private var indices: [Int] = []
    private var continuesAtSeparator: [Bool] = []
    /// Bit `b` of word `b / 64` is set when a name starts with byte `b`.
    private var firstBytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// The names written with a prefix no binding declares, with the end of expat's spelling
    /// (`␁local␁prefix`) and their index in ``names``.
    private var prefixed: [(suffix: [UInt8], index: Int)] = []

    init(_ names: [KeyName] = []) {
        for name in names { insert(name) }
    }

    func contains(_ name: KeyName) -> Bool { names.contains(name) }

    /// Adds `name` unless it is there already.
    mutating func insert(_ name: KeyName) {
        // An empty name cannot be an attribute's; a NUL would end the stored name early.
        guard !name.name.isEmpty, !name.name.utf8.contains(0), !names.contains(name) else { return }
        let spelling: String
        switch name.match {
        case .written:
            spelling = name.name
        case .writtenPrefix:
            // Expat never hands over `prefix:local` with namespace processing on.
            let local = QualifiedName.localPart(of: name.name)
            let prefix = QualifiedName.prefix(of: name.name) ?? ""
            let separator = QualifiedName.separatorText
            prefixed.append((Array("\(separator)\(local)\(separator)\(prefix)".utf8), names.count))
            names.append(name)
            return
        case .namespace(let namespace):
            guard !namespace.utf8.contains(0) else { return }
            spelling = namespace + QualifiedName.separatorText + name.name
        }
        starts.append(bytes.count)
        indices.append(names.count)
        names.append(name)
        continuesAtSeparator.append(name.match != .written)
        bytes.append(contentsOf: spelling.utf8)
        bytes.append(0)
        let first = spelling.utf8.first ?? 0
        let bit = UInt64(1) << UInt64(first & 63)
        if first < 64 {
            firstBytes.0 |= bit
        } else if first < 128 {
            firstBytes.1 |= bit
        } else if first < 192 {
            firstBytes.2 |= bit
        } else {
            firstBytes.3 |= bit
        }
    }

    /// The index in ``names`` of the name `cString` spells, if it is one of them.
    @inline(__always)
    func index(of cString: UnsafePointer<CChar>) -> Int? {
        let first = UInt8(bitPattern: cString.pointee)
        let word =
            first < 64 ? firstBytes.0 : first < 128 ? firstBytes.1 : first < 192 ? firstBytes.2 : firstBytes.3
        if word & (1 << UInt64(first & 63)) != 0, let index = find(cString) { return index }
        return prefixed.isEmpty ? nil : findPrefixed(cString)
    }

    /// ``index(of:)`` past the first byte's test.
    @inline(never)
    private func find(_ cString: UnsafePointer<CChar>) -> Int? {
        let candidate = UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self)
        return bytes.withUnsafeBufferPointer { stored in
            guard let base = stored.baseAddress else { return nil }
            for index in 0..<starts.count {
                // Compare up to and including the stored name's NUL.
                let name = base + starts[index]
                var offset = 0
                while name[offset] == candidate[offset] {
                    if name[offset] == 0 { return indices[index] }
                    offset += 1
                }
                if name[offset] == 0 && candidate[offset] == QualifiedName.separator && continuesAtSeparator[index] {
                    return indices[index]
                }
            }
            return nil
        }
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

/// A few attribute names, found by an attribute name as expat gives it (a NUL-terminated
/// C string) without making a `String` of it: the capture asks once per attribute of
/// every captured element, so names of other first bytes are turned away by one bit test.
struct AttributeNameSet {
    /// The names, in the order they were added.
    private(set) var names: [String] = []
    /// The names' UTF-8 bytes, each followed by a NUL.
    private var bytes: [UInt8] = []
    /// Where each name starts in ``bytes`` (same order as ``names``).
    private var starts: [Int] = []
    /// Bit `b` of word `b / 64` is set when a name starts with byte `b`.
    private var firstBytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init(_ names: [String] = []) {
        for name in names { insert(name) }
    }

    func contains(_ name: String) -> Bool { names.contains(name) }

    /// Adds `name` unless it is there already.
    mutating func insert(_ name: String) {
        // An empty name cannot be an attribute's; a NUL would end the stored name early.
        guard !name.isEmpty, !name.utf8.contains(0), !names.contains(name) else { return }
        names.append(name)
        starts.append(bytes.count)
        bytes.append(contentsOf: name.utf8)
        bytes.append(0)
        let first = name.utf8.first ?? 0
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
        guard word & (1 << UInt64(first & 63)) != 0 else { return nil }
        return find(cString)
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
                    if name[offset] == 0 { return index }
                    offset += 1
                }
            }
            return nil
        }
    }
}

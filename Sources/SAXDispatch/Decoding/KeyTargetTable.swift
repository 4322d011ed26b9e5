/// What the keys of one `CodingKey` type read (``KeyTarget``), by key name: a key type has
/// a handful of keys, and a decode reads the same ones in the same order record after
/// record, so the names are first compared by their bits (a name the key type gives as a
/// literal has the same bits every time) and only then by their contents. The session's
/// lookup, shared by all key types, is asked for a name met the first time.
final class KeyTargetTable {
    // Read and written by decodes, one at a time: no runtime exclusivity checks.
    @exclusivity(unchecked) private var names: [String] = []
    @exclusivity(unchecked) private var targets: [KeyTarget] = []

    /// What `key` reads, with `session`'s options.
    @inline(__always)
    func target(_ key: some CodingKey, in session: DecodingSession) -> KeyTarget {
        let name = key.stringValue
        for index in names.indices where names[index].isStoredAlike(name) { return targets[index] }
        return slowTarget(name, key, in: session)
    }

    @inline(never)
    private func slowTarget(_ name: String, _ key: some CodingKey, in session: DecodingSession) -> KeyTarget {
        if let index = names.firstIndex(of: name) { return targets[index] }
        let target = session.lookup(key)
        // Bounded like the session's own lookups: keys from the data can be any names.
        if names.count < DecodingSession.maximumCachedLookups {
            names.append(name)
            targets.append(target)
        }
        return target
    }
}

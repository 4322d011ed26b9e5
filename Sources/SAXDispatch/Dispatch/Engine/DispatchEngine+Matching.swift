/// Matching the patterns whose names alone do not decide them, and keeping the attributes
/// that patterns asked to retain for the open elements.
extension DispatchEngine {
    /// Finds the patterns of a bucket whose name alone does not decide them that the new
    /// top element matches, records them for it and returns their flags. Where names alone
    /// decide them, an element on a path matched before takes that match; where names and
    /// the element's own attribute tests do, an element on that path whose tests came out
    /// the same (`heldTests`, one bit per test of the bucket) does.
    func matchPatterns(bucket: Int, path: Int32, heldTests: UInt32) -> RouteFlags {
        let start = matches.count
        // The number the matches are kept under: the path's, or one for the path followed
        // by the tests' results as a step of their own (a negative name, no element's).
        let key =
            if routes.matchesByNames(bucket: bucket) {
                path
            } else if routes.matchesByNamesAndOwnTests(bucket: bucket) {
                pathMatches.path(parent: path, name: -2 - Int32(truncatingIfNeeded: heldTests))
            } else {
                PathMatchCache.untracked
            }
        let flags: RouteFlags
        if let kept = pathMatches.pushMatches(of: key, onto: &matches) {
            flags = kept
        } else {
            flags = matchCandidates(bucket: bucket)
            if key >= 0 {
                let found = matches.entries(from: Int32(start), count: Int32(matches.count - start))
                pathMatches.remember(key, flags: flags, entries: found)
            }
        }
        stack.top.matchStart = Int32(start)
        stack.top.matchCount = Int32(matches.count - start)
        return flags
    }

    /// Matches a bucket's candidates against the open elements, pushes the matches onto
    /// the match stack and returns their flags.
    func matchCandidates(bucket: Int) -> RouteFlags {
        let top = stack.count - 1
        var flags: RouteFlags = []
        // The handler groups whose patterns matched: a mounted set's catch-all runs only if
        // its own bit is clear, the dispatcher's catch-all only if bit 0 is.
        var matchedGroups: UInt64 = 0
        for entry in routes.candidates(bucket: bucket)
        where routes.matches(entry: entry, top: top, stack: stack, tests: testResults) {
            if matchedGroups & routes.catchAllBit(entry: entry) != 0 { continue }
            if routes.flags(entry: entry).hasHandlers { matchedGroups |= routes.groupMask(entry: entry) }
            matches.push(entry)
            matchedEntries[Int(entry)] = true
            flags.formUnion(routes.flags(entry: entry))
        }
        if matchedGroups & 1 == 0 && routes.flags(entry: routes.fallbackEntry).isListened {
            matches.push(routes.fallbackEntry)
            // Entries that only keep attributes may have matched: their flags stay.
            flags.formUnion(routes.flags(entry: routes.fallbackEntry))
        }
        return flags
    }

    /// Keeps the attributes that the patterns matching the new top element asked for.
    func retainAttributes(_ pairs: UnsafeMutablePointer<UnsafePointer<CChar>?>, bucket: Int) {
        let frame = stack.top
        var wanted = routes.retainedAttributes(bucket: bucket)
        if frame.matchStart >= 0 {
            for entry in matches.entries(from: frame.matchStart, count: frame.matchCount) {
                wanted += routes.retainedAttributes(entry: entry).filter { !wanted.contains($0) }
            }
        }
        let count = Self.attributeCount(pairs)
        // No engine: the view is used here only, while the pairs are valid.
        let attributes = ElementAttributes(
            engine: nil, serial: frame.serial, pairs: UnsafePointer(pairs), count: count, specifiedCount: count)
        for name in wanted {
            if let value = attributes[name] {
                retained.append(RetainedAttribute(depth: stack.count, element: frame.name, name: name, value: value))
            }
        }
    }

    /// The number of name/value pairs in expat's NULL-terminated attribute array.
    static func attributeCount(_ pairs: UnsafePointer<UnsafePointer<CChar>?>) -> Int {
        var count = 0
        while pairs[2 * count] != nil { count += 1 }
        return count
    }

    /// The value of `attribute` kept for the nearest element above stack depth `depth`
    /// named `element` (any, when `nil`).
    func retainedAttribute(_ attribute: String, of element: String?, below depth: Int, serial: UInt64) -> String? {
        _ = checkedFrameCount(depth: depth, serial: serial)
        for kept in retained.reversed() where kept.depth < depth && kept.name == attribute {
            if element.map({ isNamed(kept.element, $0) }) ?? true { return kept.value }
        }
        return nil
    }

    /// Whether the interned name `id` is `name`: a name as the document wrote it
    /// (`prefix:local`), or one in Clark notation (`{uri}local`).
    func isNamed(_ id: Int32, _ name: String) -> Bool {
        guard let (namespace, local) = QualifiedName.clark(name) else { return names.string(id) == name }
        let parts = names.parts(id)
        return parts.localName == local && (parts.namespaceURI ?? "") == namespace
    }
}

/// A ``PatternWatch`` as one parse sees it: its pattern resolved by the dispatcher's
/// bindings, and the route entries that match what it matches.
struct WatchedPattern {
    var watch: PatternWatch
    /// The route entries with the watch's pattern (one per handler group that registered it).
    var entries: [Int32]

    /// The watches of a dispatcher, in the same order (a watch's ``PatternWatch/parent`` is
    /// an index among them), each with its entries among `entries`, the route table's.
    static func resolve(_ watches: [PatternWatch], entries: [RouteEntry], bindings: NamespaceBindings) -> [WatchedPattern] {
        guard !watches.isEmpty else { return [] }
        var byPattern: [ElementPattern: [Int32]] = [:]
        for (index, entry) in entries.enumerated() where !entry.isCatchAll {
            byPattern[entry.pattern, default: []].append(Int32(index))
        }
        return watches.map { watch in
            var watch = watch
            watch.pattern = watch.pattern.resolvingPrefixes(bindings)
            // `.` outside a mount is no element's: nothing to report about it.
            if watch.pattern.isMountPoint { watch.role = .unwatched }
            return WatchedPattern(watch: watch, entries: byPattern[watch.pattern] ?? [])
        }
    }
}

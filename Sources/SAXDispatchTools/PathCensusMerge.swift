/// The path census of many documents together, as `saxdispatch paths` prints it for many
/// files: one entry per distinct path of any of them, counts added up, the most levels
/// below, attribute names and namespace URIs in order of first appearance over the files
/// in the order given, and the first file's sample.
///
/// ```swift
/// var merged = PathCensusMerge(maximumEntries: 100_000)
/// for file in files { merged.add(PathCensus().run(.file(file))) }
/// let entries = merged.entries(order: .count)
/// ```
public struct PathCensusMerge {
    private var merged: [PathCensus.Entry] = []
    private var positions: [String: Int] = [:]
    /// Per merged entry (same index): its attribute names and namespace URIs, to find one
    /// without searching its lists, so that merging stays linear in what the documents hold.
    private var attributeSets: [Set<String>] = []
    private var uriSets: [Set<String>] = []
    private var seenNamespaces: Set<PathCensus.Namespace> = []
    /// Every prefix and the URIs it stood for, over all the documents added.
    public private(set) var namespaces: [PathCensus.Namespace] = []
    /// The most distinct paths kept; the paths past it are left out (``isTruncated``).
    public let maximumEntries: Int
    /// Whether paths were left out because there were more than ``maximumEntries``.
    public private(set) var isTruncated = false

    /// A merge that keeps at most `maximumEntries` distinct paths.
    public init(maximumEntries: Int) {
        self.maximumEntries = maximumEntries
    }

    /// Adds the paths and namespaces of one document's census, which may have ended
    /// early (its paths before the failure count).
    public mutating func add(_ outcome: PathCensus.Outcome) {
        for entry in outcome.entries {
            guard let position = positions[entry.path] else {
                guard merged.count < maximumEntries else {
                    isTruncated = true
                    continue
                }
                positions[entry.path] = merged.count
                merged.append(entry)
                attributeSets.append(Set(entry.attributes))
                uriSets.append(Set(entry.namespaceURIs))
                continue
            }
            var kept = merged[position]
            kept.count += entry.count
            kept.levelsBelow = max(kept.levelsBelow, entry.levelsBelow)
            for name in entry.attributes where attributeSets[position].insert(name).inserted { kept.attributes.append(name) }
            for uri in entry.namespaceURIs where uriSets[position].insert(uri).inserted { kept.namespaceURIs.append(uri) }
            kept.sample = kept.sample ?? entry.sample
            merged[position] = kept
        }
        for namespace in outcome.namespaces where seenNamespaces.insert(namespace).inserted {
            namespaces.append(namespace)
        }
    }

    /// The entries, by first appearance (over the documents in the order added) or most
    /// frequent first, equal counts by first appearance.
    public func entries(order: PathCensus.Order) -> [PathCensus.Entry] {
        switch order {
        case .document:
            return merged
        case .count:
            return merged.enumerated().sorted { left, right in
                left.element.count != right.element.count ? left.element.count > right.element.count : left.offset < right.offset
            }.map(\.element)
        }
    }

    /// The elements of all the documents added: the entries' counts added up.
    public var elements: Int {
        merged.reduce(0) { $0 + $1.count }
    }
}

import SAXDispatch

/// The kinds of border a `<path>` can belong to, named after their elements.
enum BorderKind: String, CaseIterable, Sendable {
    case internalBorder
    case externalBorder
    case continentBorder
}

/// Every border path of a map, filed under its border kind.
struct BorderMap: Equatable, Sendable {
    var paths: [BorderKind: [String]] = [:]
    /// Paths that are not inside any border element (a legend, say), ignored.
    var ignoredPaths = 0
}

/// One `path` handler serves three kinds of border: the ancestor stack says which.
enum BordersReader {
    static func read(contentsOfFile path: String) throws -> BorderMap {
        var map = BorderMap()
        var dispatcher = Dispatcher()
        dispatcher.onEnd("path") { element, text in
            if let parent = element.ancestor(at: 1), let kind = BorderKind(rawValue: parent) {
                map.paths[kind, default: []].append(text)
            } else {
                map.ignoredPaths += 1
            }
        }
        try dispatcher.parse(contentsOfFile: path)
        return map
    }
}

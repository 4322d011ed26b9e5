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

/// A handler object: its handlers are registered next to the methods they call. The
/// three border patterns are more specific than `path`, so they run first and end the
/// chain; `path` alone sees only the paths outside every border.
struct BordersReader: ElementHandlers {
    var map = BorderMap()

    static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
        handlers.onEnd("internalBorder/path") { $0.file($2, under: .internalBorder, $1) }
        handlers.onEnd("externalBorder/path") { $0.file($2, under: .externalBorder, $1) }
        handlers.onEnd("continentBorder/path") { $0.file($2, under: .continentBorder, $1) }
        handlers.onEnd("path") { reader, _, _ in reader.map.ignoredPaths += 1 }
    }

    mutating func file(_ path: String, under kind: BorderKind, _ element: ElementContext) {
        map.paths[kind, default: []].append(path)
        element.stopHandlerChain()
    }

    static func read(contentsOfFile path: String) throws -> BorderMap {
        var reader = BordersReader()
        try reader.parse(.file(path))
        return reader.map
    }
}

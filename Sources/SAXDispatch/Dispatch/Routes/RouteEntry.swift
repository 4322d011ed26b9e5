/// The handlers a dispatcher holds for one pattern, and which handler set they came from.
struct RouteEntry {
    /// Entries with equal keys share one route.
    struct Key: Hashable {
        var pattern: ElementPattern
        var group: Int
        var isCatchAll: Bool
    }

    var pattern: ElementPattern
    var route: Route
    /// The handler set the handlers belong to: 0 for the dispatcher's own, one more per mount.
    var group: Int
    /// Whether these are a mounted set's catch-all handlers, which run for an element
    /// below the mount point only where none of that set's patterns matched.
    var isCatchAll: Bool
}

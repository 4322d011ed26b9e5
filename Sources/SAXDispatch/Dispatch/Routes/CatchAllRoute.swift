/// The one route every element takes when a dispatcher's only element handlers are
/// catch-alls: decided once, when the engine is made, for the catch-all path
/// (`DispatchEngine+CatchAll`).
struct CatchAllRoute {
    /// The key of every name (``NameKeys/other``: no pattern names any).
    let key: Int32
    /// The flags of every element: a subset of start, end and text chunks.
    let flags: RouteFlags
    /// ``ElementFrame/openNames`` of every element: the bits of ``key``, the same at every
    /// depth since every ancestor has the same key.
    let openNames: UInt64
    /// The catch-all start handler and text-chunk handler, if any.
    let startHandler: UnretainedHandler<Route.StartHandler>?
    let textHandler: UnretainedHandler<Route.TextHandler>?
    /// Where character data goes while an element is open.
    let characterData: ExpatDriver.CharacterData

    /// Whether an element has nothing to finish at its end tag: no end handler.
    var endsPlainly: Bool { !flags.contains(.end) }

    /// The flags the catch-all path handles: anything else needs the general path.
    static let handledFlags: RouteFlags = [.start, .end, .textChunks]

    /// The catch-all route of a dispatcher whose registrations allow the catch-all path, or
    /// `nil`: no pattern (`hasPatterns`: so no attribute test, match against ancestors or
    /// passing through),
    /// no subtree filter, no watched pattern, catch-all flags within ``handledFlags`` (no
    /// own or whole text, markup, kept attribute or counted text), at most one start and
    /// one text-chunk handler (no chain to stop).
    init?(_ dispatcher: Dispatcher, hasPatterns: Bool, routes: RouteTable, keys: NameKeys) {
        guard dispatcher.allowsCatchAllPath, !hasPatterns, dispatcher.keptSubtrees == nil, dispatcher.watches.isEmpty,
            !routes.matchesAncestors, routes.attributeTestCount == 0
        else { return nil }
        let key = keys.other
        let bucket = routes.bucket(key)
        let flags = routes.flags(bucket: bucket)
        guard flags.subtracting(Self.handledFlags).isEmpty else { return nil }
        let starts = routes.startHandlers(bucket: bucket)
        let texts = routes.textHandlers(bucket: bucket)
        guard starts.count <= 1, texts.count <= 1 else { return nil }
        self.key = key
        self.flags = flags
        openNames = keys.bits(of: key)
        startHandler = starts.first
        textHandler = texts.first
        characterData = flags.characterData
    }
}

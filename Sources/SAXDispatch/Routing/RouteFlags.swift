/// What a route needs from the dispatcher, checked once per event.
struct RouteFlags: OptionSet {
    var rawValue: UInt16

    static let start = RouteFlags(rawValue: 1 << 0)
    static let end = RouteFlags(rawValue: 1 << 1)
    static let textChunks = RouteFlags(rawValue: 1 << 2)
    static let collectsText = RouteFlags(rawValue: 1 << 3)
    /// Only in the route table: the element's patterns must be matched against its ancestors.
    static let matchesAncestors = RouteFlags(rawValue: 1 << 4)
    /// Some of the element's attributes are kept while it is open.
    static let retainsAttributes = RouteFlags(rawValue: 1 << 5)
    /// A handler takes the element's text with `.preserve`: leading whitespace is kept.
    /// Without it, whitespace before the first other character is never gathered, so a
    /// container's indentation costs no memory and does not count towards the text limit.
    static let preservesText = RouteFlags(rawValue: 1 << 6)
    /// Only on open elements: the element's text is counted against the text limits,
    /// not kept (``Dispatcher/limitsAllText``).
    static let measuresText = RouteFlags(rawValue: 1 << 7)
    /// A handler takes the element's whole text: its descendants' text too.
    static let wholeText = RouteFlags(rawValue: 1 << 8)
    /// A handler takes the element's inner markup.
    static let innerMarkup = RouteFlags(rawValue: 1 << 9)
    /// Only on open elements: the element is, or is inside, one whose whole text or inner
    /// markup is wanted, so its events go to ``ContentCapture`` too.
    static let inCapture = RouteFlags(rawValue: 1 << 10)
    /// A handler takes the element's outer markup: its inner markup within its own tags.
    static let outerMarkup = RouteFlags(rawValue: 1 << 11)
    /// Only on open elements: the element may match the mount pattern of a set whose
    /// pruned subtree it is in, and was dispatched in full; at its end the engine watches
    /// that subtree again (``SubtreeSkipper/Kind/watching``).
    static let resumesWatching = RouteFlags(rawValue: 1 << 12)
    /// Only in the path cache's flags (``PathMatchCache``): an element on this path is
    /// pruned as its only start handler would ask, without calling it. Set where that
    /// handler said its request depends on the element's path alone, it was granted
    /// there, and nothing else runs there (``DispatchEngine/notePrunedByPath(_:bucket:)``).
    static let prunedOnArrival = RouteFlags(rawValue: 1 << 13)
    /// Only in a name's slot in ``NameKeys`` (not in the route table's buckets), on open
    /// elements and in the engine's ``DispatchEngine/topFlags``: the element's name is one no
    /// pattern uses, where the dispatcher lets the subtrees of such elements pass through
    /// (``DispatchEngine/passThroughKey``). A grandchild where no match can begin, below two
    /// such elements nobody listens to, starts the passing through at the upper one
    /// (`DispatchEngine+PassingThrough`). It is no listening: the element still ends with a
    /// pop and wants no character data.
    static let passesThrough = RouteFlags(rawValue: 1 << 14)
    /// The flags that make an element's start tag go to ``ContentCapture``: on the element,
    /// or on its parent.
    static let capturesContent: RouteFlags = [.wholeText, .innerMarkup, .outerMarkup, .inCapture]

    /// The flags that give an open element something to do at its end tag: end handlers,
    /// its own text, kept attributes, counted text, a capture, watching to resume. An
    /// element with none of them (a start handler alone, or nobody) ends with a pop.
    static let finishedAtEnd: RouteFlags = [.end, .collectsText, .retainsAttributes, .measuresText, .inCapture, .resumesWatching]

    /// Every flag but ``passesThrough``: an element with none of them is one nobody listens to.
    static let listened = RouteFlags(rawValue: ~RouteFlags.passesThrough.rawValue)

    /// Character data must reach the dispatcher while this element is innermost.
    var wantsCharacters: Bool {
        !isDisjoint(with: [.textChunks, .collectsText, .measuresText, .wholeText, .innerMarkup, .outerMarkup, .inCapture])
    }

    /// Somebody listens to this element at all.
    var isListened: Bool { !isDisjoint(with: .listened) }
    /// A handler runs for this element (keeping attributes alone does not count: the
    /// catch-all handlers still run where only that matched).
    var hasHandlers: Bool {
        !subtracting([.retainsAttributes, .measuresText, .inCapture, .resumesWatching, .prunedOnArrival, .passesThrough])
            .isEmpty
    }
}

/// What the engine leaves out of a document, and where it is in what it leaves out: the
/// content of an element whose start handler asked (``ElementContext/skipSubtree()``), the
/// content (or the whole) of an element that a mounted set asked to prune when
/// ``SubtreePruning`` grants it, and the elements outside the subtrees that
/// ``Dispatcher/skipAll(except:)`` keeps (``SubtreeFilter``).
///
/// While a subtree is skipped, the driver hands start and end tags to the engine's
/// skipping callbacks, which only count depth here (the limits are still checked), and no
/// character data: expat's tokenizer is all a skipped subtree costs.
///
/// What must stay true: ``kind`` is `.none` exactly while the driver routes tags to the
/// dispatching callbacks; a request is honoured only for the element whose start handlers
/// made it (its serial), after they all ran.
struct SubtreeSkipper {
    /// What is being skipped.
    enum Kind {
        case none
        /// The content of the innermost open element, which stays open: its end handlers run.
        case content
        /// An element and its content, never opened (the subtree filter's decision).
        case element
    }

    /// What a start handler asked for its element.
    enum Request {
        case none
        /// Skip the content (``ElementContext/skipSubtree()``).
        case skip
        /// Prune the content, if ``SubtreePruning`` allows (``ElementContext/pruneSubtree(nestedMatchesStandAlone:)``).
        case prune
    }

    private(set) var kind = Kind.none
    /// Open elements inside the skipped subtree, below the one being skipped.
    private var depthInside = 0
    /// Open elements, the skipped one included, when skipping began.
    private var base = 0
    /// The serial of the element whose start handler asked to skip its content.
    private var skipRequest: UInt64 = 0
    /// The serial of the element a mounted set asked to prune, granted or not after its start handlers.
    private var pruneRequest: UInt64 = 0
    /// Whether the set asking to prune starts anew at each element matching its mount
    /// pattern, nested ones included (``SubtreePruning/verdict(top:matched:stack:nestedMatchesStandAlone:)``).
    private(set) var pruneSparesNestedMatches = false
    /// How many pruning requests were granted, for tests.
    private(set) var prunedSubtrees = 0

    /// The subtrees that matter, if the application said (``Dispatcher/skipAll(except:)``).
    let filter: SubtreeFilter?
    /// Whether the names of the elements the filter skips are counted all the same, for the
    /// warnings about patterns that matched nothing: when the filter is the library's own
    /// economy (``Dispatcher/keptSubtreesCountSkippedNames``), not the application's wish.
    let countsSkippedNames: Bool
    /// Whether the names inside a subtree the filter skips are counted too, not only the
    /// skipped element's: with ``countsSkippedNames``, until the filter first keeps a
    /// subtree. That is a field's element inside a record, so the record's pattern
    /// matched; the names that a warning about it would want are no longer needed, and
    /// the rest of the document costs no more than before.
    var countsNamesInsideSkipped: Bool
    /// The depth of the kept subtree being dispatched, 0 outside any.
    var keptDepth = 0

    init(filter: SubtreeFilter?, countsSkippedNames: Bool = false) {
        self.filter = filter
        self.countsSkippedNames = countsSkippedNames && filter != nil
        countsNamesInsideSkipped = self.countsSkippedNames
    }

    // MARK: Requests from start handlers

    mutating func requestSkip(serial: UInt64) {
        skipRequest = serial
    }

    mutating func requestPrune(serial: UInt64, nestedMatchesStandAlone: Bool) {
        pruneRequest = serial
        pruneSparesNestedMatches = nestedMatchesStandAlone
    }

    /// What the start handlers of the element with `serial` asked, once they all ran.
    @inline(__always)
    func request(of serial: UInt64) -> Request {
        if skipRequest == serial { return .skip }
        if pruneRequest == serial { return .prune }
        return .none
    }

    mutating func notePruned() {
        prunedSubtrees += 1
    }

    // MARK: Inside a skipped subtree

    /// Starts skipping: the content of the innermost of `openElements` open elements, or
    /// an element about to open inside them.
    mutating func begin(_ kind: Kind, openElements: Int) {
        self.kind = kind
        depthInside = 0
        base = openElements + (kind == .element ? 1 : 0)
    }

    /// The open elements a start tag inside the skipped subtree opens inside, as the
    /// depth limit counts them.
    var openElements: Int { base + depthInside }

    /// A start tag inside the skipped subtree.
    mutating func enter() {
        depthInside += 1
    }

    /// An end tag inside the skipped subtree, or the skipped element's own: what was
    /// skipped when it ends the skipping, else `nil`.
    mutating func leave() -> Kind? {
        if depthInside > 0 {
            depthInside -= 1
            return nil
        }
        let ended = kind
        kind = .none
        return ended
    }
}

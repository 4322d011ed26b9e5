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
/// A pruned subtree in which the asking set's mount pattern could match again (a record
/// at a floating pattern, whose nested matches start records of their own) is skipped
/// while *watching*: its elements are still pushed on the engine's stack, with nothing
/// listening, so that an element that may match the mount pattern is dispatched in full,
/// with its true path and depth; everything inside that element is dispatched, and at its
/// end the watching resumes. One pruned subtree is watched at a time: while an element
/// inside one is dispatched, further requests to watch are refused.
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
        /// The content of the innermost open element, which stays open, watched for the
        /// elements named ``watchedKey`` (``SubtreePruning/Verdict/watchesMountPoint``).
        case watching
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
    /// Whether the last request to prune said it is asked alike for every element whose
    /// path has the same names (``ElementContext/pruneSubtree(nestedMatchesStandAlone:decidedByPath:)``).
    private(set) var pruneDecidedByPath = false
    /// How many pruning requests were granted without watching, for tests.
    private(set) var prunedSubtrees = 0
    /// How many of those were granted without calling the handler that would ask
    /// (``RouteFlags/prunedOnArrival``), for tests.
    private(set) var prunedOnArrival = 0
    /// How many pruning requests were granted watching for the mount pattern, for tests.
    private(set) var watchedSubtrees = 0
    /// How many subtrees began to pass through, for tests; of them, how many at a child of
    /// their element rather than a grandchild.
    private(set) var passedThroughSubtrees = 0
    private(set) var passedThroughFromFirstChild = 0

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
    /// While a pruned subtree is watched: the open elements when the watching began, the
    /// pruned one included; 0 otherwise.
    private(set) var watchBase = 0
    /// The key (``NameKeys``) of the mount pattern's last step: an element whose key it
    /// accepts may start a match, and is dispatched.
    private(set) var watchedKey: Int32 = -1
    /// While an element that may match the mount pattern is dispatched inside the watched
    /// subtree: its depth, at whose end the watching resumes; 0 otherwise.
    private(set) var watchSuspendedAt = 0
    /// Whether the watched subtree passes through (``DispatchEngine/passThroughStart(_:_:)``):
    /// every element named as some pattern names something is dispatched, not only those
    /// whose key ``watchedKey`` accepts. Cleared with the watching.
    private(set) var passesThrough = false
    /// The subtrees passing through that enclose the one passing through now, outermost
    /// first: each one's ``watchBase`` and ``watchSuspendedAt``, as it is suspended for the
    /// element dispatched in it that holds the next. At most one per open element.
    private var enclosingPassThroughs: [(base: Int, suspendedAt: Int)] = []

    init(filter: SubtreeFilter?, countsSkippedNames: Bool = false) {
        self.filter = filter
        self.countsSkippedNames = countsSkippedNames && filter != nil
        countsNamesInsideSkipped = self.countsSkippedNames
    }

    // MARK: Requests from start handlers

    mutating func requestSkip(serial: UInt64) {
        skipRequest = serial
    }

    mutating func requestPrune(serial: UInt64, nestedMatchesStandAlone: Bool, decidedByPath: Bool) {
        pruneRequest = serial
        pruneSparesNestedMatches = nestedMatchesStandAlone
        pruneDecidedByPath = decidedByPath
    }

    /// What the start handlers of the element with `serial` asked, once they all ran.
    @inline(__always)
    func request(of serial: UInt64) -> Request {
        if skipRequest == serial { return .skip }
        if pruneRequest == serial { return .prune }
        return .none
    }

    mutating func notePruned(watching: Bool, onArrival: Bool) {
        if watching { watchedSubtrees += 1 } else { prunedSubtrees += 1 }
        if onArrival { prunedOnArrival += 1 }
    }

    // MARK: Inside a skipped subtree

    /// Starts skipping: the content of the innermost of `openElements` open elements, or
    /// an element about to open inside them.
    mutating func begin(_ kind: Kind, openElements: Int) {
        self.kind = kind
        depthInside = 0
        base = openElements + (kind == .element ? 1 : 0)
    }

    /// Starts watching the content of the innermost of `openElements` open elements for
    /// elements whose key `key` accepts.
    mutating func beginWatching(openElements: Int, key: Int32) {
        kind = .watching
        watchBase = openElements
        watchedKey = key
        watchSuspendedAt = 0
    }

    /// Whether a subtree may begin to pass through now: while nothing is watched, or inside an
    /// element dispatched in a subtree passing through (which is then suspended for it).
    var mayPassThrough: Bool { watchBase == 0 || (passesThrough && kind == .none) }

    /// Starts letting the content of the innermost of `openElements` open elements pass
    /// through: watched for every element whose name some pattern names (``passesThrough``).
    /// Only where ``mayPassThrough``; an enclosing subtree passing through is resumed at
    /// this one's end (``endPassingThrough()``). `fromFirstChild` says that it begins at the
    /// element's child rather than a grandchild, for the count tests read.
    mutating func beginPassingThrough(openElements: Int, fromFirstChild: Bool = false) {
        if watchBase != 0 { enclosingPassThroughs.append((watchBase, watchSuspendedAt)) }
        beginWatching(openElements: openElements, key: -1)
        passesThrough = true
        passedThroughSubtrees += 1
        if fromFirstChild { passedThroughFromFirstChild += 1 }
    }

    /// The own end tag of the element whose content passed through: the enclosing subtree
    /// passing through, if any, is suspended again for the element dispatched in it, else
    /// nothing is watched.
    mutating func endPassingThrough() {
        guard let enclosing = enclosingPassThroughs.popLast() else {
            endWatching()
            return
        }
        kind = .none
        watchBase = enclosing.base
        watchSuspendedAt = enclosing.suspendedAt
    }

    /// Whether a pruned subtree may be watched now: not while one is.
    var mayWatch: Bool { watchBase == 0 }

    /// An element that may match the mount pattern, at depth `depth`, is about to be
    /// dispatched in full: the engine's dispatching callbacks take over until it ends.
    mutating func suspendWatching(at depth: Int) {
        kind = .none
        watchSuspendedAt = depth
    }

    /// The element the watching was suspended for ended: watch again.
    mutating func resumeWatching() {
        kind = .watching
        watchSuspendedAt = 0
    }

    /// The watched element's own end tag.
    mutating func endWatching() {
        kind = .none
        watchBase = 0
        watchSuspendedAt = 0
        passesThrough = false
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

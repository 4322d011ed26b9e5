/// Skipping and pruning subtrees, as handlers ask and ``SubtreePruning`` allows: the
/// state lives in the ``SubtreeSkipper``, the switching of expat's callbacks here.
extension DispatchEngine {
    /// Asks to skip the content of the element a start handler runs for.
    func requestSkip(serial: UInt64) {
        checkStartHandler(serial: serial, "skipSubtree()")
        skipper.requestSkip(serial: serial)
    }

    /// Asks to skip the content of the element a mounted set's catch-all start handler
    /// runs for, if nothing outside that set would see it (``SubtreePruning``).
    func requestPrune(serial: UInt64, nestedMatchesStandAlone: Bool, decidedByPath: Bool) {
        checkStartHandler(serial: serial, "pruneSubtree(nestedMatchesStandAlone:)")
        skipper.requestPrune(serial: serial, nestedMatchesStandAlone: nestedMatchesStandAlone, decidedByPath: decidedByPath)
    }

    /// Traps unless a start handler for the element with `serial` is running.
    func checkStartHandler(serial: UInt64, _ request: StaticString) {
        precondition(
            serial == attributesSerial && currentAttributes != nil,
            "\(request) is only available in a start handler, for its own element")
    }

    /// Prunes the new top element as a mounted set asked, if ``SubtreePruning`` allows;
    /// returns whether it did.
    @discardableResult
    func prune(_ frame: ElementFrame, bucket: Int) -> Bool {
        // Pruning must not change what anyone sees: an element inside one whose whole text or
        // inner markup is wanted is seen, whoever asks.
        guard !stack.topFlags.contains(.inCapture) else { return false }
        let (verdict, watchedName) = pruningVerdict(frame, bucket: bucket)
        guard verdict != .refused else { return false }
        if verdict.watchesMountPoint {
            guard mayWatch(frame), watchedName >= 0 else { return false }
        }
        let onArrival = frame.flags.contains(.prunedOnArrival)
        if !onArrival && skipper.pruneDecidedByPath { notePrunedByPath(frame, bucket: bucket) }
        skipper.notePruned(watching: verdict.watchesMountPoint, onArrival: onArrival)
        if verdict.skipsEndHandlers {
            // Only the asking set's end handlers would run at its end tag, and it has no use for
            // them. (No text reaches the element from here on: nothing else to undo.)
            stack.top.flags.remove(.end)
        }
        // An empty element (`<a/>`) is skipped or watched as any other: its end tag, the next
        // event, ends that at once. Telling it apart costs more than it would save.
        if verdict.watchesMountPoint {
            beginWatching(watchedName)
        } else {
            beginSkipping(.content)
        }
        return true
    }

    /// The new top element is on a path marked ``RouteFlags/prunedOnArrival``: its only
    /// start handler would ask to prune it, and do nothing else, so it is pruned without
    /// calling it. No handler sees the element, so its start tag's position is taken only
    /// where the engine refuses here (the element then stays open as any other).
    @inline(never)
    func pruneOnArrival(_ flags: RouteFlags, bucket: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        topFlags = flags
        setCharacterData(flags.characterData)
        if _slowPath(flags.contains(.retainsAttributes)) { retainAttributes(attributes, bucket: bucket) }
        if !flags.contains(.start) || !prune(stack.top, bucket: bucket) { stack.setTopPosition(currentPosition()) }
    }

    /// What the set that asked to prune the new top element may do (see ``SubtreePruning``),
    /// and the key its subtree is watched for when the verdict watches (else -1). Where
    /// names alone decide the element's matches, both are kept for its path.
    @inline(__always)
    func pruningVerdict(_ frame: ElementFrame, bucket: Int) -> (SubtreePruning.Verdict, watchedName: Int32) {
        // Only a mounted set's catch-all asks, so the element matched patterns.
        guard frame.matchStart >= 0 else { return (.refused, -1) }
        let keepsVerdict = routes.matchesByNames(bucket: bucket)
        if keepsVerdict, let kept = pathMatches.pruningVerdict(of: frame.path) { return kept }
        let matched = matches.entries(from: frame.matchStart, count: frame.matchCount)
        let verdict = routes.pruning.verdict(
            top: stack.count - 1, matched: matched, stack: stack,
            nestedMatchesStandAlone: skipper.pruneSparesNestedMatches)
        let watchedName = verdict.watchesMountPoint ? routes.pruning.watchedName(matched: matched) : -1
        if keepsVerdict { pathMatches.rememberPruningVerdict(verdict, watchedName: watchedName, of: frame.path) }
        return (verdict, watchedName)
    }

    /// A request to prune the new top element, which its handler said it makes alike for
    /// every element with the same names on its path, was granted: where nothing but that
    /// handler runs for the element and names alone decide its matches and the verdict,
    /// the later elements on its path are pruned without calling it
    /// (``RouteFlags/prunedOnArrival``). What the engine decides at each element (an
    /// enclosing capture, a subtree watched already) is still decided there.
    func notePrunedByPath(_ frame: ElementFrame, bucket: Int) {
        guard frame.path >= 0, frame.matchCount == 1, routes.matchesByNames(bucket: bucket) else { return }
        let requester = matches.entries(from: frame.matchStart, count: 1)[0]
        // With a handler outside the asking set, one that runs first may change what the asking
        // one sees (it may stop the handler chain at a record's element).
        guard routes.startHandlers(entry: requester).count == 1, routes.pruning.grantsFreely(requester) else { return }
        pathMatches.markPrunedOnArrival(frame.path)
    }

    /// Hands start and end tags to the counting callbacks until the skipped element ends.
    /// (Inlined: its callers are the start paths, whose handlers ask for it per element,
    /// and `prune`.)
    @inline(__always)
    func beginSkipping(_ kind: SubtreeSkipper.Kind) {
        skipper.begin(kind, openElements: stack.count)
        setCharacterData(.ignored)
        setSkipping(true)
    }

    /// A start tag inside a skipped subtree: only the limits are checked.
    @inline(__always)
    func skippedStart(_ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        if isHalted { return }
        guard admitsStartTag(name, attributes, openElements: skipper.openElements) else { return }
        skipper.enter()
        if _slowPath(skipper.countsNamesInsideSkipped && skipper.kind == .element) { countSkippedName(name) }
    }

    /// Counts the name of a start tag inside a subtree that the library's own filter skips
    /// (``SubtreeSkipper/countsNamesInsideSkipped``), for the warnings about patterns that
    /// matched nothing: a record at `/rss/item` skips `<channel>`, which holds the `item`s
    /// the warning should name. Only as many names as the warnings look at are added to the
    /// table (``NameSuggester/maximumNames``); past them, names already there are still counted.
    func countSkippedName(_ name: UnsafePointer<CChar>) {
        let id: Int32
        if names.count < NameSuggester.maximumNames {
            id = names.intern(name)
            guard admitsInternedName(id) else { return }
        } else {
            guard let known = names.lookup(name), Int(known) < keys.decidedNameCount else { return }
            id = known
        }
        keys.count(id)
    }

    /// An end tag inside a skipped subtree, or the skipped element's own.
    func skippedEnd() {
        if isHalted { return }
        guard let kind = skipper.leave() else { return }
        setSkipping(false)
        if kind == .content {
            endElement()
        } else {
            setCharacterData(topFlags.characterData)
        }
    }
}

/// Pruned subtrees watched for the asking set's mount pattern (``SubtreePruning/Verdict/watchesMountPoint``):
/// a record at a floating pattern prunes what its fields cannot reach once, where that
/// begins, and the elements inside cost what an element nobody listens to costs, while a
/// record nested at its pattern inside is still found and delivered.
///
/// What must stay true: every element inside is pushed on the stack as the dispatching
/// callbacks would push one that nothing matched (name, key, serial, the names' bits, the
/// attribute tests' results, counted for the warnings), so that an element dispatched in
/// full there, the limits' errors and their paths see the stack they would have seen; the
/// limits are checked in the same order. Their paths are not numbered in the
/// ``PathMatchCache`` (``PathMatchCache/untracked``): an element dispatched below one is
/// matched against its ancestors, as the cache would have matched it the first time.
extension DispatchEngine {
    /// Whether the pruned top element's subtree may be watched: only where dispatching
    /// nothing inside it, but what may match the mount pattern, hides nothing that the
    /// dispatched elements would have shown: no comment or processing-instruction handler,
    /// no text counted against the limits everywhere, no subtree filter deciding below,
    /// and no other subtree watched.
    @inline(__always)
    func mayWatch(_ frame: ElementFrame) -> Bool {
        skipper.mayWatch && commentHandlers.isEmpty && processingInstructionHandlers.isEmpty
            && !frame.flags.contains(.measuresText) && (skipper.filter == nil || skipper.keptDepth != 0)
    }

    /// Hands start and end tags to the watching callbacks, which watch for elements whose
    /// key `name` accepts, until the top element ends.
    @inline(__always)
    func beginWatching(_ name: Int32) {
        skipper.beginWatching(openElements: stack.count, key: name)
        setCharacterData(.ignored)
        setWatching()
    }

    /// A start tag inside a watched subtree: admitted as the dispatching callbacks admit it,
    /// then dispatched in full if it may match the mount pattern, else pushed with nothing
    /// listening.
    @inline(__always)
    func watchedStart(_ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        guard let id = admittedStartTag(name, attributes) else { return }
        let key = keys.key(of: id)
        if _slowPath(keys.accepts(key, skipper.watchedKey)) {
            dispatchWatchedMatch(id, attributes)
            return
        }
        pushUnmatched(id, key: key, attributes)
        topFlags = []
    }

    /// Pushes the element `id` (key `key`) that nothing inside a watched or passing-through
    /// subtree matches, as the dispatching callbacks push one nothing matched: counted for
    /// the warnings, with a serial, its attribute tests' results and the names' bits, and no
    /// flags; its path is not numbered (``PathMatchCache/untracked``).
    @inline(__always)
    func pushUnmatched(_ id: Int32, key: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        keys.count(id)
        serial &+= 1
        let level = stack.count
        if routes.attributeTestCount > 0 { recordAttributeTests(key: key, level: level, attributes) }
        stack.push(
            ElementFrame(
                name: id, key: key, flags: [], textStart: text.ownCount, serial: serial,
                filterState: 0, openNames: stack.top.openNames | keys.bits(of: key), path: PathMatchCache.untracked))
    }

    /// Records which attribute tests hold on a watched element: the tests' results are kept
    /// for every open element, as a pattern dispatched below may test this one's attributes.
    /// Out of line, so that the watched start's common case stays small enough for the
    /// name table's lookup to be inlined into it.
    @inline(never)
    func recordAttributeTests(key: Int32, level: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        let bucket = routes.bucket(key)
        testResults.reset(level: level)
        for test in routes.tests(bucket: bucket) where routes.evaluate(test, attributes) {
            testResults.record(Int(test), level: level)
        }
    }

    /// Dispatches an element inside a watched subtree that may match the mount pattern, with
    /// the dispatching callbacks until it ends.
    @inline(never)
    func dispatchWatchedMatch(_ id: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        if skipper.passesThrough && routes.matchesAncestors && stack.top.path == PathMatchCache.untracked {
            numberPassedThroughPaths()
        }
        let depth = stack.count + 1
        skipper.suspendWatching(at: depth)
        setSkipping(false)
        dispatchStart(id, attributes)
        guard !isHalted, stack.count == depth else { return }
        // Its end tag comes to `endElement`, whether or not its handlers skip its content.
        stack.top.flags.insert(.resumesWatching)
        topFlags.insert(.resumesWatching)
    }

    /// The element dispatched inside a watched subtree ended: watch again.
    func resumeWatching() {
        skipper.resumeWatching()
        setCharacterData(.ignored)
        if skipper.passesThrough { setPassingThrough() } else { setWatching() }
    }

    /// An end tag inside a watched subtree, or the watched element's own.
    @inline(__always)
    func watchedEnd() {
        if isHalted || stack.isEmpty { return }
        if stack.count > skipper.watchBase {
            // An element pushed with nothing listening: no handler, text or capture to finish.
            guard settlesBeforeTag() else { return }
            stack.dropTop()
            topFlags = stack.topFlags
            return
        }
        endWatchedElement()
    }

    /// An element is about to be dispatched inside a subtree passing through: the elements
    /// pushed there since it began, or since the last one dispatched on their path, get the
    /// numbers of their paths in the ``PathMatchCache`` that the dispatching callbacks would
    /// have given them, so that the element's matches are looked up there, not matched
    /// against its ancestors each time.
    @inline(never)
    func numberPassedThroughPaths() {
        var first = stack.count
        while first > skipper.watchBase && stack[first - 1].path == PathMatchCache.untracked { first -= 1 }
        for index in first..<stack.count {
            stack.setPath(pathMatches.path(parent: stack[index - 1].path, name: stack[index].key), at: index)
        }
    }

    /// The watched element's own end tag: the dispatching callbacks take over again, and the
    /// element ends as any other. Kept out of ``watchedEnd()``, whose common case, an element
    /// pushed with nothing listening, then costs a callback that saves no registers.
    @inline(never)
    func endWatchedElement() {
        if skipper.passesThrough { skipper.endPassingThrough() } else { skipper.endWatching() }
        setSkipping(false)
        endElement()
    }
}

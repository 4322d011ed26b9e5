/// Subtrees that pass through: below an element that nobody listens to and whose name no
/// pattern uses, the elements where no match can begin cost what an element pushed in a
/// watched subtree costs (``SubtreeSkipper/Kind/watching``), with expat's start tags going to
/// a callback of their own (``ExpatElementCallbacks/passThroughStart``) and its end tags to
/// the watching one.
///
/// Why it changes nothing anyone sees: where the dispatcher lets subtrees pass through
/// (``letsSubtreesPassThrough(routes:keys:hasSubtreeFilter:hasMarkupHandlers:)``), an element
/// whose name no pattern uses (the key ``NameKeys/other``) matches no pattern, whatever its
/// ancestors: every pattern's last step names an element, no catch-all runs, and no route
/// is added to every element. Nor is it a step of a match of an element below it, unless a
/// step is `*`. So a match of an element inside the subtree runs down from an element inside
/// it that a pattern's first step, or a step after a `//`, names (every element a pattern
/// names, where some step is `*`): those are dispatched in full, with the dispatching
/// callbacks until they end, as a watched subtree dispatches the elements that may match its
/// mount pattern, and see the stack they would have seen (``RouteTable/segmentStartBits``,
/// ``dispatchesInPassingThrough(_:)``). The others are pushed as the dispatching callbacks
/// push an element nothing matched: name, key, serial, the names' bits, the attribute tests'
/// results, counted for the warnings about patterns that matched nothing, after the same
/// admission (pause, pending text, limits, interning).
///
/// Their paths are numbered only when an element below them is dispatched, and only where
/// patterns are matched against ancestors (``numberPassedThroughPaths()``).
///
/// The switch waits for the element's first child that no pattern names: an element with no
/// child, the common case, costs no switch of expat's callbacks, nor one whose children are
/// dispatched anyway. Inside an element dispatched in a subtree passing through, another may
/// pass through (the enclosing one resumes at its end); none passes through while a pruned
/// subtree is watched, nor inside an element dispatched in one.
extension DispatchEngine {
    /// Whether subtrees may pass through for these routes: not where an element no pattern
    /// names may still be listened to or tested for (a catch-all, a pattern ending in `*`,
    /// text counted for every element), where the subtree filter decides what is read, or
    /// where comments or processing instructions are dispatched, which a watched subtree
    /// leaves out.
    static func letsSubtreesPassThrough(
        routes: RouteTable, keys: NameKeys, hasSubtreeFilter: Bool, hasMarkupHandlers: Bool
    ) -> Bool {
        !hasSubtreeFilter && !hasMarkupHandlers && routes.flags(bucket: routes.bucket(keys.other)).isEmpty
    }

    /// A child of an element marked ``RouteFlags/passesThrough`` (admitted and interned as
    /// `id`): a child that no pattern names starts the passing through at its parent, unless
    /// a subtree is watched, and is handled as one inside it. A child that some pattern names
    /// is dispatched as any other, and the parent keeps the mark on its frame, so that the
    /// innermost flags carry it again at the child's end, for the next child.
    @inline(never)
    func passThroughFirstChild(_ id: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        guard skipper.mayPassThrough else {
            // The parent's own flags are empty but for the mark: nothing listens to it.
            topFlags = []
            stack.top.flags = []
            dispatchStart(id, attributes)
            return
        }
        if dispatchesInPassingThrough(keys.key(of: id)) {
            stack.top.flags = .passesThrough
            topFlags = []
            dispatchStart(id, attributes)
            return
        }
        topFlags = []
        stack.top.flags = []
        skipper.beginPassingThrough(openElements: stack.count)
        // Character data is ignored already: nothing listens to the parent.
        setPassingThrough()
        passThroughElement(id, attributes)
    }

    /// Whether an element with key `key` is dispatched inside a subtree that passes through:
    /// where a match may begin (``passThroughDispatchBits``, a superset of those keys).
    @inline(__always)
    func dispatchesInPassingThrough(_ key: Int32) -> Bool {
        key != passThroughKey && keys.bits(of: key) & passThroughDispatchBits != 0
    }

    /// A start tag inside a subtree that passes through: admitted as the dispatching
    /// callbacks admit it, then dispatched in full if some pattern names it, else pushed with
    /// nothing listening.
    @inline(__always)
    func passThroughStart(_ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        guard let id = admittedStartTag(name, attributes) else { return }
        passThroughElement(id, attributes)
    }

    /// An element inside a subtree that passes through, admitted and interned as `id`.
    @inline(__always)
    func passThroughElement(_ id: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        let key = keys.key(of: id)
        if _slowPath(key != passThroughKey) && dispatchesInPassingThrough(key) {
            // Counted by the dispatching start.
            dispatchWatchedMatch(id, attributes)
            return
        }
        keys.count(id)
        serial &+= 1
        let level = stack.count
        if routes.attributeTestCount > 0 { recordAttributeTests(key: key, level: level, attributes) }
        // The innermost element's flags stay empty inside the subtree: every open element
        // in it was pushed with none, and one dispatched in full restores its parent's at its end.
        stack.push(
            ElementFrame(
                name: id, key: key, flags: [], textStart: text.ownCount, serial: serial,
                filterState: 0, openNames: stack.top.openNames | keys.bits(of: key), path: PathMatchCache.untracked))
    }
}

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
/// The switch waits for the element's first grandchild where no match can begin: an element
/// with no child, the common case, costs no switch of expat's callbacks, nor one whose
/// children are leaves or dispatched anyway. Inside an element dispatched in a subtree passing through, another may
/// pass through (the enclosing one resumes at its end); none passes through while a pruned
/// subtree is watched, nor inside an element dispatched in one.
extension DispatchEngine {
    /// Whether subtrees may pass through for these routes: only where some pattern is matched
    /// against the ancestors (where every pattern is decided by the element's name alone, an
    /// element nobody listens to is dispatched at about what passing it through costs, and the
    /// switches to the passing-through callbacks and back would not pay); not where an element
    /// no pattern names may still be listened to or tested for (a catch-all, a pattern ending
    /// in `*`, text counted for every element), where the subtree filter decides what is
    /// read, or where comments or processing instructions are dispatched, which a watched
    /// subtree leaves out.
    static func letsSubtreesPassThrough(
        routes: RouteTable, keys: NameKeys, hasSubtreeFilter: Bool, hasMarkupHandlers: Bool
    ) -> Bool {
        routes.matchesAncestors && !hasSubtreeFilter && !hasMarkupHandlers
            && routes.flags(bucket: routes.bucket(keys.other)).isEmpty
    }

    /// Whether the child `id` of an element marked ``RouteFlags/passesThrough`` starts the
    /// passing through at its grandparent: where no match can begin at it, its grandparent is
    /// marked too, nothing captures their content, and no subtree is watched. Otherwise the
    /// child is dispatched as any other.
    ///
    /// Waiting for a grandchild keeps an element whose children are leaves (`<x><x>a</x></x>`)
    /// from paying the switch to the passing-through callbacks and back for a few elements.
    @inline(__always)
    func passesThroughFromChild(_ id: Int32) -> Bool {
        stack.count > 1 && stack.flagsBelowTop.contains(.passesThrough) && !topFlags.contains(.inCapture)
            && skipper.mayPassThrough && !dispatchesInPassingThrough(keys.key(of: id))
    }

    /// Starts the passing through at the parent of the innermost open element, both marked
    /// ``RouteFlags/passesThrough``, at the innermost one's child `id` (admitted and
    /// interned), which it handles as an element inside.
    @inline(never)
    func beginPassingThrough(_ id: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        // Both are nobody's, and the innermost flags need not change: nothing inside reads
        // the mark.
        skipper.beginPassingThrough(openElements: stack.count - 1)
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
        pushUnmatched(id, key: key, attributes)
    }
}

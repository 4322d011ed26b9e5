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
/// children are leaves or dispatched anyway. Once an element's content passed through so,
/// the next element on the same path of names begins at its first child where no match can
/// begin (``PathMatchCache/passesThroughFromFirstChild(_:)``): records repeat their shape.
/// Inside an element dispatched in a subtree passing through, another may pass through (the
/// enclosing one resumes at its end); none passes through while a pruned subtree is
/// watched, nor inside an element dispatched in one.
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

    /// Where the child `id` of an element marked ``RouteFlags/passesThrough`` starts the
    /// passing through, as the number of open elements up to the one whose content passes
    /// through, or `nil` where the child is dispatched as any other. Only where no match can
    /// begin at the child, nothing captures the content and no subtree is watched; then at
    /// its grandparent where that is marked too, or at its parent where the content of an
    /// element on the parent's path passed through before
    /// (``PathMatchCache/passesThroughFromFirstChild(_:)``).
    ///
    /// Waiting for a grandchild keeps an element whose children are leaves (`<x><x>a</x></x>`)
    /// from paying the switch to the passing-through callbacks and back for a few elements;
    /// an element on a path whose content had grandchildren before, likely to have them
    /// again, lets its children pass through too rather than dispatching them in full until
    /// the first grandchild. Either way what is seen is the same: where the passing through
    /// begins decides only which elements are pushed on the cheap.
    @inline(__always)
    func passThroughBase(forChild id: Int32) -> Int? {
        // The marks first: most children of a marked element have neither, and are decided
        // without looking up their key.
        let base: Int
        if stack.count > 1 && stack.flagsBelowTop.contains(.passesThrough) {
            base = stack.count - 1
        } else if pathMatches.passesThroughFromFirstChild(stack.top.path) {
            base = stack.count
        } else {
            return nil
        }
        guard !topFlags.contains(.inCapture) && skipper.mayPassThrough && !dispatchesInPassingThrough(keys.key(of: id))
        else { return nil }
        return base
    }

    /// Starts the passing through at the innermost of `openElements` open elements, marked
    /// ``RouteFlags/passesThrough`` as are the ones below it, at the innermost open element's
    /// child `id` (admitted and interned), which it handles as an element inside. Begun at a
    /// grandchild, it marks the path of the element whose content passes through, so that the
    /// next element on that path begins at its first child where no match can begin.
    @inline(never)
    func beginPassingThrough(
        _ id: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>, openElements: Int
    ) {
        let fromFirstChild = openElements == stack.count
        if !fromFirstChild { pathMatches.markPassesThroughFromFirstChild(stack[openElements - 1].path) }
        // All are nobody's, and the innermost flags need not change: nothing inside reads
        // the mark.
        skipper.beginPassingThrough(openElements: openElements, fromFirstChild: fromFirstChild)
        // Character data is ignored already: nothing listens to the parent.
        setPassingThrough()
        passThroughElement(id, attributes)
    }

    /// How many subtrees began to pass through at a child of their element (the first where no
    /// match can begin), for tests.
    var passedThroughFromFirstChild: Int { skipper.passedThroughFromFirstChild }

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

/// Decides when a mounted handler set may skip a subtree it has no use for: only when no
/// handler outside the set would have seen anything in it.
///
/// XMLRecord captures and record assemblers ask to prune the children their records never
/// read, from their catch-all start handler (``ElementContext/pruneSubtree(nestedMatchesStandAlone:)``). Unlike
/// ``ElementContext/skipSubtree()``, which is the application's own decision for every
/// handler, a pruning request must not change what the dispatcher's other handlers see:
/// `onDecoded(A.self, at: "/r/a")` next to `onEnd("b")` must still deliver every `b`
/// inside an `a`. A request is granted when no handler outside the asking set
///
/// - takes the element's own text (it is not gathered while the content is skipped), or
/// - could match an element below it: a floating pattern always could; an anchored one
///   only if its steps fit the names of the element's path so far (attribute tests are
///   taken to hold, which can only refuse more).
///
/// The asking set's own end handlers for the pruned element are left out too (it asked
/// because it has no use for the element); other sets' still run unless there are none.
///
/// Nor must it hide the asking set's own records when an element inside one starts a new
/// one (record assemblers; a capture takes such elements as part of the enclosing
/// record): the set is mounted at a pattern, and when that pattern could match an element
/// below the pruned one (`item` for `<item><sub><item>…`; a floating pattern always
/// could), the request is refused.
///
/// Catch-all handlers that the asking set's catch-all keeps from running inside its
/// subtree (the dispatcher's own, and those of the sets it is mounted in) do not count:
/// they would not have run there anyway.
///
/// The sets that ask are usually the dispatcher's only handlers: their requests are then
/// granted at once. The verdict depends on the element's matches and the names of the
/// open elements only, and the engine keeps it per path (``PathMatchCache``).
struct SubtreePruning {
    /// What a requester's handlers share the dispatcher with.
    private struct Outsiders {
        /// Per entry (the fallback last): whether it is outside the requester's set and may run.
        var isOutsider: [Bool]
        /// Some outsider has a floating pattern: no subtree can be ruled out.
        var hasFloating: Bool
        /// The outsiders with anchored patterns, to fit to the element's path.
        var anchored: [Int32]
    }

    /// Per entry: for a mounted set's catch-all entry, which may ask, what it shares the
    /// dispatcher with; `nil` when nothing (every request is granted) or for other entries.
    private let outsiders: [Outsiders?]
    /// Per entry: whether it is a mounted set's catch-all, whose handlers may ask.
    private let canAsk: [Bool]
    /// Per entry: whether requests made from its handlers are granted without looking.
    private let grantsFreely: [Bool]
    /// Per entry: for a mounted set's catch-all (`mountPoint//*`), the pattern the set is
    /// mounted at, when it could match below the elements the set asks to prune (it is
    /// not anchored, or has a `//`).
    private let recurringMountPoints: [CompiledPattern?]
    private let patterns: [CompiledPattern]
    private let entryFlags: [RouteFlags]

    /// - Parameters:
    ///   - entries: The route table's entries, in its order: each one's handler group and
    ///     whether it is its group's catch-all.
    ///   - patterns: Their compiled patterns.
    ///   - entryFlags: Their flags, the fallback's last.
    ///   - groupMasks: Per entry, the group bits a match of it sets (``RouteTable/groupMask(entry:)``).
    ///   - catchAllBits: Per entry, ``RouteTable/catchAllBit(entry:)``.
    ///   - groupParents: Per handler group, the group it was mounted into (`-1` for group 0).
    init(
        entries: [(group: Int, isCatchAll: Bool)], patterns: [CompiledPattern], entryFlags: [RouteFlags], groupMasks: [UInt64],
        catchAllBits: [UInt64], groupParents: [Int]
    ) {
        self.patterns = patterns
        self.entryFlags = entryFlags
        let fallback = entries.count
        var outsiders: [Outsiders?] = Array(repeating: nil, count: entries.count)
        var grantsFreely = Array(repeating: false, count: entries.count)
        var recurringMountPoints: [CompiledPattern?] = Array(repeating: nil, count: entries.count)
        for requester in entries.indices where entries[requester].isCatchAll {
            let group = entries[requester].group
            // The requester's catch-all matches everything below where it asks, so the
            // catch-alls whose bits its matches set never run there.
            let suppressed = groupMasks[requester]
            var isOutsider = Array(repeating: false, count: entries.count + 1)
            var hasFloating = false
            var anchored: [Int32] = []
            for entry in 0...fallback where entryFlags[entry].hasHandlers {
                if entry == fallback {
                    // The dispatcher's catch-all runs only where no handler of any set matched.
                    if suppressed & 1 != 0 { continue }
                } else {
                    if Self.isInFamily(entries[entry].group, of: group, parents: groupParents) { continue }
                    if catchAllBits[entry] & suppressed != 0 { continue }
                }
                isOutsider[entry] = true
                if entry == fallback || !patterns[entry].isAnchored {
                    hasFloating = true
                } else {
                    anchored.append(Int32(entry))
                }
            }
            // A set mounted at the document (`.`) has the catch-all `*` alone: no mount pattern.
            // One matching at a single depth never matches below the elements it asks about,
            // which are deeper than its own.
            if patterns[requester].steps.count > 1 {
                let mountPoint = CompiledPattern(patterns[requester], prefix: patterns[requester].steps.count - 1)
                if !mountPoint.matchesAtOneDepth { recurringMountPoints[requester] = mountPoint }
            }
            if isOutsider.contains(true) {
                outsiders[requester] = Outsiders(isOutsider: isOutsider, hasFloating: hasFloating, anchored: anchored)
            } else {
                grantsFreely[requester] = true
            }
        }
        self.outsiders = outsiders
        self.grantsFreely = grantsFreely
        self.recurringMountPoints = recurringMountPoints
        canAsk = entries.map(\.isCatchAll)
    }

    /// Whether `group` is `ancestor` or was mounted, directly or not, inside it.
    private static func isInFamily(_ group: Int, of ancestor: Int, parents: [Int]) -> Bool {
        var current = group
        while current >= 0 {
            if current == ancestor { return true }
            current = parents[current]
        }
        return false
    }

    /// What the engine may do with a pruning request.
    enum Verdict: Int8 {
        case refused
        /// Skip the content; the element's end handlers outside the asking set still run.
        case content
        /// Skip the content and the element's end handlers: only the asking set's would run.
        case element
    }

    /// Whether the mounted set that asked may prune the open element at stack index `top`,
    /// which matched `matched` (in precedence order). The answer depends on `matched` and
    /// the names of the open elements only (and on `nestedMatchesStandAlone`, which the
    /// set that asks always passes alike).
    ///
    /// - Parameter nestedMatchesStandAlone: Whether an element below that matches the
    ///   set's own mount pattern would start a record of its own, which pruning must not hide.
    func verdict(
        top: Int, matched: UnsafeBufferPointer<Int32>, stack: borrowing ElementStack, nestedMatchesStandAlone: Bool
    ) -> Verdict {
        // Only a mounted set's catch-all asks: the one among the element's matches is the set
        // that did. Where two sets' catch-alls matched, either may have asked: refused.
        var requester: Int32 = -1
        for entry in matched where Int(entry) < canAsk.count && canAsk[Int(entry)] {
            guard requester < 0 else { return .refused }
            requester = entry
        }
        guard requester >= 0 else { return .refused }
        if nestedMatchesStandAlone, let mountPoint = recurringMountPoints[Int(requester)],
            mountPoint.mayMatchBelow(top: top, stack: stack)
        {
            return .refused
        }
        if grantsFreely[Int(requester)] { return .element }
        guard let outsiders = outsiders[Int(requester)], !outsiders.hasFloating else { return .refused }
        var verdict = Verdict.element
        for entry in matched where outsiders.isOutsider[Int(entry)] {
            if entryFlags[Int(entry)].wantsCharacters { return .refused }
            if entryFlags[Int(entry)].contains(.end) { verdict = .content }
        }
        for entry in outsiders.anchored where patterns[Int(entry)].mayMatchBelow(top: top, stack: stack) {
            return .refused
        }
        return verdict
    }
}

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
/// could), the subtree is pruned *watching* for it (``Verdict/watchesMountPoint``): the
/// engine still keeps the stack of its elements, with nothing listening, and dispatches
/// in full those whose name may be the pattern's last step. The request is refused
/// instead when that step is `*` (every element would be dispatched anyway), or when some
/// route keeps attributes, which the elements inside would no longer have kept.
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
    /// Per entry: for a recurring mount point, the key of its last step when a pruned
    /// subtree may be watched for it, else -1.
    private let watchedNames: [Int32]
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
        var watchedNames: [Int32] = Array(repeating: -1, count: entries.count)
        let keepsAttributes = entryFlags.contains { $0.contains(.retainsAttributes) }
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
                if !mountPoint.matchesAtOneDepth {
                    recurringMountPoints[requester] = mountPoint
                    if !keepsAttributes, let last = mountPoint.steps.last { watchedNames[requester] = last.name }
                }
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
        self.watchedNames = watchedNames
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
        /// As ``content``, watching for the asking set's mount pattern (``watchesMountPoint``).
        case watchedContent
        /// As ``element``, watching for the asking set's mount pattern.
        case watchedElement

        /// Whether the elements inside stay on the stack, and those that may match the
        /// asking set's mount pattern are dispatched (``SubtreeSkipper/Kind/watching``).
        @inline(__always)
        var watchesMountPoint: Bool { self == .watchedContent || self == .watchedElement }
        /// Whether the element's end handlers are left out too.
        @inline(__always)
        var skipsEndHandlers: Bool { self == .element || self == .watchedElement }

        /// The verdict, watching for the mount pattern.
        fileprivate var watching: Verdict {
            switch self {
            case .content: .watchedContent
            case .element: .watchedElement
            default: self
            }
        }
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
        let requester = self.requester(matched)
        guard requester >= 0 else { return .refused }
        var watches = false
        if nestedMatchesStandAlone, let mountPoint = recurringMountPoints[Int(requester)],
            mountPoint.mayMatchBelow(top: top, stack: stack)
        {
            guard watchedNames[Int(requester)] >= 0 else { return .refused }
            watches = true
        }
        var verdict = Verdict.element
        if !grantsFreely[Int(requester)] {
            guard let outsiders = outsiders[Int(requester)], !outsiders.hasFloating else { return .refused }
            for entry in matched where outsiders.isOutsider[Int(entry)] {
                if entryFlags[Int(entry)].wantsCharacters { return .refused }
                if entryFlags[Int(entry)].contains(.end) { verdict = .content }
            }
            for entry in outsiders.anchored where patterns[Int(entry)].mayMatchBelow(top: top, stack: stack) {
                return .refused
            }
        }
        return watches ? verdict.watching : verdict
    }

    /// The key of the mount pattern's last step that a pruned subtree is watched for, when
    /// the element that matched `matched` was granted a watching verdict.
    func watchedName(matched: UnsafeBufferPointer<Int32>) -> Int32 {
        let requester = self.requester(matched)
        return requester >= 0 ? watchedNames[Int(requester)] : -1
    }

    /// Whether requests from the handlers of `entry`, a mounted set's catch-all, are
    /// granted without looking: nothing outside its set could see anything it prunes.
    func grantsFreely(_ entry: Int32) -> Bool {
        Int(entry) < grantsFreely.count && grantsFreely[Int(entry)]
    }

    /// The entry among an element's matches whose handlers may have asked, or -1. Only a
    /// mounted set's catch-all asks: the one among the element's matches is the set that
    /// did. Where two sets' catch-alls matched, either may have asked: none.
    private func requester(_ matched: UnsafeBufferPointer<Int32>) -> Int32 {
        var requester: Int32 = -1
        for entry in matched where Int(entry) < canAsk.count && canAsk[Int(entry)] {
            guard requester < 0 else { return -1 }
            requester = entry
        }
        return requester
    }
}

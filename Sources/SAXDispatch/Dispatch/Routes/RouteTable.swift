/// The compiled routing of a dispatcher: for each element, which patterns' handlers
/// run, in precedence order.
///
/// Every element has a key (``NameKeys``): a name that occurs in a pattern, a pair of
/// them, or the last key, which every other name shares. Each key is a bucket. A bucket's candidates are the patterns whose last step names it, plus the
/// patterns ending in `*`, most specific first. When every candidate matches on the
/// name alone (the common case), the bucket's handlers and flags are fixed and an
/// element costs one array read; otherwise the candidates are matched against the
/// ancestor stack when the element starts, and what the first element on each path of
/// names matched serves the next ones when no candidate tests attributes (``PathMatchCache``).
///
/// Handlers are flattened into one buffer per kind with a range per pattern: an
/// event reads its handlers without retaining any array.
final class RouteTable {
    /// The entry of the catch-all handlers, which run only where no pattern matched.
    let fallbackEntry: Int32
    private let entryFlags: [RouteFlags]
    private let starts: PackedLists<UnretainedHandler<Route.StartHandler>>
    private let ends: PackedLists<UnretainedHandler<Route.EndHandler>>
    private let texts: PackedLists<UnretainedHandler<Route.TextHandler>>
    private let patterns: [CompiledPattern]
    /// Per entry: whether its pattern matches on the element's name alone.
    private let matchesOnName: [Bool]
    /// Per entry: its pattern's ``CompiledPattern/requiredNames``, checked before matching.
    private let requiredNames: [UInt64]

    private let bucketCount: Int
    /// Per bucket: the flags of its fixed matches, or ``RouteFlags/matchesAncestors``.
    private let bucketFlags: [RouteFlags]
    /// Per fixed bucket: the handlers of its matches, in precedence order, flattened.
    private let fixedStarts: PackedLists<UnretainedHandler<Route.StartHandler>>
    private let fixedEnds: PackedLists<UnretainedHandler<Route.EndHandler>>
    private let fixedTexts: PackedLists<UnretainedHandler<Route.TextHandler>>
    /// The boxes that the handler buffers above refer to without retaining them; emptied
    /// only when no handler can be called any more (``letHandlersGo()``).
    private var handlerBoxes: [AnyObject]
    /// Per entry, and per fixed bucket: the attributes kept while its elements are open.
    private let retainedAttributes: [[String]]
    private let fixedRetainedAttributes: [[String]]
    /// Per bucket: the candidate entries, most specific first.
    private let candidates: PackedLists<Int32>
    /// Per bucket: whether no candidate tests attributes, so that the names of an element
    /// and its ancestors alone decide its matches (``PathMatchCache``).
    private let matchesByNames: [Bool]
    /// Per bucket: whether its candidates test attributes on their last step only, so that
    /// the names of an element and its ancestors and the results of the bucket's tests on
    /// the element itself decide its matches (`tag[@k='highway']`). Only for buckets with
    /// at most ``maximumKeyedTests`` tests, whose results then fit in a key.
    private let matchesByNamesAndOwnTests: [Bool]
    /// Whether some bucket's candidates are matched against the ancestors; only then do
    /// elements need a path number.
    let matchesAncestors: Bool

    /// The attribute tests of all patterns, and per bucket the ones to evaluate.
    private let attributeTests: [CompiledAttributeTest]
    let attributeTestCount: Int
    private let bucketTests: PackedLists<Int32>

    /// Per entry: the bits of the handler groups a match suppresses the catch-alls of
    /// (its own group and those it was mounted into; bit 0 is the dispatcher's own).
    private let groupMasks: [UInt64]
    /// Per entry: for a mounted set's catch-all, its group's bit (it runs only if that bit
    /// is still clear); `0` for every other entry.
    private let catchAllBits: [UInt64]

    /// When a mounted set may prune a subtree its handlers have no use for.
    let pruning: SubtreePruning

    /// The most mounted handler sets that may have catch-all handlers.
    static let maximumCatchAllGroups = 63

    /// - Parameter addedFlags: Flags every entry gets besides its handlers' (``RouteFlags/measuresText``
    ///   when the dispatcher limits all text), so that every element, matched or not, has them.
    init(entries: [RouteEntry], groupParents: [Int], fallback: Route, keys: NameKeys, addedFlags: RouteFlags = []) {
        var tests: [ElementPattern.AttributeTest] = []
        let compiled = entries.map { CompiledPattern($0.pattern, keys: keys, tests: &tests) }
        (groupMasks, catchAllBits) = Self.groupBits(entries: entries, groupParents: groupParents)
        let bucketCount = keys.keyCount
        self.bucketCount = bucketCount
        patterns = compiled
        requiredNames = compiled.map(\.requiredNames)
        fallbackEntry = Int32(entries.count)
        let routes = entries.map(\.route) + [fallback]
        let entryFlags = routes.map { $0.flags.union(addedFlags) }
        self.entryFlags = entryFlags
        var boxes: [AnyObject] = []
        let startLists = HandlerBox.unretained(routes.map(\.start), keptAlive: &boxes)
        let endLists = HandlerBox.unretained(routes.map(\.end), keptAlive: &boxes)
        let textLists = HandlerBox.unretained(routes.map(\.text), keptAlive: &boxes)
        handlerBoxes = boxes
        starts = PackedLists(startLists)
        ends = PackedLists(endLists)
        texts = PackedLists(textLists)
        let matchesOnName = entries.indices.map { index in
            let pattern = compiled[index]
            return !entries[index].isCatchAll && pattern.steps.count == 1 && !pattern.isAnchored
                && pattern.steps[0].tests.isEmpty
        }
        self.matchesOnName = matchesOnName

        // Most specific first; equal specificity keeps registration order. Mounted catch-alls
        // come last, the most deeply mounted first, so that an inner set's catch-all can
        // keep the outer sets' from running.
        let groupDepths = groupParents.indices.map { group in
            sequence(first: group) { groupParents[$0] >= 0 ? groupParents[$0] : nil }.count(where: { _ in true })
        }
        let order = entries.indices.sorted { left, right in
            let a = entries[left]
            let b = entries[right]
            if a.isCatchAll != b.isCatchAll { return b.isCatchAll }
            if a.isCatchAll && groupDepths[a.group] != groupDepths[b.group] {
                return groupDepths[a.group] > groupDepths[b.group]
            }
            return a.pattern.specificity != b.pattern.specificity
                ? a.pattern.specificity > b.pattern.specificity : left < right
        }
        var candidateLists: [[Int32]] = []
        var flags: [RouteFlags] = []
        var fixedLists: [[Int32]] = []
        let fallbackListens = entryFlags[entries.count].isListened
        for bucket in 0..<bucketCount {
            let isOther = bucket == bucketCount - 1
            let list = order.filter { entry in
                let last = compiled[entry].steps[compiled[entry].steps.count - 1].name
                return last < 0 || (!isOther && keys.accepts(Int32(bucket), last))
            }.map { Int32($0) }
            candidateLists.append(list)
            let isFixedBucket = list.allSatisfy { matchesOnName[Int($0)] }
            let handled = list.contains { entryFlags[Int($0)].hasHandlers }
            let fixedList = isFixedBucket ? (handled || !fallbackListens ? list : list + [fallbackEntry]) : []
            fixedLists.append(fixedList)
            flags.append(
                isFixedBucket
                    ? fixedList.reduce(into: RouteFlags()) { $0.formUnion(entryFlags[Int($1)]) } : .matchesAncestors)
        }
        candidates = PackedLists(candidateLists)
        bucketFlags = flags
        matchesByNames = candidateLists.map { list in list.allSatisfy { !compiled[Int($0)].hasTests } }
        matchesAncestors = flags.contains { $0.contains(.matchesAncestors) }
        fixedStarts = PackedLists(fixedLists.map { $0.flatMap { startLists[Int($0)] } })
        fixedEnds = PackedLists(fixedLists.map { $0.flatMap { endLists[Int($0)] } })
        fixedTexts = PackedLists(fixedLists.map { $0.flatMap { textLists[Int($0)] } })
        retainedAttributes = routes.map(\.retainedAttributes)
        fixedRetainedAttributes = fixedLists.map { list in
            list.reduce(into: [String]()) { names, entry in
                names += routes[Int(entry)].retainedAttributes.filter { !names.contains($0) }
            }
        }

        attributeTests = tests.map { CompiledAttributeTest($0, processesNamespaces: keys.processesNamespaces) }
        attributeTestCount = tests.count
        var testLists = Array(repeating: [Int32](), count: bucketCount)
        for pattern in compiled {
            for step in pattern.steps {
                // A named step's key is its bucket; the pairs it is part of are buckets too.
                let buckets =
                    step.name < 0
                    ? Array(0..<bucketCount) : [Int(step.name)] + keys.pairs(containing: step.name).map { Int($0) }
                for test in step.tests {
                    for bucket in buckets where !testLists[bucket].contains(Int32(test)) {
                        testLists[bucket].append(Int32(test))
                    }
                }
            }
        }
        bucketTests = PackedLists(testLists)
        matchesByNamesAndOwnTests = candidateLists.indices.map { bucket in
            testLists[bucket].count <= Self.maximumKeyedTests
                && candidateLists[bucket].allSatisfy { entry in
                    compiled[Int(entry)].steps.dropLast().allSatisfy { $0.tests.isEmpty }
                }
        }
        pruning = SubtreePruning(
            entries: entries.map { ($0.group, $0.isCatchAll) }, patterns: compiled, entryFlags: entryFlags, groupMasks: groupMasks,
            catchAllBits: catchAllBits, groupParents: groupParents)
    }

    /// Releases every handler, whose buffers then refer to nothing: for a parse that can
    /// call no handler any more (``DispatchEngine/letHandlersGo()``).
    func letHandlersGo() {
        handlerBoxes = []
    }

    /// Gives bit 0 to the dispatcher's own handlers and one bit to each mounted set with
    /// catch-all handlers, and computes each entry's masks from them.
    private static func groupBits(entries: [RouteEntry], groupParents: [Int]) -> (masks: [UInt64], catchAll: [UInt64]) {
        var bits = Array(repeating: UInt64(0), count: groupParents.count)
        bits[0] = 1
        var next: UInt64 = 1
        for entry in entries where entry.isCatchAll && bits[entry.group] == 0 {
            precondition(
                next <= UInt64(maximumCatchAllGroups),
                "at most \(maximumCatchAllGroups) mounted handler sets may have catch-all handlers")
            bits[entry.group] = 1 << next
            next += 1
        }
        let masks = entries.map { entry in
            sequence(first: entry.group) { groupParents[$0] >= 0 ? groupParents[$0] : nil }
                .reduce(UInt64(0)) { $0 | bits[$1] }
        }
        return (masks, entries.map { $0.isCatchAll ? bits[$0.group] : 0 })
    }

    /// The bucket of an element's key.
    @inline(__always)
    func bucket(_ key: Int32) -> Int { Int(key) }

    /// The flags of a bucket's fixed matches, or ``RouteFlags/matchesAncestors`` when
    /// its candidates must be matched per element.
    @inline(__always)
    func flags(bucket: Int) -> RouteFlags { bucketFlags[bucket] }

    /// The ``ElementFrame/nameBit(_:)`` of every step that begins a pattern or follows a
    /// `//`, the steps where a match can begin below an element that no step names; all
    /// bits when some step is `*`, which names every element.
    var segmentStartBits: UInt64 {
        var bits: UInt64 = 0
        for pattern in patterns {
            if pattern.steps.contains(where: { $0.name < 0 }) { return ~0 }
            for start in pattern.segmentStarts { bits |= ElementFrame.nameBit(pattern.steps[start].name) }
        }
        return bits
    }

    /// The flags of every bucket, in the order of the buckets (one per key): what
    /// ``NameKeys/attachRouteFlags(_:)`` keeps with each name.
    var flagsOfBuckets: [RouteFlags] { bucketFlags }

    @inline(__always)
    func startHandlers(bucket: Int) -> UnsafeBufferPointer<UnretainedHandler<Route.StartHandler>> { fixedStarts[bucket] }

    @inline(__always)
    func endHandlers(bucket: Int) -> UnsafeBufferPointer<UnretainedHandler<Route.EndHandler>> { fixedEnds[bucket] }

    @inline(__always)
    func textHandlers(bucket: Int) -> UnsafeBufferPointer<UnretainedHandler<Route.TextHandler>> { fixedTexts[bucket] }

    func retainedAttributes(bucket: Int) -> [String] { fixedRetainedAttributes[bucket] }

    func retainedAttributes(entry: Int32) -> [String] { retainedAttributes[Int(entry)] }

    @inline(__always)
    func candidates(bucket: Int) -> UnsafeBufferPointer<Int32> { candidates[bucket] }

    @inline(__always)
    func tests(bucket: Int) -> UnsafeBufferPointer<Int32> { bucketTests[bucket] }

    /// Whether the names of an element and its ancestors alone decide a bucket's matches.
    @inline(__always)
    func matchesByNames(bucket: Int) -> Bool { matchesByNames[bucket] }

    /// The most tests a bucket may have for ``matchesByNamesAndOwnTests(bucket:)``.
    static let maximumKeyedTests = 24

    /// Whether the names of an element and its ancestors and which of the bucket's tests
    /// (``tests(bucket:)``) held on the element decide a bucket's matches.
    @inline(__always)
    func matchesByNamesAndOwnTests(bucket: Int) -> Bool { matchesByNamesAndOwnTests[bucket] }

    @inline(__always)
    func flags(entry: Int32) -> RouteFlags { entryFlags[Int(entry)] }

    /// Whether an entry's pattern matches the open element at stack index `top`.
    @inline(__always)
    func matches(entry: Int32, top: Int, stack: borrowing ElementStack, tests: borrowing AttributeTestResults) -> Bool {
        matchesOnName[Int(entry)]
            || (requiredNames[Int(entry)] & ~stack[top].openNames == 0
                && patterns[Int(entry)].matches(top: top, stack: stack, tests: tests))
    }

    /// The group bits a match of `entry` sets; see ``catchAllBit(entry:)``.
    @inline(__always)
    func groupMask(entry: Int32) -> UInt64 { groupMasks[Int(entry)] }

    /// For a mounted set's catch-all entry, the bit that, once set by a match of the
    /// set's own patterns, keeps it from running; `0` for other entries.
    @inline(__always)
    func catchAllBit(entry: Int32) -> UInt64 { catchAllBits[Int(entry)] }

    @inline(__always)
    func startHandlers(entry: Int32) -> UnsafeBufferPointer<UnretainedHandler<Route.StartHandler>> { starts[Int(entry)] }

    @inline(__always)
    func endHandlers(entry: Int32) -> UnsafeBufferPointer<UnretainedHandler<Route.EndHandler>> { ends[Int(entry)] }

    @inline(__always)
    func textHandlers(entry: Int32) -> UnsafeBufferPointer<UnretainedHandler<Route.TextHandler>> { texts[Int(entry)] }

    /// Whether attribute test `test` holds for a start tag's attributes.
    @inline(__always)
    func evaluate(_ test: Int32, _ attributes: UnsafePointer<UnsafePointer<CChar>?>) -> Bool {
        attributeTests[Int(test)].holds(for: attributes)
    }
}

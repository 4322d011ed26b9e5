#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Turns expat's callbacks into handler calls: interns names, keeps the ancestor
/// stack, collects text for the elements that want it, and stops at the first
/// handler error or stop request.
///
/// Called only by ``ExpatDriver``'s C callbacks, on the thread running the parse.
/// A parser is confined to one thread (it is not `Sendable`) and never re-entered,
/// so the hot mutable state opts out of dynamic exclusivity checks, which otherwise
/// cost about a tenth of the parse time.
@usableFromInline
final class DispatchEngine {
    let names: NameTable
    /// What each interned name means to the patterns.
    let keys: NameKeys
    /// The prefixes the dispatcher binds.
    let namespaces: NamespaceBindings
    private let routes: RouteTable
    private let processingInstructionHandlers: [(String, String) throws -> Void]
    private let commentHandlers: [(String) throws -> Void]
    private let doctypeHandlers: [(DoctypeDeclaration) throws -> Void]
    private let notationHandlers: [(NotationDeclaration) throws -> Void]
    let warningHandlers: [(ParseWarning) -> Void]
    /// The prefixes that patterns use and no binding resolved (``unseenPatternPrefixes``).
    private let unboundPatternPrefixes: [String]

    @exclusivity(unchecked) var stack = ElementStack()
    /// The route flags of the innermost open element (empty outside the root), read by
    /// every character-data callback.
    @exclusivity(unchecked) private var topFlags: RouteFlags = []
    @exclusivity(unchecked) private var text = TextBuffer()
    /// Character data for text-chunk handlers, gathered across expat's small pieces
    /// (it reports every line end and entity reference separately) and delivered at
    /// the next markup event, at ``textChunkLimit`` bytes, or at the end of a feed.
    @exclusivity(unchecked) private var pendingText = TextBuffer()
    /// Text of one large character-data callback that a stream's pause left undelivered,
    /// from `deferredTextStart` on: a slice per resume (``deliverDeferredTextSlice()``).
    @exclusivity(unchecked) private var deferredText = TextBuffer()
    @exclusivity(unchecked) private var deferredTextStart = 0
    /// Set when a stream's pause waits for the next event (asked inside an internal entity)
    /// or left text undelivered: the only per-event check that streams cost.
    @exclusivity(unchecked) var hasPauseWork = false
    @exclusivity(unchecked) private var serial: UInt64 = 0
    /// The name table's size when the memory budget was last charged for it (``chargeNames()``).
    @exclusivity(unchecked) private var chargedNameCount = 0
    @exclusivity(unchecked) private var chargedNameBytes = 0

    /// The attributes of the start tag being dispatched, and the serial of its element.
    @exclusivity(unchecked) private var currentAttributes: UnsafePointer<UnsafePointer<CChar>?>?
    @exclusivity(unchecked) private var attributesSerial: UInt64 = 0
    /// Identifies the text chunk being dispatched, so a chunk cannot be read later.
    @exclusivity(unchecked) private var chunkSerial: UInt64 = 0

    /// The patterns matched by open elements whose name alone does not decide them.
    @exclusivity(unchecked) private var matches = MatchStack()
    /// What those elements matched, per path of names, for the next element on the same path.
    @exclusivity(unchecked) private var pathMatches = PathMatchCache()
    /// The attribute tests that held on each open element.
    @exclusivity(unchecked) private var testResults: AttributeTestResults
    /// Set by a handler to end the chain of handlers for the current event.
    @exclusivity(unchecked) private var chainStopped = false

    /// Skipping a subtree: `.content` keeps the element open (its end handlers run),
    /// `.element` skips the element itself too (the subtree filter's decision).
    enum Skipping { case none, content, element }
    @exclusivity(unchecked) private(set) var skipping = Skipping.none
    /// Open elements inside the skipped subtree, below the one being skipped.
    @exclusivity(unchecked) private var skippedDepth = 0
    /// Open elements, the skipped one included, when skipping began.
    @exclusivity(unchecked) private var skipBase = 0
    /// The serial of the element whose start handler asked to skip its content.
    @exclusivity(unchecked) private var skipRequest: UInt64 = 0
    /// The serial of the element a mounted set asked to prune (``ElementContext/pruneSubtree(nestedMatchesAreRecords:)``),
    /// granted or not by ``SubtreePruning`` after its start handlers.
    @exclusivity(unchecked) private var pruneRequest: UInt64 = 0
    /// Whether the set asking to prune starts a record at each element matching its mount
    /// pattern, nested ones included (``SubtreePruning/verdict(top:matched:stack:nestedMatchesAreRecords:)``).
    @exclusivity(unchecked) private var pruneSparesNestedMatches = false
    /// How many pruning requests were granted, for tests.
    private(set) var prunedSubtrees = 0
    /// The subtrees that matter, if the application said; and the depth of the kept
    /// subtree being dispatched (0 outside any).
    private let subtreeFilter: SubtreeFilter?
    @exclusivity(unchecked) private var keptDepth = 0

    /// The attributes kept for open elements (``Dispatcher/retainAttributes(_:of:)``), outermost first.
    private var retained: [RetainedAttribute] = []

    /// Set when a handler threw or asked to stop; no event is dispatched afterwards.
    @exclusivity(unchecked) private(set) var isHalted = false
    @exclusivity(unchecked) private(set) var handlerError: HandlerError?
    @exclusivity(unchecked) private(set) var stopRequested = false
    /// The safety rule or limit the document broke, which ended the parse.
    @exclusivity(unchecked) private(set) var violation: XMLParseError?

    /// The limits checked per event, as plain bounds (`Int.max` when unlimited).
    private let maximumDepth: Int
    private let maximumAttributes: Int
    private let maximumTextBytes: Int
    private let maximumCollectedTextBytes: Int
    /// The text counted, not kept, for the open elements together (``Dispatcher/limitsAllText``).
    @exclusivity(unchecked) private var measuredText = 0 {
        didSet { textBound = min(maximumTextBytes, maximumCollectedTextBytes - measuredText - capturedText) }
    }
    /// Whole text and inner markup, for the elements whose handlers want them.
    @exclusivity(unchecked) private var content = ContentCapture()
    /// The bytes `content` holds, which count against maximumCollectedTextBytes too.
    @exclusivity(unchecked) private var capturedText = 0 {
        didSet { textBound = min(maximumTextBytes, maximumCollectedTextBytes - measuredText - capturedText) }
    }
    private let contentLimits: ContentCapture.Limits
    /// While the text buffer and `length` more bytes stay within this, both text limits hold
    /// (the innermost element's own text is a part of the buffer): the one comparison that
    /// collecting a piece of text costs.
    @exclusivity(unchecked) private var textBound: Int
    /// Whether counted text keeps its leading whitespace, as the dispatcher's policy says.
    private let measuresLeadingWhitespace: Bool
    /// Start tags of fewer input bytes than this plus one cannot break the token, name or
    /// attribute limits, so only larger ones are examined. ``admitsStartTag`` compares a
    /// tag's size less one, unsigned, so that a tag of no input bytes of its own (from an
    /// internal entity's replacement text) is always examined, still in one comparison.
    private let startTagCheckBound: UInt

    let driver: ExpatDriver
    /// The name of the input being parsed (``PushParser/source``), for the errors that
    /// handler sets make themselves (records, decoded values).
    var source: String?

    /// Whether captured records may be held and delivered in a row: only when their
    /// deliveries are the dispatcher's only handlers, so that nothing else sees the delay.
    let holdsRecords: Bool
    /// The records held for delivery, in document order.
    @exclusivity(unchecked) private var held = HeldRecords()

    /// The largest piece of text a text-chunk handler receives at once.
    static let textChunkLimit = 64 * 1024

    /// - Parameters:
    ///   - mayHoldRecords: Whether captured records may be held (``holdsRecords``); a
    ///     stream's parser says no, as it pauses at every value its consumer has not taken.
    ///   - encoding: The encoding to read the input in whatever the document declares
    ///     (``ExpatDriver/encodingOverride``), or `nil` to let the document say.
    init(dispatcher: Dispatcher, mayHoldRecords: Bool = true, encoding: String? = nil) {
        let names = NameTable(capacity: max(64, dispatcher.entries.count * 2))
        self.names = names
        let policy = dispatcher.whitespace
        // Prefixes the dispatcher binds apply to every pattern that a mounted set's own
        // bindings left unbound.
        let entries = dispatcher.entries.compactMap { entry -> RouteEntry? in
            // `.` outside a mount has no element to match.
            guard !entry.pattern.isMountPoint else { return nil }
            var resolved = entry
            resolved.pattern = entry.pattern.resolvingPrefixes(dispatcher.namespaces)
            resolved.route = entry.route.resolvingWhitespace(policy)
            return resolved
        }
        let keptSubtrees = dispatcher.keptSubtrees?.map { $0.resolvingPrefixes(dispatcher.namespaces) }
        let keys = NameKeys(
            names: names, patterns: entries.map(\.pattern) + (keptSubtrees ?? []),
            processesNamespaces: dispatcher.processesNamespaces)
        self.keys = keys
        namespaces = dispatcher.namespaces
        let routes = RouteTable(
            entries: entries, groupParents: dispatcher.groupParents,
            fallback: dispatcher.fallback.resolvingWhitespace(policy), keys: keys,
            addedFlags: dispatcher.limitsAllText ? .measuresText : [])
        self.routes = routes
        testResults = AttributeTestResults(testCount: routes.attributeTestCount)
        subtreeFilter = keptSubtrees.map { SubtreeFilter($0, keys: keys) }
        processingInstructionHandlers = dispatcher.processingInstructionHandlers
        commentHandlers = dispatcher.commentHandlers
        doctypeHandlers = dispatcher.doctypeHandlers
        notationHandlers = dispatcher.notationHandlers
        warningHandlers = dispatcher.warningHandlers
        var prefixes: [String] = []
        for pattern in entries.map(\.pattern) + (keptSubtrees ?? []) {
            for prefix in pattern.unboundPrefixes where !prefixes.contains(prefix) { prefixes.append(prefix) }
        }
        unboundPatternPrefixes = prefixes
        let profile = dispatcher.safety
        maximumDepth = profile.maximumDepth.bound
        maximumAttributes = profile.maximumAttributes.bound
        maximumTextBytes = profile.maximumTextBytes.bound
        maximumCollectedTextBytes = profile.maximumCollectedTextBytes.bound
        textBound = min(maximumTextBytes, maximumCollectedTextBytes)
        contentLimits = ContentCapture.Limits(
            maximumTextBytes: maximumTextBytes, maximumCollectedTextBytes: maximumCollectedTextBytes)
        measuresLeadingWhitespace = policy == .preserve
        // A specified attribute takes at least 5 input bytes (` a=""`) in any encoding. The
        // name limit counts UTF-8 bytes, and one input byte decodes to at most 3 of them (a
        // single-byte table maps each byte to a scalar below U+10000; UTF-16 takes 2 bytes
        // for 3, 4 for 4): a name over the limit takes more than a third of it in input.
        let attributeBytes = maximumAttributes.multipliedReportingOverflow(by: 5)
        let startTagCheckSize = min(
            profile.maximumTokenBytes.bound, profile.maximumNameBytes.bound / 3,
            attributeBytes.overflow ? Int.max : attributeBytes.partialValue)
        // Every start tag takes at least 3 bytes, so a size of 0 or 1 examines them all.
        startTagCheckBound = UInt(max(1, startTagCheckSize) - 1)
        driver = ExpatDriver(profile: profile, encoding: encoding, processesNamespaces: dispatcher.processesNamespaces)
        holdsRecords = mayHoldRecords && dispatcher.hasOnlyRecordCaptures
        driver.connect(
            to: self,
            events: ExpatDriver.Events(
                processingInstructions: !processingInstructionHandlers.isEmpty,
                comments: !commentHandlers.isEmpty,
                doctype: !doctypeHandlers.isEmpty,
                notations: !notationHandlers.isEmpty))
    }

    // MARK: Events from the driver

    @inline(__always)
    func startElement(_ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        if isHalted { return }
        if _slowPath(hasPauseWork) { doPauseWork() }
        if pendingText.count > 0 {
            flushPendingText()
            if isHalted { return }
        }
        guard admitsStartTag(name, attributes, openElements: stack.count) else { return }
        let id = names.intern(name)
        // A new name's id is the table's size before it: known ids are below the count charged.
        if _slowPath(Int(id) >= chargedNameCount) {
            keys.update()
            chargeNames()
            if isHalted { return }
        }
        let key = keys.key(of: id)
        serial &+= 1
        var filterState: UInt64 = 0
        if let subtreeFilter, keptDepth == 0 {
            switch subtreeFilter.decide(stack.isEmpty ? subtreeFilter.initialState : stack.top.filterState, key: key, attributes: attributes) {
            case .keep: keptDepth = stack.count + 1
            case .descend(let state): filterState = state
            case .skip:
                beginSkipping(.element)
                return
            }
        }
        let bucket = routes.bucket(key)
        let level = stack.count
        // Which of the bucket's tests held, one bit each in the order of its list (a bucket
        // with more tests than bits is never matched by them: see `matchPatterns`).
        var heldTests: UInt32 = 0
        if routes.attributeTestCount > 0 {
            testResults.reset(level: level)
            var bit: UInt32 = 1
            for test in routes.tests(bucket: bucket) {
                if routes.evaluate(test, attributes) {
                    testResults.record(Int(test), level: level)
                    heldTests |= bit
                }
                bit &<<= 1
            }
        }
        var flags = routes.flags(bucket: bucket)
        let openNames = (stack.isEmpty ? 0 : stack.top.openNames) | keys.bits(of: key)
        let path =
            routes.matchesAncestors
            ? pathMatches.path(parent: stack.isEmpty ? PathMatchCache.document : stack.top.path, name: key)
            : PathMatchCache.untracked
        stack.push(
            ElementFrame(
                name: id, key: key, flags: flags, textStart: text.count, serial: serial, line: 0, column: 0, byteOffset: 0,
                filterState: filterState, openNames: openNames, path: path))
        if _slowPath(flags.contains(.matchesAncestors)) {
            flags = matchPatterns(bucket: bucket, path: path, heldTests: heldTests)
            stack.top.flags = flags
        }
        if _slowPath(!flags.union(topFlags).isDisjoint(with: .capturesContent)) {
            flags = enterCapture(flags, name: id, attributes: attributes)
            if isHalted { return }
        }
        // Any handler's context may be asked for the start tag's position while the element
        // is open, after expat has moved on, so it is captured now.
        if flags.isListened {
            (stack.top.line, stack.top.column, stack.top.byteOffset) = driver.currentPosition()
        }
        topFlags = flags
        driver.setCharacterData(flags.characterData)
        if _slowPath(flags.contains(.retainsAttributes)) { retainAttributes(attributes, bucket: bucket) }
        guard flags.contains(.start) else { return }

        currentAttributes = UnsafePointer(attributes)
        attributesSerial = serial
        defer { currentAttributes = nil }
        let depth = stack.count
        chainStopped = false
        let frame = stack.top
        if frame.matchStart < 0 {
            for handler in routes.startHandlers(bucket: bucket) {
                handler.withHandler { callStartHandler($0, name: id, serial: serial, depth: depth) }
                if isHalted { return }
                if chainStopped { break }
            }
        } else {
            chain: for entry in matches.entries(from: frame.matchStart, count: frame.matchCount) {
                for handler in routes.startHandlers(entry: entry) {
                    handler.withHandler { callStartHandler($0, name: id, serial: serial, depth: depth) }
                    if isHalted { return }
                    if chainStopped { break chain }
                }
            }
        }
        if skipRequest == serial {
            beginSkipping(.content)
        } else if pruneRequest == serial {
            prune(frame, bucket: bucket)
        }
    }

    /// Prunes the new top element as a mounted set asked, if ``SubtreePruning`` allows.
    private func prune(_ frame: ElementFrame, bucket: Int) {
        // Pruning must not change what anyone sees: an element inside one whose whole text or
        // inner markup is wanted is seen, whoever asks.
        guard !stack.topFlags.contains(.inCapture) else { return }
        let verdict = pruningVerdict(frame, bucket: bucket)
        guard verdict != .refused else { return }
        prunedSubtrees += 1
        if verdict == .element {
            // Only the asking set's end handlers would run at its end tag, and it has no use for
            // them. (No text reaches the element from here on: nothing else to undo.)
            stack.top.flags.remove(.end)
            // An empty element's end tag is the next event: nothing to skip in between.
            if driver.currentStartTagIsEmpty { return }
        }
        beginSkipping(.content)
    }

    /// What the set that asked to prune the new top element may do: see ``SubtreePruning``.
    /// Where names alone decide the element's matches, the verdict is kept for its path.
    private func pruningVerdict(_ frame: ElementFrame, bucket: Int) -> SubtreePruning.Verdict {
        // Only a mounted set's catch-all asks, so the element matched patterns.
        guard frame.matchStart >= 0 else { return .refused }
        let keepsVerdict = routes.matchesByNames(bucket: bucket)
        if keepsVerdict, let verdict = pathMatches.pruningVerdict(of: frame.path) { return verdict }
        let matched = matches.entries(from: frame.matchStart, count: frame.matchCount)
        let verdict = routes.pruning.verdict(
            top: stack.count - 1, matched: matched, stack: stack, nestedMatchesAreRecords: pruneSparesNestedMatches)
        if keepsVerdict { pathMatches.rememberPruningVerdict(verdict, of: frame.path) }
        return verdict
    }

    /// Finds the patterns of a bucket whose name alone does not decide them that the new
    /// top element matches, records them for it and returns their flags. Where names alone
    /// decide them, an element on a path matched before takes that match; where names and
    /// the element's own attribute tests do, an element on that path whose tests came out
    /// the same (`heldTests`, one bit per test of the bucket) does.
    private func matchPatterns(bucket: Int, path: Int32, heldTests: UInt32) -> RouteFlags {
        let start = matches.count
        // The number the matches are kept under: the path's, or one for the path followed
        // by the tests' results as a step of their own (a negative name, no element's).
        let key =
            if routes.matchesByNames(bucket: bucket) {
                path
            } else if routes.matchesByNamesAndOwnTests(bucket: bucket) {
                pathMatches.path(parent: path, name: -2 - Int32(truncatingIfNeeded: heldTests))
            } else {
                PathMatchCache.untracked
            }
        let flags: RouteFlags
        if let kept = pathMatches.pushMatches(of: key, onto: &matches) {
            flags = kept
        } else {
            flags = matchCandidates(bucket: bucket)
            if key >= 0 {
                let found = matches.entries(from: Int32(start), count: Int32(matches.count - start))
                pathMatches.remember(key, flags: flags, entries: found)
            }
        }
        stack.top.matchStart = Int32(start)
        stack.top.matchCount = Int32(matches.count - start)
        return flags
    }

    /// Matches a bucket's candidates against the open elements, pushes the matches onto
    /// the match stack and returns their flags.
    private func matchCandidates(bucket: Int) -> RouteFlags {
        let top = stack.count - 1
        var flags: RouteFlags = []
        // The handler groups whose patterns matched: a mounted set's catch-all runs only if
        // its own bit is clear, the dispatcher's catch-all only if bit 0 is.
        var matchedGroups: UInt64 = 0
        for entry in routes.candidates(bucket: bucket)
        where routes.matches(entry: entry, top: top, stack: stack, tests: testResults) {
            if matchedGroups & routes.catchAllBit(entry: entry) != 0 { continue }
            if routes.flags(entry: entry).hasHandlers { matchedGroups |= routes.groupMask(entry: entry) }
            matches.push(entry)
            flags.formUnion(routes.flags(entry: entry))
        }
        if matchedGroups & 1 == 0 && routes.flags(entry: routes.fallbackEntry).isListened {
            matches.push(routes.fallbackEntry)
            // Entries that only keep attributes may have matched: their flags stay.
            flags.formUnion(routes.flags(entry: routes.fallbackEntry))
        }
        return flags
    }

    /// Keeps the attributes that the patterns matching the new top element asked for.
    private func retainAttributes(_ pairs: UnsafeMutablePointer<UnsafePointer<CChar>?>, bucket: Int) {
        let frame = stack.top
        var wanted = routes.retainedAttributes(bucket: bucket)
        if frame.matchStart >= 0 {
            for entry in matches.entries(from: frame.matchStart, count: frame.matchCount) {
                wanted += routes.retainedAttributes(entry: entry).filter { !wanted.contains($0) }
            }
        }
        let count = Self.attributeCount(pairs)
        // No engine: the view is used here only, while the pairs are valid.
        let attributes = ElementAttributes(
            engine: nil, serial: frame.serial, pairs: UnsafePointer(pairs), count: count, specifiedCount: count)
        for name in wanted {
            if let value = attributes[name] {
                retained.append(RetainedAttribute(depth: stack.count, element: frame.name, name: name, value: value))
            }
        }
    }

    /// The number of name/value pairs in expat's NULL-terminated attribute array.
    private static func attributeCount(_ pairs: UnsafePointer<UnsafePointer<CChar>?>) -> Int {
        var count = 0
        while pairs[2 * count] != nil { count += 1 }
        return count
    }

    /// The value of `attribute` kept for the nearest element above stack depth `depth`
    /// named `element` (any, when `nil`).
    func retainedAttribute(_ attribute: String, of element: String?, below depth: Int, serial: UInt64) -> String? {
        _ = checkedFrameCount(depth: depth, serial: serial)
        for kept in retained.reversed() where kept.depth < depth && kept.name == attribute {
            if element.map({ isNamed(kept.element, $0) }) ?? true { return kept.value }
        }
        return nil
    }

    /// Whether the interned name `id` is `name`: a name as the document wrote it
    /// (`prefix:local`), or one in Clark notation (`{uri}local`).
    func isNamed(_ id: Int32, _ name: String) -> Bool {
        guard let (namespace, local) = QualifiedName.clark(name) else { return names.string(id) == name }
        let parts = names.parts(id)
        return parts.localName == local && (parts.namespaceURI ?? "") == namespace
    }

    /// Checks a start tag against the depth limit and, when it is large, comes from an
    /// internal entity or may carry defaulted attributes, the token, name and attribute limits.
    /// - Returns: `false` when it broke one, and the parse ended.
    @inline(__always)
    private func admitsStartTag(
        _ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>, openElements: Int
    ) -> Bool {
        if openElements >= maximumDepth {
            violate(
                .depthLimitExceeded, "elements nest deeper than maximumDepth (\(maximumDepth))",
                limit: maximumDepth)
            return false
        }
        if driver.hasAttributeDeclarations
            || UInt(bitPattern: driver.currentEventByteCount &- 1) >= startTagCheckBound
        {
            return checkStartTag(name, attributes)
        }
        return true
    }

    /// The length of a name as the document wrote it, as the name limit counts it: with
    /// namespace processing, expat prefixes the namespace URI (`uri␁local␁prefix`), which
    /// is an attribute value of the declaration, not part of the name.
    private static func writtenLength(_ name: UnsafePointer<CChar>) -> Int {
        let length = strlen(name)
        guard let separator = memchr(name, Int32(QualifiedName.separator), length) else { return length }
        return length - (UnsafeRawPointer(separator) - UnsafeRawPointer(name)) - 1
    }

    /// Checks a large start tag, or one that may carry defaulted attributes, against
    /// the token, name and attribute limits.
    /// - Returns: `false` when it broke one, and the parse ended.
    private func checkStartTag(
        _ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>
    ) -> Bool {
        guard driver.checkTokenSize(self) else { return false }
        let maximumNameBytes = driver.maximumNameBytes
        var count = 0
        var longestName = Self.writtenLength(name)
        while let attributeName = attributes[2 * count] {
            longestName = max(longestName, Self.writtenLength(attributeName))
            count += 1
        }
        if longestName > maximumNameBytes {
            violateNameLimit()
            return false
        }
        if count > maximumAttributes {
            violate(
                .attributeLimitExceeded, "more than maximumAttributes (\(maximumAttributes)) attributes on one element",
                limit: maximumAttributes)
            return false
        }
        if driver.hasAttributeDeclarations {
            let specified = min(count, driver.specifiedAttributeCount)
            if specified < count { return driver.admitsDefaultedAttributes(attributes, from: specified, to: count, self) }
        }
        return true
    }

    @inline(__always)
    func endElement() {
        if isHalted || stack.isEmpty { return }
        if _slowPath(hasPauseWork) { doPauseWork() }
        if pendingText.count > 0 {
            flushPendingText()
            if isHalted { return }
        }
        // Most elements have no end handler: their frame is read field by field, in place.
        let flags = stack.topFlags
        if flags.contains(.end) {
            let frame = stack.top
            let depth = stack.count
            chainStopped = false
            if frame.matchStart < 0 {
                for handler in routes.endHandlers(bucket: routes.bucket(frame.key)) {
                    handler.withHandler { callEndHandler($0, frame, depth: depth) }
                    if isHalted { return }
                    if chainStopped { break }
                }
            } else {
                chain: for entry in matches.entries(from: frame.matchStart, count: frame.matchCount) {
                    for handler in routes.endHandlers(entry: entry) {
                        handler.withHandler { callEndHandler($0, frame, depth: depth) }
                        if isHalted { return }
                        if chainStopped { break chain }
                    }
                }
            }
        }
        if flags.contains(.collectsText) { text.truncate(to: stack.topTextStart) }
        // What few elements need at their end, tested at once.
        if _slowPath(!flags.isDisjoint(with: [.retainsAttributes, .measuresText, .inCapture])) { finishRarely(flags) }
        let matchStart = stack.top.matchStart
        if matchStart >= 0 { matches.truncate(to: Int(matchStart)) }
        if keptDepth == stack.count { keptDepth = 0 }
        stack.dropTop()
        topFlags = stack.isEmpty ? [] : stack.topFlags
        driver.setCharacterData(topFlags.characterData)
    }

    // The handler calls build their context in the call's argument, where it is borrowed:
    // a context kept in a local for the handlers of a chain was an owned copy, which cost
    // a retain and a release of the engine (atomic) per element and handler kind.

    @inline(__always)
    private func callStartHandler(_ handler: Route.StartHandler, name: Int32, serial: UInt64, depth: Int) {
        do {
            try handler.call(ElementContext(engine: self, nameID: name, serial: serial, depth: depth))
        } catch {
            fail(error, in: .start)
        }
    }

    @inline(__always)
    private func callEndHandler(_ handler: Route.EndHandler, _ frame: ElementFrame, depth: Int) {
        do {
            switch handler {
            case .plain(let handler):
                try handler(ElementContext(engine: self, nameID: frame.name, serial: frame.serial, depth: depth))
            case .text(let policy, let handler):
                try handler(
                    ElementContext(engine: self, nameID: frame.name, serial: frame.serial, depth: depth),
                    Whitespace.string(text.bytes(from: frame.textStart), policy: policy ?? .trim))
            case .content(let content, let policy, let handler):
                try handler(
                    ElementContext(engine: self, nameID: frame.name, serial: frame.serial, depth: depth),
                    contentString(content, frame, depth: depth, policy: policy ?? .trim))
            }
        } catch {
            fail(error, in: .end)
        }
    }

    @inline(__always)
    func characters(_ bytes: UnsafePointer<CChar>, _ length: Int) {
        if isHalted { return }
        if _slowPath(hasPauseWork) { doPauseWork() }
        let flags = topFlags
        if flags.contains(.collectsText) {
            if flags.contains(.preservesText) || text.count != stack.topTextStart {
                // Text within both limits as a whole is within each: the buffer holds the open
                // elements' text, and the innermost one's own is a part of it.
                if _slowPath(text.count + length > textBound) {
                    guard admitsText(length, own: text.count - stack.topTextStart, bytes, length, flags: flags)
                    else { return }
                }
                text.append(bytes, count: length)
            } else {
                // Whitespace before an element's first other character is never collected unless
                // a handler preserves it (the policies trim it), whichever pieces it comes in, so
                // that neither memory nor the limits depend on how the input was split.
                let skipped = Whitespace.leadingSpaceCount(UnsafeRawBufferPointer(start: bytes, count: length))
                if skipped < length {
                    if _slowPath(text.count + length - skipped > textBound) {
                        guard admitsText(length - skipped, own: 0, bytes, length, flags: flags) else { return }
                    }
                    text.append(bytes + skipped, count: length - skipped)
                }
            }
        }
        guard flags.contains(.textChunks) else { return }
        gatherTextChunk(UnsafeRawBufferPointer(start: bytes, count: length))
    }

    /// The end of an element with attributes kept, text counted or content captured.
    @inline(never)
    private func finishRarely(_ flags: RouteFlags) {
        if flags.contains(.retainsAttributes) {
            while let last = retained.last, last.depth == stack.count { retained.removeLast() }
        }
        if flags.contains(.measuresText) { measuredText -= stack.top.measuredText }
        if flags.contains(.inCapture) { leaveCapture() }
    }

    /// Character data while the innermost element's whole text or inner markup is
    /// gathered, or its text counted without being kept (``ExpatDriver/CharacterData/rare``):
    /// that first, then what ``characters(_:_:)`` does, unless a limit broke.
    @inline(never)
    func charactersRarely(_ bytes: UnsafePointer<CChar>, _ length: Int) {
        if isHalted { return }
        if _slowPath(hasPauseWork) { doPauseWork() }
        let flags = topFlags
        if flags.contains(.inCapture) {
            guard captureCharacters(bytes, length, flags: flags) else { return }
        }
        if flags.contains(.measuresText) && !flags.contains(.collectsText) {
            guard measureText(bytes, length, flags: flags) else { return }
        }
        characters(bytes, length)
    }

    /// Gathers character data for the innermost element's text-chunk handlers.
    @inline(__always)
    private func gatherTextChunk(_ piece: UnsafeRawBufferPointer) {
        var piece = piece
        if pendingText.count + piece.count > Self.textChunkLimit {
            flushPendingText()
            // Large pieces go to the handlers straight from expat's buffer, in bounded slices.
            while piece.count >= Self.textChunkLimit && !isHalted {
                if driver.isPauseRequested {
                    // A stream's consumer has a value waiting: the rest waits for the resumes.
                    if let base = piece.baseAddress { deferredText.append(base, count: piece.count) }
                    hasPauseWork = true
                    return
                }
                let cut = Self.sliceEnd(piece)
                deliverTextChunk(UnsafeRawBufferPointer(rebasing: piece[..<cut]))
                piece = UnsafeRawBufferPointer(rebasing: piece[cut...])
            }
            if isHalted { return }
        }
        if let base = piece.baseAddress, piece.count > 0 { pendingText.append(base, count: piece.count) }
    }

    /// Where a text slice of at most ``textChunkLimit`` bytes from the start of `bytes`
    /// ends: never before a UTF-8 continuation byte, so each slice holds whole characters.
    private static func sliceEnd(_ bytes: UnsafeRawBufferPointer) -> Int {
        var cut = min(bytes.count, textChunkLimit)
        while cut < bytes.count && cut > textChunkLimit - 3 && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        return cut
    }

    /// At an event, what a pause left waiting: a pause asked inside an internal entity is
    /// made now if the event is the document's own; undelivered text goes out first.
    private func doPauseWork() {
        hasPauseWork = false
        driver.suspendIfDeferred()
        if deferredText.count > 0 { deliverDeferredTextSlice(all: true) }
    }

    /// Whether text a pause left undelivered waits for the next resume.
    var hasDeferredText: Bool { deferredText.count > 0 }

    /// Delivers the next slice of the text a pause left undelivered (or, with `all`, the
    /// rest of it: an event came before the resume), to the innermost element's handlers.
    func deliverDeferredTextSlice(all: Bool = false) {
        repeat {
            let rest = deferredText.bytes(from: deferredTextStart)
            let cut = Self.sliceEnd(rest)
            deliverTextChunk(UnsafeRawBufferPointer(rebasing: rest[..<cut]))
            deferredTextStart += cut
        } while all && deferredTextStart < deferredText.count && !isHalted
        if deferredTextStart >= deferredText.count || isHalted {
            deferredText.removeAll(keepingAtMost: Self.textChunkLimit)
            deferredTextStart = 0
        }
    }

    /// Delivers the gathered character data of the innermost element to its text-chunk handlers.
    func flushPendingText() {
        guard pendingText.count > 0 else { return }
        deliverTextChunk(pendingText.bytes(from: 0))
        pendingText.truncate(to: 0)
    }

    private func deliverTextChunk(_ bytes: UnsafeRawBufferPointer) {
        guard !isHalted, !stack.isEmpty else { return }
        let frame = stack.top
        chunkSerial &+= 1
        let serial = chunkSerial
        let depth = stack.count
        defer { chunkSerial &+= 1 }
        chainStopped = false
        if frame.matchStart < 0 {
            for handler in routes.textHandlers(bucket: routes.bucket(frame.key)) {
                handler.withHandler { callTextHandler($0, frame, depth: depth, chunk: serial, bytes) }
                if isHalted { return }
                if chainStopped { break }
            }
        } else {
            chain: for entry in matches.entries(from: frame.matchStart, count: frame.matchCount) {
                for handler in routes.textHandlers(entry: entry) {
                    handler.withHandler { callTextHandler($0, frame, depth: depth, chunk: serial, bytes) }
                    if isHalted { return }
                    if chainStopped { break chain }
                }
            }
        }
    }

    @inline(__always)
    private func callTextHandler(
        _ handler: Route.TextHandler, _ frame: ElementFrame, depth: Int, chunk: UInt64, _ bytes: UnsafeRawBufferPointer
    ) {
        do {
            try handler.call(
                ElementContext(engine: self, nameID: frame.name, serial: frame.serial, depth: depth),
                TextChunk(engine: self, serial: chunk, bytes: bytes))
        } catch {
            fail(error, in: .text)
        }
    }

    func processingInstruction(target: UnsafePointer<CChar>?, data: UnsafePointer<CChar>?) {
        guard !processingInstructionHandlers.isEmpty, !isHalted, skipping == .none else { return }
        flushPendingText()
        let target = string(target) ?? ""
        let data = string(data) ?? ""
        for handler in processingInstructionHandlers where !isHalted {
            do { try handler(target, data) } catch { fail(error, in: .processingInstruction) }
        }
    }

    func comment(_ text: UnsafePointer<CChar>?) {
        guard !commentHandlers.isEmpty, !isHalted, skipping == .none else { return }
        flushPendingText()
        let text = string(text) ?? ""
        for handler in commentHandlers where !isHalted {
            do { try handler(text) } catch { fail(error, in: .comment) }
        }
    }

    func doctype(_ declaration: DoctypeDeclaration) {
        for handler in doctypeHandlers where !isHalted {
            do { try handler(declaration) } catch { fail(error, in: .doctype) }
        }
    }

    func notation(_ declaration: NotationDeclaration) {
        for handler in notationHandlers where !isHalted {
            do { try handler(declaration) } catch { fail(error, in: .notation) }
        }
    }

    // MARK: Skipping

    /// Asks to skip the content of the element a start handler runs for.
    func requestSkip(serial: UInt64) {
        checkStartHandler(serial: serial, "skipSubtree()")
        skipRequest = serial
    }

    /// Asks to skip the content of the element a mounted set's catch-all start handler
    /// runs for, if nothing outside that set would see it (``SubtreePruning``).
    func requestPrune(serial: UInt64, nestedMatchesAreRecords: Bool) {
        checkStartHandler(serial: serial, "pruneSubtree(nestedMatchesAreRecords:)")
        pruneRequest = serial
        pruneSparesNestedMatches = nestedMatchesAreRecords
    }

    /// Traps unless a start handler for the element with `serial` is running.
    private func checkStartHandler(serial: UInt64, _ request: StaticString) {
        precondition(
            serial == attributesSerial && currentAttributes != nil,
            "\(request) is only available in a start handler, for its own element")
    }

    /// Ends the chain of handlers for the current event after the running one.
    func stopChain() {
        chainStopped = true
    }

    /// Hands start and end tags to the counting callbacks until the skipped element ends.
    private func beginSkipping(_ kind: Skipping) {
        skipping = kind
        skippedDepth = 0
        skipBase = stack.count + (kind == .element ? 1 : 0)
        driver.setCharacterData(.ignored)
        driver.setSkipping(true)
    }

    /// A start tag inside a skipped subtree: only the limits are checked.
    func skippedStart(_ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        if isHalted { return }
        guard admitsStartTag(name, attributes, openElements: skipBase + skippedDepth) else { return }
        skippedDepth += 1
    }

    /// An end tag inside a skipped subtree, or the skipped element's own.
    func skippedEnd() {
        if isHalted { return }
        if skippedDepth > 0 {
            skippedDepth -= 1
            return
        }
        let kind = skipping
        skipping = .none
        driver.setSkipping(false)
        if kind == .content {
            endElement()
        } else {
            driver.setCharacterData(topFlags.characterData)
        }
    }

    // MARK: Whole text and inner markup

    /// The new top element is, or is inside, one whose whole text or inner markup is
    /// wanted: marks it so, writes its start tag into the fragments around it, and starts
    /// gathering what its own handlers want (``ContentCapture``). Returns its flags.
    @inline(never)
    private func enterCapture(
        _ flags: RouteFlags, name: Int32, attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>
    ) -> RouteFlags {
        let flags = flags.union(.inCapture)
        stack.top.flags = flags
        let depth = stack.count
        if flags.contains(.outerMarkup) { content.beginOuterMarkup(depth: depth) }
        if content.writesMarkup {
            let element = ElementContext(engine: self, nameID: name, serial: serial, depth: depth)
            let count = Self.attributeCount(attributes)
            // No engine: the view is used here only, while the pairs are valid. Defaulted
            // attributes are written too: the fragment has no DTD to supply them.
            let view = ElementAttributes(
                engine: nil, serial: serial, pairs: UnsafePointer(attributes), count: count, specifiedCount: count)
            let breach = content.writeStartTag(
                MarkupNaming.name(of: element), attributes: view.map { (MarkupNaming.name(of: $0), $0.value) },
                depth: depth, others: text.count + measuredText, limits: contentLimits)
            capturedText = content.heldBytes
            if let breach {
                violateContentLimit(breach, inStartTag: true)
                return flags
            }
        }
        content.begin(depth: depth, flags: flags)
        return flags
    }

    /// Gathers a piece of character data for the whole text and inner markup being
    /// gathered, unless it (or the innermost element's own text, which is collected next)
    /// breaks a text limit; `false` when it did, and the parse ended.
    @inline(never)
    private func captureCharacters(_ bytes: UnsafePointer<CChar>, _ length: Int, flags: RouteFlags) -> Bool {
        let piece = UnsafeRawBufferPointer(start: bytes, count: length)
        let own =
            if flags.contains(.collectsText) {
                ContentCapture.OwnText(
                    isCollected: true, count: text.count - stack.topTextStart,
                    keepsLeadingWhitespace: flags.contains(.preservesText))
            } else if flags.contains(.measuresText) {
                ContentCapture.OwnText(
                    isCollected: true, count: stack.top.measuredText, keepsLeadingWhitespace: measuresLeadingWhitespace)
            } else {
                ContentCapture.OwnText.none
            }
        if let breach = content.breach(of: piece, own: own, others: text.count + measuredText, limits: contentLimits) {
            violateContentLimit(breach, piece: (bytes, length), flags: flags)
            return false
        }
        content.append(piece)
        capturedText = content.heldBytes
        return true
    }

    /// The top element, marked ``RouteFlags/inCapture``, ends: its end tag goes into the
    /// fragments around it, and what was gathered for it is let go.
    @inline(never)
    private func leaveCapture() {
        let breach = content.end(depth: stack.count, others: text.count + measuredText, limits: contentLimits)
        capturedText = content.heldBytes
        if let breach { violateContentLimit(breach) }
    }

    /// Ends the parse with the text limit that gathering whole text or inner markup broke.
    private func violateContentLimit(
        _ breach: ContentCapture.Breach, piece: (UnsafePointer<CChar>, Int)? = nil, flags: RouteFlags = [],
        inStartTag: Bool = false
    ) {
        let maximum = driver.profile.maximumTextBytes
        let limit: Int
        let message: String
        var depth = stack.count
        switch breach.limit {
        case .wholeText(let element):
            depth = element
            limit = maximumTextBytes
            message =
                "the whole text of <\(MessageText.name(names.string(stack[depth - 1].name)))> is longer than"
                + " maximumTextBytes (\(maximum))"
        case .innerMarkup(let element):
            depth = element
            limit = maximumTextBytes
            message =
                "the inner markup of <\(MessageText.name(names.string(stack[depth - 1].name)))> is longer than"
                + " maximumTextBytes (\(maximum))"
        case .ownText:
            limit = maximumTextBytes
            message = ownTextLimitMessage()
        case .collectedText:
            limit = maximumCollectedTextBytes
            message = collectedTextLimitMessage()
        }
        if let (bytes, length) = piece {
            violateTextLimit(bytes, length, allowed: breach.allowed, flags: flags, limit: limit, message, depth: depth)
        } else if inStartTag && depth == stack.count {
            // The new element's position is not taken yet: the start tag is the current event.
            violate(.textLimitExceeded, message, limit: limit)
        } else {
            let frame = stack[depth - 1]
            violate(.textLimitExceeded, message, limit: limit, at: (frame.line, frame.column, frame.byteOffset), depth: depth)
        }
    }

    /// The content an end handler of the top element at `depth` receives, shaped by `policy`
    /// (for inner markup, only its two ends are trimmed: whitespace inside markup may matter).
    private func contentString(_ kind: ElementContent, _ frame: ElementFrame, depth: Int, policy: WhitespacePolicy) -> String {
        switch kind {
        case .ownText:
            return Whitespace.string(text.bytes(from: frame.textStart), policy: policy)
        case .wholeText:
            return Whitespace.string(content.whole.text(ofDepth: depth), policy: policy)
        case .innerMarkup:
            guard let writer = content.markup(ofDepth: depth) else { return "" }
            return writer.bytes.withUnsafeBytes { Whitespace.string($0, policy: policy == .preserve ? .preserve : .trim) }
        case .outerMarkup:
            guard let writer = content.markup(ofDepth: depth, outer: true) else { return "" }
            return writer.closed.withUnsafeBytes { UTF8Text.string($0) }
        }
    }

    /// Starts gathering the whole text of the element whose start handler is running, for
    /// a handler that decides per element (a decoded value that asks for it).
    func requestWholeText(serial: UInt64) {
        checkStartHandler(serial: serial, "requestWholeText()")
        let flags = stack.top.flags.union([.wholeText, .inCapture])
        stack.top.flags = flags
        topFlags = flags
        content.begin(depth: stack.count, flags: .wholeText)
        driver.setCharacterData(.rare)
    }

    /// The whole text so far of an open element whose whole text is gathered, shaped by `policy`.
    func wholeText(depth: Int, serial: UInt64, policy: WhitespacePolicy) -> String {
        Whitespace.string(content.whole.text(ofDepth: checkedFrameCount(depth: depth, serial: serial)), policy: policy)
    }

    // MARK: Held records

    /// Holds a record that a capture finished at the end tag of the element at `depth`,
    /// to be delivered with the next ones; delivers the held records when there are enough.
    /// Only while ``holdsRecords``.
    func hold(_ capture: SubtreeCapture, root: Int, bytes: Int, depth: Int, serial: UInt64) {
        held.append(
            capture: capture, root: root, bytes: bytes, position: position(depth: depth, serial: serial), stack: stack,
            depth: depth)
        if held.isFull { deliverHeldRecords() }
    }

    /// Delivers the held records in document order. A parse error or broken limit after
    /// them does not stop them (they came first); after a handler error or a stop request
    /// the rest are dropped, as they would never have been reached.
    func deliverHeldRecords() {
        guard !held.isEmpty else { return }
        for item in held.items where handlerError == nil && !stopRequested {
            do {
                try item.capture._withUnsafeGuaranteedRef { try $0.deliver(item.root, heldBy: self) }
            } catch {
                handlerError = HandlerError(
                    underlying: error, event: .end, elementPath: path(of: item), line: item.line, column: item.column,
                    byteOffset: max(0, item.byteOffset))
                isHalted = true
                driver.stop()
            }
        }
        for item in held.items { item.capture._withUnsafeGuaranteedRef { $0.releaseHeld() } }
        held.removeAll()
    }

    /// The element path of a held record being delivered.
    func path(ofHeld root: Int, in capture: SubtreeCapture) -> ElementPath? {
        let reference = Unmanaged.passUnretained(capture).toOpaque()
        guard let item = held.items.first(where: { $0.capture.toOpaque() == reference && $0.root == root }) else { return nil }
        return path(of: item)
    }

    private func path(of item: HeldRecords.Item) -> ElementPath {
        ElementPath(held.pathNames(of: item).map { names.string($0) })
    }

    // MARK: Safety violations

    /// Ends the parse because the document broke a rule of the safety profile, at the
    /// current event's position or the one given, in the open element at `depth` (the
    /// innermost unless said).
    func violate(
        _ code: XMLParseError.Code, _ message: String, limit: Int? = nil,
        at position: (line: Int, column: Int, byteOffset: Int)? = nil, depth: Int? = nil
    ) {
        guard !isHalted else { return }
        let position = position ?? driver.currentPosition()
        let path = depth.map { depth in ElementPath((0..<depth).map { names.string(stack[$0].name) }) } ?? currentPath
        violation = XMLParseError(
            code: code, message: message, line: max(1, position.line), column: max(1, position.column),
            byteOffset: max(0, position.byteOffset), elementPath: path, limit: limit)
        isHalted = true
        driver.stop()
    }

    /// Charges the parse's memory budget for the name table's growth since the last
    /// charge: a document of many distinct element names is held to the same limit as
    /// expat, which keeps its own copy of each.
    private func chargeNames() {
        chargedNameCount = names.count
        let held = names.heldBytes
        guard held > chargedNameBytes else { return }
        guard driver.charge(bytes: held - chargedNameBytes) else {
            let limit = driver.profile.maximumParserMemoryBytes
            violate(
                .memoryLimitExceeded,
                "the parser needs more memory than maximumParserMemoryBytes (\(limit)) for the names of"
                    + " \(names.count) distinct elements",
                limit: limit.value)
            return
        }
        chargedNameBytes = held
    }

    func violateTokenLimit() {
        let limit = driver.profile.maximumTokenBytes
        violate(
            .tokenLimitExceeded, "a single token is larger than maximumTokenBytes (\(limit))", limit: limit.value)
    }

    func violateNameLimit() {
        let limit = driver.profile.maximumNameBytes
        violate(.nameLimitExceeded, "a name is longer than maximumNameBytes (\(limit))", limit: limit.value)
    }

    /// Counts a piece of the innermost element's text against the text limits without
    /// keeping it (``Dispatcher/limitsAllText``); `false` when it broke one.
    @inline(never)
    private func measureText(_ bytes: UnsafePointer<CChar>, _ length: Int, flags: RouteFlags) -> Bool {
        let own = stack.top.measuredText
        let skipped =
            measuresLeadingWhitespace || own != 0
            ? 0 : Whitespace.leadingSpaceCount(UnsafeRawBufferPointer(start: bytes, count: length))
        guard skipped < length else { return true }
        guard admitsText(length - skipped, own: own, bytes, length, flags: flags) else { return false }
        stack.top.measuredText = own + length - skipped
        measuredText += length - skipped
        return true
    }

    /// Whether `added` more bytes of the innermost element's text, which has `own` bytes
    /// so far, keep it within ``SafetyProfile/maximumTextBytes`` and the text of all open
    /// elements within ``SafetyProfile/maximumCollectedTextBytes``; ends the parse if not.
    /// The added bytes end the piece `bytes` of `length` bytes (its leading whitespace may
    /// not count), which text-chunk handlers get up to the limit.
    @inline(never)
    private func admitsText(
        _ added: Int, own: Int, _ bytes: UnsafePointer<CChar>, _ length: Int, flags: RouteFlags
    ) -> Bool {
        let skipped = length - added
        if own + added > maximumTextBytes {
            violateTextLimit(
                bytes, length, allowed: skipped + maximumTextBytes - own, flags: flags, limit: maximumTextBytes,
                ownTextLimitMessage())
            return false
        }
        let collected = text.count + measuredText + capturedText
        if collected + added > maximumCollectedTextBytes {
            violateTextLimit(
                bytes, length, allowed: skipped + maximumCollectedTextBytes - collected, flags: flags,
                limit: maximumCollectedTextBytes, collectedTextLimitMessage())
            return false
        }
        return true
    }

    private func ownTextLimitMessage() -> String {
        let name = MessageText.name(names.string(stack.top.name))
        return "the text of <\(name)> is longer than maximumTextBytes (\(driver.profile.maximumTextBytes))"
    }

    private func collectedTextLimitMessage() -> String {
        let name = MessageText.name(names.string(stack.top.name))
        let holders = (0..<stack.count).count {
            stack[$0].flags.contains(.collectsText) || stack[$0].measuredText > 0
                || !stack[$0].flags.isDisjoint(with: [.wholeText, .innerMarkup, .outerMarkup])
        }
        return "the text collected for <\(name)> and the other open elements (\(max(holders, 1)) in all) is longer"
            + " than maximumCollectedTextBytes (\(driver.profile.maximumCollectedTextBytes))"
    }

    /// The innermost element's text broke a text limit: text-chunk handlers still get the
    /// text up to it (`allowed` bytes, backed up to whole characters), so what they see does
    /// not depend on how the input was split, and the error points at the start tag of the
    /// element whose text it is (the innermost, unless `depth` says).
    private func violateTextLimit(
        _ bytes: UnsafePointer<CChar>, _ length: Int, allowed: Int, flags: RouteFlags, limit: Int, _ message: String,
        depth: Int? = nil
    ) {
        if flags.contains(.textChunks) {
            var allowed = max(0, min(length, allowed))
            // Back up to the start of a UTF-8 character.
            while allowed > 0 && allowed < length && UInt8(bitPattern: bytes[allowed]) & 0xC0 == 0x80 { allowed -= 1 }
            if allowed > 0 { gatherTextChunk(UnsafeRawBufferPointer(start: bytes, count: allowed)) }
        }
        let frame = stack[(depth ?? stack.count) - 1]
        violate(.textLimitExceeded, message, limit: limit, at: (frame.line, frame.column, frame.byteOffset), depth: depth)
    }

    /// Delivers text gathered for text-chunk handlers before a violation, as a parse error
    /// does: the handlers see the same text however the input was split.
    func flushPendingTextAfterViolation() {
        guard violation != nil, handlerError == nil else { return }
        isHalted = false
        flushPendingText()
        isHalted = true
    }

    /// The unbound pattern prefixes that no element the parse read was written with
    /// (``ParseWarning/unseenPrefix(_:)``).
    func unseenPatternPrefixes() -> [String] {
        guard !unboundPatternPrefixes.isEmpty else { return [] }
        var unseen = unboundPatternPrefixes
        for id in Int32(keys.patternNameCount)..<Int32(names.count) where !unseen.isEmpty {
            if let prefix = QualifiedName.prefix(of: names.string(id)) { unseen.removeAll { $0 == prefix } }
        }
        return unseen
    }

    /// Whether any element started: the end of input is then a truncated document.
    var rootStarted: Bool { serial > 0 }

    // MARK: Stopping

    /// Ends the parse with a handler's error, wrapped with the element and position.
    func fail(_ error: any Error, in event: HandlerError.Event) {
        guard !isHalted else { return }
        // Records held from before the failing handler come first; if one of them fails,
        // its error is the one reported.
        deliverHeldRecords()
        guard !isHalted else { return }
        let position: (line: Int, column: Int, byteOffset: Int)
        switch event {
        case .start, .end, .text:
            let frame = stack.top
            position = (frame.line, frame.column, frame.byteOffset)
        case .processingInstruction, .comment, .doctype, .notation:
            position = driver.currentPosition()
        }
        handlerError = HandlerError(
            underlying: error, event: event, elementPath: currentPath, line: position.line, column: position.column,
            byteOffset: max(0, position.byteOffset))
        isHalted = true
        driver.stop()
    }

    /// Dispatches nothing more, after a parse error.
    func halt() {
        isHalted = true
    }

    func requestStop() {
        guard !isHalted else { return }
        stopRequested = true
        isHalted = true
        driver.stop()
    }

    // MARK: Queries from contexts

    /// The names of the open elements, root first.
    var currentPath: ElementPath {
        ElementPath((0..<stack.count).map { names.string(stack[$0].name) })
    }

    /// Checks that the element a context was made for is still open and returns its depth.
    func checkedFrameCount(depth: Int, serial: UInt64) -> Int {
        precondition(
            depth <= stack.count && stack[depth - 1].serial == serial,
            "ElementContext used after its element ended; copy the values you need inside the handler")
        return depth
    }

    /// The start tag position of an open element, captured at its start.
    func position(depth: Int, serial: UInt64) -> (line: Int, column: Int, byteOffset: Int) {
        let frame = stack[checkedFrameCount(depth: depth, serial: serial) - 1]
        return (frame.line, frame.column, frame.byteOffset)
    }

    /// The attributes of the element whose start handlers are running, if `serial` is its.
    /// - Parameter checked: Whether the view holds the engine, to check on every use that
    ///   the start handler has not returned. The library's own handlers, which read the
    ///   view before they return, leave it out: no retain and release per element.
    func attributes(for serial: UInt64, checked: Bool = true) -> ElementAttributes {
        guard let pairs = currentAttributes, serial == attributesSerial else { return .empty }
        let count = Self.attributeCount(pairs)
        let specified = driver.hasAttributeDeclarations ? min(count, driver.specifiedAttributeCount) : count
        return ElementAttributes(
            engine: checked ? self : nil, serial: serial, pairs: pairs, count: count, specifiedCount: specified)
    }

    func checkAttributes(serial: UInt64) {
        precondition(
            currentAttributes != nil && serial == attributesSerial,
            "ElementAttributes used after its start handler returned; copy the values you need inside the handler")
    }

    @usableFromInline
    func checkChunk(serial: UInt64) {
        precondition(
            serial == chunkSerial, "TextChunk used after its text handler returned; copy the text inside the handler")
    }
}

/// Turns expat's callbacks into handler calls: interns names, keeps the ancestor stack,
/// decides per event which handlers run and calls them, and stops at the first handler
/// error or stop request.
///
/// The engine keeps the stack, the routing and the handler calls; each other concern is a
/// type of its own, stored inline: text in a ``TextCoalescer``, skipping and pruning in a
/// ``SubtreeSkipper``, the depth, attribute and text limits in a ``LimitGuard``, whole
/// text and inner markup in a ``ContentCapture``, and deliveries that handlers put off in
/// a ``DeferredDelivery``. Its extensions, one file each, hold the engine's side of them:
/// `+Matching`, `+Skipping`, `+Watching`, `+PassingThrough` (subtrees whose elements no
/// pattern can match, pushed on the cheap), `+CharacterData`, `+TextChunks`, `+Content`, `+Limits`, `+Stopping`,
/// `+Queries` (what handler contexts ask), `+CatchAll` (start and end tags where every
/// element handler is a catch-all), `+Ending` (the end of an element with something
/// to finish), `+Documents` (what goes at the end of each
/// document of a concatenated input), `+Pausing` (what a stream's pause leaves for the
/// next event), `+ExpatEvents` (everything the ``ExpatDriver`` may call on the engine) and
/// `+Driver` (everything the engine asks of the driver). A ``PushParser`` owns both.
/// The engine names no record or decoder type: those are its clients.
///
/// Called only by ``ExpatDriver``'s C callbacks (through ``ExpatElementCallbacks`` and ``ExpatEventSink``) and by the
/// ``PushParser`` that owns it, on the thread running the parse.
/// A parser is confined to one thread (it is not `Sendable`) and never re-entered,
/// so the hot mutable state opts out of dynamic exclusivity checks, which would
/// otherwise be paid on every event. The concerns' types are structs stored inline and
/// their per-event methods are inlined: no indirection or dynamic call per event.
@usableFromInline
final class DispatchEngine {
    let names: NameTable
    /// What each interned name means to the patterns.
    let keys: NameKeys
    /// The prefixes the dispatcher binds.
    let namespaces: NamespaceBindings
    let routes: RouteTable
    // The document-level handlers: set here, and emptied only by ``letHandlersGo()``.
    @exclusivity(unchecked) var processingInstructionHandlers: [(String, String) throws -> Void]
    @exclusivity(unchecked) var commentHandlers: [(String) throws -> Void]
    @exclusivity(unchecked) var doctypeHandlers: [(DoctypeDeclaration) throws -> Void]
    @exclusivity(unchecked) var notationHandlers: [(NotationDeclaration) throws -> Void]
    @exclusivity(unchecked) var warningHandlers: [(ParseWarning) -> Void]
    /// The prefixes that patterns use and no binding resolved (``unseenPatternPrefixes``).
    let unboundPatternPrefixes: [String]
    /// The warnings delivered while the input was read (``warn(_:)``), the first
    /// ``readingWarningLimit`` of them.
    var readingWarnings: [ParseWarning] = []
    /// Those of them that an element of an earlier document of the input was written with,
    /// whose names the table no longer holds.
    var prefixesSeenInEarlierDocuments: [String] = []
    /// The dispatcher's watched patterns, resolved, with the route entries of each
    /// (``unmatchedPatternWarnings()``).
    let watched: [WatchedPattern]
    /// Per route entry: whether it matched an element whose bucket is matched against the
    /// ancestors (set where that matching happens, off the per-element path of names that
    /// decide their handlers alone).
    @exclusivity(unchecked) var matchedEntries = GrowableBuffer<Bool>()
    /// The names of the earlier documents of a concatenated input, which the table no longer
    /// holds, as far as ``unmatchedPatternWarnings()`` needs them.
    var earlierDocumentNames = EarlierDocumentNames()

    @exclusivity(unchecked) var stack = ElementStack()
    /// The route flags of the innermost open element (empty outside the root), read by
    /// every character-data callback.
    @exclusivity(unchecked) var topFlags: RouteFlags = []
    /// The open elements' own text, text gathered for text-chunk handlers, and text a
    /// stream's pause left undelivered.
    @exclusivity(unchecked) var text: TextCoalescer
    /// Set while something of a stream's pause waits for the document's next event: a pause
    /// asked inside an internal entity, or text a pause left undelivered (`+Pausing`). The
    /// only per-event check that streams cost.
    @exclusivity(unchecked) var pauseAwaitsEvent = false
    @exclusivity(unchecked) var serial: UInt64 = 0
    /// The serial before the current document's root element (0 but in a concatenated input).
    var serialAtDocumentStart: UInt64 = 0
    /// The name table's size when the memory budget was last charged for it (``chargeNames()``).
    @exclusivity(unchecked) var chargedNameCount = 0
    @exclusivity(unchecked) var chargedNameBytes = 0

    /// The attributes of the start tag being dispatched, and the serial of its element.
    @exclusivity(unchecked) var currentAttributes: UnsafePointer<UnsafePointer<CChar>?>?
    @exclusivity(unchecked) var attributesSerial: UInt64 = 0
    /// Identifies the text chunk being dispatched, so a chunk cannot be read later.
    @usableFromInline @exclusivity(unchecked) var chunkSerial: UInt64 = 0

    /// The patterns matched by open elements whose name alone does not decide them.
    @exclusivity(unchecked) var matches = MatchStack()
    /// What those elements matched, per path of names, for the next element on the same path.
    @exclusivity(unchecked) var pathMatches = PathMatchCache()
    /// The attribute tests that held on each open element.
    @exclusivity(unchecked) var testResults: AttributeTestResults
    /// Set by a handler to end the chain of handlers for the current event.
    @exclusivity(unchecked) var chainStopped = false

    /// What is skipped: subtrees that handlers asked to skip or prune, and what the
    /// subtree filter leaves out.
    @exclusivity(unchecked) var skipper: SubtreeSkipper
    /// How many pruning requests were granted, for tests: without watching (the subtree's
    /// elements skipped), and watching for the asking set's mount pattern; of them, those
    /// granted on arrival, without calling the handler that would ask.
    var prunedSubtrees: Int { skipper.prunedSubtrees }
    var watchedSubtrees: Int { skipper.watchedSubtrees }
    var prunedOnArrival: Int { skipper.prunedOnArrival }
    /// How many subtrees began to pass through (`+PassingThrough`), for tests.
    var passedThroughSubtrees: Int { skipper.passedThroughSubtrees }

    /// The key of the elements whose subtrees may pass through (``NameKeys/other``, the key of
    /// every name no pattern uses), or -1 where none may: see `DispatchEngine+PassingThrough`.
    let passThroughKey: Int32
    /// The names' bits (``NameKeys/bits(of:)``) of the elements dispatched inside a subtree
    /// that passes through, those where a match may begin (``RouteTable/segmentStartBits``).
    let passThroughDispatchBits: UInt64
    /// Whether a start tag may be decided before its routes: by the subtree filter, by
    /// beginning to pass through (``passThroughKey``), or on the catch-all path.
    let startsSlowly: Bool
    /// Where every element handler is a catch-all, the route of every element (`+CatchAll`).
    let catchAll: CatchAllRoute?
    /// Whether start tags take the catch-all path, tested where ``startsSlowly`` is.
    let takesCatchAllPath: Bool

    /// The attributes kept for open elements (``Dispatcher/retainAttributes(_:of:)``), outermost first.
    var retained: [RetainedAttribute] = []

    /// Set when a handler threw or asked to stop, or the document broke a rule; no event is
    /// dispatched afterwards. This and the three below are set only by the methods of
    /// `DispatchEngine+Stopping.swift` (and, for the text a violation cut short,
    /// ``flushPendingTextAfterViolation()``).
    @exclusivity(unchecked) var isHalted = false
    @exclusivity(unchecked) var handlerError: HandlerError?
    @exclusivity(unchecked) var stopRequested = false
    /// The safety rule or limit the document broke, which ended the parse.
    @exclusivity(unchecked) var violation: XMLParseError?

    /// The depth, attribute and text limits, and the text counted against them.
    @exclusivity(unchecked) var limits: LimitGuard
    /// Whole text and inner markup, for the elements whose handlers want them.
    @exclusivity(unchecked) var content = ContentCapture()

    /// The driver that reports expat's events to the engine, reached without a retain per
    /// use (only through `+Driver`). The ``PushParser`` owns both; the engine keeps the
    /// driver alive too (``driver``), as an ``ElementContext`` or ``TextChunk`` a handler
    /// kept holds the engine and may be asked after the parser is gone.
    let driverReference: Unmanaged<ExpatDriver>
    /// Keeps the driver as long as the engine; never read on a per-event path.
    private let driver: ExpatDriver
    /// The name of the input being parsed (``PushParser/source``), for the errors that
    /// handler sets make themselves (records, decoded values).
    var source: String?

    /// Whether handlers may put their deliveries off, and what holds them (registered
    /// through ``registerDeferredDelivery(_:)``).
    @exclusivity(unchecked) var deferredDelivery: DeferredDelivery

    /// - Parameters:
    ///   - mayDefer: Whether handlers may put their deliveries off (``DeferredDelivery``);
    ///     a stream's parser says no, as it pauses at every value its consumer has not taken.
    ///   - driver: The driver whose expat reports the events, which the caller owns and
    ///     connects to the engine.
    init(dispatcher: Dispatcher, driver: ExpatDriver, mayDefer: Bool = true) {
        driverReference = Unmanaged.passUnretained(driver)
        self.driver = driver
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
        // The patterns' names stay for the whole parse; a document's own are dropped at its
        // end when documents follow one another (``endDocument()``).
        names.keepAsBase()
        namespaces = dispatcher.namespaces
        let routes = RouteTable(
            entries: entries, groupParents: dispatcher.groupParents,
            fallback: dispatcher.fallback.resolvingWhitespace(policy), keys: keys,
            addedFlags: dispatcher.limitsAllText ? .measuresText : [])
        self.routes = routes
        // The bucket of a key is the key: each name's slot keeps its bucket's flags, and the
        // names no pattern uses the mark of an element whose subtree may pass through.
        let passesThrough = Self.letsSubtreesPassThrough(
            routes: routes, keys: keys, hasSubtreeFilter: keptSubtrees != nil,
            hasMarkupHandlers: !dispatcher.commentHandlers.isEmpty || !dispatcher.processingInstructionHandlers.isEmpty)
        var slotFlags = routes.flagsOfBuckets
        if passesThrough { slotFlags[Int(keys.other)].insert(.passesThrough) }
        keys.attachRouteFlags(slotFlags)
        passThroughKey = passesThrough ? keys.other : -1
        testResults = AttributeTestResults(testCount: routes.attributeTestCount)
        skipper = SubtreeSkipper(
            filter: keptSubtrees.map { SubtreeFilter($0, keys: keys) },
            countsSkippedNames: dispatcher.keptSubtreesCountSkippedNames)
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
        watched = WatchedPattern.resolve(dispatcher.watches, entries: entries, bindings: dispatcher.namespaces)
        let profile = dispatcher.safety
        limits = LimitGuard(profile: profile)
        text = TextCoalescer(countsLeadingWhitespace: policy == .preserve)
        deferredDelivery = DeferredDelivery(isAllowed: mayDefer && dispatcher.hasOnlyDeferringHandlers)
        for _ in entries { matchedEntries.append(false) }
        passThroughDispatchBits = routes.segmentStartBits
        catchAll = CatchAllRoute(dispatcher, hasPatterns: !entries.isEmpty || passesThrough, routes: routes, keys: keys)
        takesCatchAllPath = catchAll != nil
        startsSlowly = keptSubtrees != nil || passThroughKey >= 0 || takesCatchAllPath
    }

    // MARK: Events from the driver (through ``ExpatElementCallbacks`` and ``ExpatEventSink``)

    @inline(__always)
    func startElement(_ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        guard let id = admittedStartTag(name, attributes) else { return }
        dispatchStart(id, attributes)
    }

    /// What every start tag the engine opens goes through first, dispatched or watched: the
    /// pause a document's next event resolves, the text gathered before it, the limits, and
    /// its name interned. Returns the name's id, or `nil` when the parse halted or ended.
    @inline(__always)
    func admittedStartTag(
        _ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>
    ) -> Int32? {
        if isHalted || !settlesBeforeTag() { return nil }
        guard admitsStartTag(name, attributes, openElements: stack.count) else { return nil }
        let id = names.intern(name)
        guard admitsInternedName(id) else { return nil }
        return id
    }

    /// What every start or end tag does first: a pause that awaits the document's next event
    /// is resolved, and the text gathered for text-chunk handlers before the tag is
    /// delivered. Returns `false` when a handler halted the parse meanwhile.
    @inline(__always)
    func settlesBeforeTag() -> Bool {
        if _slowPath(pauseAwaitsEvent) { resolvePauseAtEvent() }
        if text.hasPendingChunk {
            flushPendingText()
            if isHalted { return false }
        }
        return true
    }

    /// A start tag admitted against the limits, its name interned as `id`: routes it,
    /// pushes its frame and runs its start handlers.
    @inline(__always)
    func dispatchStart(_ id: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        // Counted for the warnings about patterns that matched nothing, once the subtree
        // filter has kept the element: what the application asked to skip is not read.
        let route: NameKeys.NameRoute
        var filterState: UInt64 = 0
        // One test for the dispatchers with neither a subtree filter nor subtrees that may
        // pass through.
        if _slowPath(startsSlowly) {
            if takesCatchAllPath { return catchAllStart(id, attributes) }
            // A child of an element whose subtree may pass through may start the passing
            // through (`+PassingThrough`).
            if topFlags.contains(.passesThrough), let base = passThroughBase(forChild: id) {
                beginPassingThrough(id, attributes, openElements: base)
                return
            }
            serial &+= 1
            if let filter = skipper.filter, skipper.keptDepth == 0 {
                route = keys.route(of: id)
                switch filter.decide(
                    stack.isEmpty ? filter.initialState : stack.top.filterState, key: route.key, attributes: attributes)
                {
                case .keep:
                    skipper.keptDepth = stack.count + 1
                    skipper.countsNamesInsideSkipped = false
                case .descend(let state): filterState = state
                case .skip:
                    if skipper.countsSkippedNames { keys.count(id) }
                    beginSkipping(.element)
                    return
                }
                keys.count(id)
            } else {
                route = keys.countedRoute(of: id)
            }
        } else {
            serial &+= 1
            route = keys.countedRoute(of: id)
        }
        let key = route.key
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
        // The bucket's flags, read with the key (``NameKeys/attachRouteFlags(_:)``), and for
        // a name no pattern uses, the mark of an element whose subtree may pass through.
        var flags = route.flags
        let openNames = (stack.isEmpty ? 0 : stack.top.openNames) | keys.bits(of: key)
        let path =
            routes.matchesAncestors
            ? pathMatches.path(parent: stack.isEmpty ? PathMatchCache.document : stack.top.path, name: key)
            : PathMatchCache.untracked
        stack.push(
            ElementFrame(
                name: id, key: key, flags: flags, textStart: text.ownCount, serial: serial,
                filterState: filterState, openNames: openNames, path: path))
        if _slowPath(flags.contains(.matchesAncestors)) {
            flags = matchPatterns(bucket: bucket, path: path, heldTests: heldTests)
            stack.top.flags = flags
        }
        // Nobody listens to the element and it is inside no capture: no position, handler,
        // kept attribute or character data to test for.
        if _fastPath(flags.isDisjoint(with: .listened) && topFlags.isDisjoint(with: .capturesContent)) {
            // Empty, or the mark of an element whose subtree may pass through (`+PassingThrough`).
            topFlags = flags
            setCharacterData(.ignored)
            return
        }
        startListened(id, flags, bucket: bucket, attributes)
    }

    /// The rest of a start tag that somebody listens to, or inside a capture, its frame
    /// pushed with `flags`: the capture, its position, its kept attributes, its start
    /// handlers and what they asked (skipping or pruning its content).
    @inline(__always)
    func startListened(
        _ id: Int32, _ routeFlags: RouteFlags, bucket: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>
    ) {
        var flags = routeFlags
        if _slowPath(!flags.union(topFlags).isDisjoint(with: .capturesContent)) {
            flags = enterCapture(flags, name: id, attributes: attributes)
            if isHalted { return }
        }
        // Any handler's context may be asked for the start tag's position while the element
        // is open, after expat has moved on, so it is captured now.
        if flags.isListened {
            if _slowPath(flags.contains(.prunedOnArrival)) {
                pruneOnArrival(flags, bucket: bucket, attributes)
                return
            }
            stack.setTopPosition(currentPosition())
        }
        topFlags = flags
        setCharacterData(flags.characterData)
        if _slowPath(flags.contains(.retainsAttributes)) { retainAttributes(attributes, bucket: bucket) }
        guard flags.contains(.start) else { return }

        currentAttributes = UnsafePointer(attributes)
        attributesSerial = serial
        defer { currentAttributes = nil }
        let depth = stack.count
        // Only where its matches are is read here, not the whole frame: the handlers below
        // change nothing else of it that pruning reads while pruning can go ahead (what they
        // ask of a capture marks it captured, which pruning refuses).
        let matchStart = stack.top.matchStart
        if matchStart < 0 {
            let handlers = routes.startHandlers(bucket: bucket)
            if handlers.count == 1, let handler = handlers.first {
                // One handler (a catch-all, or one pattern by name): no chain to walk or stop.
                handler.withHandler { callStartHandler($0, name: id, serial: serial, depth: depth) }
                if isHalted { return }
            } else {
                chainStopped = false
                for handler in handlers {
                    handler.withHandler { callStartHandler($0, name: id, serial: serial, depth: depth) }
                    if isHalted { return }
                    if chainStopped { break }
                }
            }
        } else {
            chainStopped = false
            chain: for entry in matches.entries(from: matchStart, count: stack.top.matchCount) {
                for handler in routes.startHandlers(entry: entry) {
                    handler.withHandler { callStartHandler($0, name: id, serial: serial, depth: depth) }
                    if isHalted { return }
                    if chainStopped { break chain }
                }
            }
        }
        switch skipper.request(of: serial) {
        case .none: break
        case .skip: beginSkipping(.content)
        case .prune: prune(stack.top, bucket: bucket)
        }
    }

    @inline(__always)
    func endElement() {
        if isHalted || stack.isEmpty || !settlesBeforeTag() { return }
        // An element with nothing to do at its end (no end handler, text, kept attribute,
        // counted text, capture or watching; no match pushed onto the match stack) whose end
        // closes no kept subtree is popped here, with none of the tests below. The rest stays
        // inlined: an out-of-line call would cost every listened element's end tag more.
        if _fastPath(stack.topEndsPlainly && skipper.keptDepth != stack.count) {
            stack.dropTop()
            topFlags = stack.isEmpty ? [] : stack.topFlags
            setCharacterData(topFlags.characterData)
            return
        }
        finishElement()
    }

    // The handler calls build their context in the call's argument, where it is borrowed:
    // keep it there. A context kept in a local for the handlers of a chain is an owned
    // copy, which costs a retain and a release of the engine (atomic) per element and
    // handler kind.

    @inline(__always)
    func callStartHandler(_ handler: Route.StartHandler, name: Int32, serial: UInt64, depth: Int) {
        do {
            switch handler {
            case .closure(let call):
                try call(ElementContext(engine: self, nameID: name, serial: serial, depth: depth))
            case .object(let call, let object):
                try call(ElementContext(engine: self, nameID: name, serial: serial, depth: depth), object)
            }
        } catch {
            fail(error, in: .start)
        }
    }

    @inline(__always)
    func callEndHandler(_ handler: Route.EndHandler, _ frame: ElementFrame, depth: Int) {
        do {
            switch handler {
            case .plain(let handler):
                try handler(ElementContext(engine: self, nameID: frame.name, serial: frame.serial, depth: depth))
            case .text(let policy, let handler):
                try handler(
                    ElementContext(engine: self, nameID: frame.name, serial: frame.serial, depth: depth),
                    Whitespace.string(text.ownText(from: frame.textStart), policy: policy ?? .trim))
            case .content(let content, let policy, let handler):
                try handler(
                    ElementContext(engine: self, nameID: frame.name, serial: frame.serial, depth: depth),
                    contentString(content, frame, depth: depth, policy: policy ?? .trim))
            }
        } catch {
            fail(error, in: .end)
        }
    }

    // MARK: Document events

    func processingInstruction(target: UnsafePointer<CChar>?, data: UnsafePointer<CChar>?) {
        guard !processingInstructionHandlers.isEmpty, !isHalted, skipper.kind == .none else { return }
        flushPendingText()
        let target = string(target) ?? ""
        let data = string(data) ?? ""
        for handler in processingInstructionHandlers where !isHalted {
            do { try handler(target, data) } catch { fail(error, in: .processingInstruction) }
        }
    }

    func comment(_ text: UnsafePointer<CChar>?) {
        guard !commentHandlers.isEmpty, !isHalted, skipper.kind == .none else { return }
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

    /// Ends the chain of handlers for the current event after the running one.
    func stopChain() {
        chainStopped = true
    }
}

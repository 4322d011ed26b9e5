/// The catch-all path: start and end tags of a dispatcher whose only element handlers are
/// catch-alls (`onAnyStart`, `onAnyText`, `onAnyEnd` without text), at most one start and
/// one text handler, with no pattern, subtree filter, kept attribute, counted text or
/// watched pattern (``CatchAllRoute/init(_:hasPatterns:routes:keys:)``).
///
/// Every element of such a dispatcher takes the same route: the key of names no pattern
/// uses, the same flags, no match against its ancestors, no attribute test, no path to
/// track. The general path decides all of that per start tag; this one decided it once,
/// when the engine was made. A start tag is admitted as on the general path, in the same
/// callback (the pause, pending text, limits and interning: one copy of the name table's
/// inlined lookup, which the optimizer stops inlining where it has more), and then
/// ``dispatchStart(_:_:)``'s test of ``startsSlowly``, then of ``takesCatchAllPath``, sends it here: the frame, its
/// position, the handler call and a skip the handler asked for. End tags and character data
/// have callbacks of their own (``catchAllElementCallbacks``), and pending text goes
/// straight to the one text handler.
///
/// What must stay true: the frame pushed here is the one the general path would push for
/// the same element (same name, key, flags, serial, text start, names bits, untracked
/// path, no filter state, no match), so that everything that reads the stack afterwards
/// (contexts, errors, skipping, the general end of an element with end handlers, the text
/// delivered by comments, processing instructions and pauses) sees no difference. The
/// counts per name are not kept: only the warnings about watched patterns read them, and
/// this path has none. `CatchAllPathTests` compares both paths' transcripts.
extension DispatchEngine {
    static let catchAllElementCallbacks = ExpatElementCallbacks(
        // The general path's: ``dispatchStart(_:_:)`` turns to ``catchAllStart(_:_:)``.
        start: expatElementCallbacks.start,
        end: { userData, _ in
            withDriver(userData) { driver in engine(of: driver) { $0.catchAllEnd() } }
        },
        skippedStart: expatElementCallbacks.skippedStart,
        skippedEnd: expatElementCallbacks.skippedEnd,
        watchedStart: expatElementCallbacks.watchedStart,
        watchedEnd: expatElementCallbacks.watchedEnd,
        passThroughStart: expatElementCallbacks.passThroughStart,
        characters: { userData, bytes, length in
            guard let bytes, length > 0 else { return }
            withDriver(userData) { driver in engine(of: driver) { $0.catchAllCharacters(bytes, Int(length)) } }
        },
        charactersRarely: expatElementCallbacks.charactersRarely)

    /// The element and text callbacks the driver installs for this engine: the catch-all
    /// path's where the dispatcher allows it.
    var elementCallbacks: ExpatElementCallbacks {
        catchAll != nil ? Self.catchAllElementCallbacks : Self.expatElementCallbacks
    }

    /// A start tag on the catch-all path, admitted and its name interned as `id` by
    /// ``startElement(_:_:)``: the rest of what ``dispatchStart(_:_:)`` does, with the route
    /// decided in advance.
    @inline(__always)
    func catchAllStart(_ id: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        let route = catchAll.unsafelyUnwrapped
        serial &+= 1
        let serial = serial
        stack.push(
            ElementFrame(
                name: id, key: route.key, flags: route.flags, textStart: text.ownCount, serial: serial, filterState: 0,
                openNames: route.openNames, path: PathMatchCache.untracked))
        // As on the general path: any handler's context may be asked for the start tag's
        // position while the element is open, after expat has moved on.
        if route.flags.isListened { stack.setTopPosition(currentPosition()) }
        topFlags = route.flags
        setCharacterData(route.characterData)
        guard let handler = route.startHandler else { return }
        currentAttributes = UnsafePointer(attributes)
        attributesSerial = serial
        defer { currentAttributes = nil }
        handler.withHandler { callStartHandler($0, name: id, serial: serial, depth: stack.count) }
        if isHalted { return }
        switch skipper.request(of: serial) {
        case .none: break
        case .skip: beginSkipping(.content)
        // Only a mounted set asks to prune, and a mounted set keeps a dispatcher off this path.
        case .prune: assertionFailure("a prune request on the catch-all path, which no mounted set takes")
        }
    }

    /// An end tag on the catch-all path: what ``endElement()`` does, with the frame's flags
    /// known in advance.
    @inline(__always)
    func catchAllEnd() {
        if isHalted || stack.isEmpty || !settlesBeforeCatchAllTag() { return }
        guard catchAll.unsafelyUnwrapped.endsPlainly else {
            Self.finishCatchAllElement(self)
            return
        }
        stack.dropTop()
        if stack.isEmpty {
            topFlags = []
            setCharacterData(.ignored)
        }
    }

    /// The end of an element with end handlers: ``finishElement()``, out of line, so that the
    /// callback of the elements without saves no register for it.
    @inline(never)
    static func finishCatchAllElement(_ engine: DispatchEngine) {
        engine.finishElement()
    }

    /// Character data on the catch-all path: what ``characters(_:_:)`` does where the
    /// innermost element's flags are the catch-all route's, which want text chunks and no
    /// own text whenever expat calls this (``CatchAllRoute/characterData``).
    @inline(__always)
    func catchAllCharacters(_ bytes: UnsafePointer<CChar>, _ length: Int) {
        if _fastPath(!isHalted && !pauseAwaitsEvent) && text.gatherShort(bytes, length) { return }
        Self.charactersInGeneral(self, bytes, length)
    }

    /// ``settlesBeforeTag()`` with the pending text delivered straight to the catch-all
    /// text handler.
    @inline(__always)
    func settlesBeforeCatchAllTag() -> Bool {
        if _slowPath(pauseAwaitsEvent) { resolvePauseAtEvent() }
        if text.hasPendingChunk {
            deliverCatchAllTextChunk(text.pendingChunk())
            text.clearPendingChunk()
            if isHalted { return false }
        }
        return true
    }

    /// ``deliverTextChunk(_:)`` for the catch-all path: the one text handler, called
    /// directly, with the innermost element's context.
    @inline(__always)
    func deliverCatchAllTextChunk(_ bytes: UnsafeRawBufferPointer) {
        guard !isHalted, !stack.isEmpty, let handler = catchAll.unsafelyUnwrapped.textHandler else { return }
        let frame = stack.top
        let serial = chunkSerial
        defer { chunkSerial = serial &+ 1 }
        handler.withHandler { callTextHandler($0, frame, depth: stack.count, chunk: serial, bytes) }
    }
}

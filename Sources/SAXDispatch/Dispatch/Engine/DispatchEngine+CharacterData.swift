/// Character data from expat: the innermost element's own text collected within the
/// limits, and text gathered for its text-chunk handlers (delivered by `+TextChunks`).
/// Expat calls ``ExpatElementCallbacks/characters`` for elements that need no more, and
/// ``ExpatElementCallbacks/charactersRarely`` for those whose whole text or markup is
/// captured or whose text is counted without being kept.
///
/// What must stay true: the short pieces that ``characters(_:_:)`` handles itself end up
/// exactly as ``charactersInGeneral(_:_:)`` would leave them, so that which path a piece
/// takes never shows.
extension DispatchEngine {
    /// A piece of character data for the innermost element. The common piece (a line end,
    /// indentation, a short word, for text-chunk handlers alone or for the element's own
    /// text alone, nothing halted or paused) is gathered or collected here without a call,
    /// so that the callback saves no register for it; every other goes to
    /// ``charactersInGeneral(_:_:)``, which does the same with it. (That call passes the
    /// engine as an argument, not as `self`: Swift keeps `self` in a register the callee
    /// must preserve, which the callback would then save for every piece.)
    @inline(__always)
    func characters(_ bytes: UnsafePointer<CChar>, _ length: Int) {
        let flags = topFlags
        if _fastPath(!isHalted && !pauseAwaitsEvent) {
            switch flags.intersection([.collectsText, .textChunks]) {
            case .textChunks:
                if text.gatherShort(bytes, length) { return }
            case .collectsText:
                if text.collectShort(
                    bytes, length, start: stack.topTextStart, keepsLeadingWhitespace: flags.contains(.preservesText),
                    within: limits.textBound)
                {
                    return
                }
            default:
                break
            }
        }
        Self.charactersInGeneral(self, bytes, length)
    }

    /// The out-of-line path of ``characters(_:_:)``.
    @inline(never)
    static func charactersInGeneral(_ engine: DispatchEngine, _ bytes: UnsafePointer<CChar>, _ length: Int) {
        engine.charactersInGeneral(bytes, length)
    }

    /// What ``characters(_:_:)`` does with any piece: own text collected within the
    /// limits, text gathered for text-chunk handlers. (Inlined into the two callers that
    /// need all of it: the out-of-line path of ``characters(_:_:)`` and
    /// ``charactersRarely(_:_:)``.)
    @inline(__always)
    func charactersInGeneral(_ bytes: UnsafePointer<CChar>, _ length: Int) {
        if isHalted { return }
        if _slowPath(pauseAwaitsEvent) { resolvePauseAtEvent() }
        let flags = topFlags
        if flags.contains(.collectsText) {
            let collecting = text.collect(
                bytes, length, start: stack.topTextStart, keepsLeadingWhitespace: flags.contains(.preservesText),
                within: limits.textBound)
            if case .overBound(let added, let own, let skipped) = collecting {
                guard admitsText(added, own: own, bytes, length, flags: flags) else { return }
                text.appendOwnText(bytes + skipped, count: added)
            }
        }
        guard flags.contains(.textChunks) else { return }
        gatherTextChunk(UnsafeRawBufferPointer(start: bytes, count: length))
    }

    /// Character data while the innermost element's whole text or inner markup is
    /// gathered, or its text counted without being kept (``ExpatDriver/CharacterData/rare``):
    /// that first, then what ``characters(_:_:)`` does, unless a limit broke.
    @inline(never)
    func charactersRarely(_ bytes: UnsafePointer<CChar>, _ length: Int) {
        if isHalted { return }
        if _slowPath(pauseAwaitsEvent) { resolvePauseAtEvent() }
        let flags = topFlags
        if flags.contains(.inCapture) {
            guard captureCharacters(bytes, length, flags: flags) else { return }
        }
        if flags.contains(.measuresText) && !flags.contains(.collectsText) {
            guard measureText(bytes, length, flags: flags) else { return }
        }
        charactersInGeneral(bytes, length)
    }
}

/// The end of an element that has something to finish at its end tag; an element with
/// nothing to finish (``ElementStack/topEndsPlainly``) is popped by
/// ``DispatchEngine/endElement()`` without it.
///
/// What must stay true: whatever an element's start made it need at its end (end
/// handlers, own text, kept attributes, counted text, a capture, watching to resume, the
/// matches it pushed, the kept subtree it began) is either on its frame's route flags or
/// its match count, or is the kept subtree's depth: those are what the short path tests.
extension DispatchEngine {
    /// The end of an element that a handler listens to, that matched patterns against its
    /// ancestors, or that closes the subtree the filter keeps: its end handlers, its text,
    /// what few elements need at their end, and its pop.
    @inline(__always)
    func finishElement() {
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
        if flags.contains(.collectsText) { text.endOwnText(at: stack.topTextStart) }
        // What few elements need at their end, tested at once.
        if _slowPath(!flags.isDisjoint(with: [.retainsAttributes, .measuresText, .inCapture, .resumesWatching])) {
            finishRarely(flags)
        }
        let matchStart = stack.top.matchStart
        if matchStart >= 0 { matches.truncate(to: Int(matchStart)) }
        if skipper.keptDepth == stack.count { skipper.keptDepth = 0 }
        stack.dropTop()
        topFlags = stack.isEmpty ? [] : stack.topFlags
        setCharacterData(topFlags.characterData)
    }

    /// The end of an element with attributes kept, text counted or content captured, or
    /// one dispatched inside a watched subtree (``SubtreeSkipper/Kind/watching``).
    @inline(never)
    func finishRarely(_ flags: RouteFlags) {
        if flags.contains(.retainsAttributes) {
            while let last = retained.last, last.depth == stack.count { retained.removeLast() }
        }
        if flags.contains(.measuresText) { limits.measuredText -= stack.top.measuredText }
        if flags.contains(.inCapture) { leaveCapture() }
        if flags.contains(.resumesWatching) { resumeWatching() }
    }
}

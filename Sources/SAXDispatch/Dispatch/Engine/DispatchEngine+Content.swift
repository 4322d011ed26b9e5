/// Whole text and inner and outer markup, for the elements whose handlers want them: the
/// engine's side of ``ContentCapture``.
extension DispatchEngine {
    /// The new top element is, or is inside, one whose whole text or inner markup is
    /// wanted: marks it so, writes its start tag into the fragments around it, and starts
    /// gathering what its own handlers want (``ContentCapture``). Returns its flags.
    @inline(never)
    func enterCapture(
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
                depth: depth, others: text.ownCount + limits.measuredText, limits: limits.contentLimits)
            limits.capturedText = content.heldBytes
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
    func captureCharacters(_ bytes: UnsafePointer<CChar>, _ length: Int, flags: RouteFlags) -> Bool {
        let piece = UnsafeRawBufferPointer(start: bytes, count: length)
        let own =
            if flags.contains(.collectsText) {
                ContentCapture.OwnText(
                    isCollected: true, count: text.ownCount - stack.topTextStart,
                    keepsLeadingWhitespace: flags.contains(.preservesText))
            } else if flags.contains(.measuresText) {
                ContentCapture.OwnText(
                    isCollected: true, count: stack.top.measuredText, keepsLeadingWhitespace: text.countsLeadingWhitespace)
            } else {
                ContentCapture.OwnText.none
            }
        let others = text.ownCount + limits.measuredText
        if let breach = content.breach(of: piece, own: own, others: others, limits: limits.contentLimits) {
            violateContentLimit(breach, piece: (bytes, length), flags: flags)
            return false
        }
        content.append(piece)
        limits.capturedText = content.heldBytes
        return true
    }

    /// The top element, marked ``RouteFlags/inCapture``, ends: its end tag goes into the
    /// fragments around it, and what was gathered for it is let go.
    @inline(never)
    func leaveCapture() {
        let breach = content.end(
            depth: stack.count, others: text.ownCount + limits.measuredText, limits: limits.contentLimits)
        limits.capturedText = content.heldBytes
        if let breach { violateContentLimit(breach) }
    }

    /// Ends the parse with the text limit that gathering whole text or inner markup broke.
    func violateContentLimit(
        _ breach: ContentCapture.Breach, piece: (UnsafePointer<CChar>, Int)? = nil, flags: RouteFlags = [],
        inStartTag: Bool = false
    ) {
        var depth = stack.count
        switch breach.limit {
        case .wholeText(let element), .innerMarkup(let element): depth = element
        case .ownText, .collectedText: break
        }
        let violation = textViolation(breach.limit, depth: depth)
        if let (bytes, length) = piece {
            violateTextLimit(bytes, length, allowed: breach.allowed, flags: flags, violation, depth: depth)
        } else if inStartTag && depth == stack.count {
            // The new element's position is not taken yet: the start tag is the current event.
            violate(violation)
        } else {
            let frame = stack[depth - 1]
            violate(violation, at: (frame.line, frame.column, frame.byteOffset), depth: depth)
        }
    }

    /// The content an end handler of the top element at `depth` receives, shaped by `policy`
    /// (for inner markup, only its two ends are trimmed: whitespace inside markup may matter).
    func contentString(_ kind: ElementContent, _ frame: ElementFrame, depth: Int, policy: WhitespacePolicy) -> String {
        switch kind {
        case .ownText:
            return Whitespace.string(text.ownText(from: frame.textStart), policy: policy)
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
        setCharacterData(.rare)
    }

    /// The whole text so far of an open element whose whole text is gathered, shaped by `policy`.
    func wholeText(depth: Int, serial: UInt64, policy: WhitespacePolicy) -> String {
        Whitespace.string(content.whole.text(ofDepth: checkedFrameCount(depth: depth, serial: serial)), policy: policy)
    }

    /// Starts writing the inner markup of the element whose start handler is running, for
    /// a handler that decides per element (a decoded value that asks for it).
    func requestInnerMarkup(serial: UInt64) {
        checkStartHandler(serial: serial, "requestInnerMarkup()")
        let flags = stack.top.flags.union([.innerMarkup, .inCapture])
        stack.top.flags = flags
        topFlags = flags
        content.begin(depth: stack.count, flags: .innerMarkup)
        setCharacterData(.rare)
    }

    /// The inner markup so far of an open element whose markup is written, its ends
    /// trimmed unless `policy` is `.preserve`.
    func innerMarkup(depth: Int, serial: UInt64, policy: WhitespacePolicy) -> String {
        guard let writer = content.markup(ofDepth: checkedFrameCount(depth: depth, serial: serial)) else { return "" }
        return writer.bytes.withUnsafeBytes { Whitespace.string($0, policy: policy == .preserve ? .preserve : .trim) }
    }
}

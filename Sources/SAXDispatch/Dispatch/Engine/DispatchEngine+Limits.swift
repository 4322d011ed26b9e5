/// The engine's checks against the ``LimitGuard`` (depth, attributes, text) and the
/// driver's start tag and memory checks, which end the parse when a limit breaks.
extension DispatchEngine {
    /// Checks a start tag against the depth limit and, when it is large, comes from an
    /// internal entity, declares namespaces or may carry defaulted attributes, the token,
    /// name and attribute limits.
    /// - Returns: `false` when it broke one, and the parse ended.
    @inline(__always)
    func admitsStartTag(
        _ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>, openElements: Int
    ) -> Bool {
        if !limits.admitsDepth(openElements: openElements) {
            violate(limits.depthViolation())
            return false
        }
        if startTagsMayCarryDefaults || startTagDeclaresNamespaces
            || limits.examinesStartTag(byteCount: currentEventByteCount)
        {
            return checkStartTag(name, attributes)
        }
        return true
    }

    /// Checks a large start tag, or one that declares namespaces or may carry defaulted
    /// attributes, against the driver's token and name limits, the attribute limit, and the
    /// driver's check of attribute values defaulted from the DTD, in that order.
    ///
    /// The attribute limit counts every attribute written on the element, namespace
    /// declarations included, whether or not expat reported them apart
    /// (``ExpatDriver/pendingNamespaceDeclarations``).
    /// - Returns: `false` when it broke one, and the parse ended.
    func checkStartTag(
        _ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>
    ) -> Bool {
        let declarations = takeNamespaceDeclarationCount()
        guard let count = checkStartTagTokens(name, attributes) else { return false }
        if !limits.admitsAttributes(count + declarations) {
            violate(limits.attributeViolation())
            return false
        }
        if startTagsMayCarryDefaults {
            let specified = min(count, specifiedAttributeCount)
            if specified < count { return admitsDefaultedAttributes(attributes, from: specified, to: count) }
        }
        return true
    }

    /// Counts a piece of the innermost element's text against the text limits without
    /// keeping it (``Dispatcher/limitsAllText``); `false` when it broke one.
    @inline(never)
    func measureText(_ bytes: UnsafePointer<CChar>, _ length: Int, flags: RouteFlags) -> Bool {
        let own = stack.top.measuredText
        let added = text.countedBytes(of: UnsafeRawBufferPointer(start: bytes, count: length), counted: own)
        guard added > 0 else { return true }
        guard admitsText(added, own: own, bytes, length, flags: flags) else { return false }
        stack.top.measuredText = own + added
        limits.measuredText += added
        return true
    }

    /// Whether `added` more bytes of the innermost element's text, which has `own` bytes
    /// so far, keep it within ``SafetyProfile/maximumTextBytes`` and the text of all open
    /// elements within ``SafetyProfile/maximumCollectedTextBytes``; ends the parse if not.
    /// The added bytes end the piece `bytes` of `length` bytes (its leading whitespace may
    /// not count), which text-chunk handlers get up to the limit.
    @inline(never)
    func admitsText(
        _ added: Int, own: Int, _ bytes: UnsafePointer<CChar>, _ length: Int, flags: RouteFlags
    ) -> Bool {
        guard let breach = limits.textBreach(added: added, own: own, buffered: text.ownCount) else { return true }
        let skipped = length - added
        violateTextLimit(
            bytes, length, allowed: skipped + breach.allowed, flags: flags,
            textViolation(breach.limit, depth: stack.count))
        return false
    }

    /// The violation of a text limit by the element at `depth` (whole text and inner
    /// markup) or the innermost one, named as the message names them.
    func textViolation(_ limit: ContentCapture.Breach.Limit, depth: Int) -> LimitGuard.Violation {
        let holders = (0..<stack.count).count {
            stack[$0].flags.contains(.collectsText) || stack[$0].measuredText > 0
                || !stack[$0].flags.isDisjoint(with: [.wholeText, .innerMarkup, .outerMarkup])
        }
        return limits.textViolation(limit, element: names.string(stack[depth - 1].name), holders: holders)
    }

    /// The innermost element's text broke a text limit: text-chunk handlers still get the
    /// text up to it (`allowed` bytes, backed up to whole characters), so what they see does
    /// not depend on how the input was split, and the error points at the start tag of the
    /// element whose text it is (the innermost, unless `depth` says).
    func violateTextLimit(
        _ bytes: UnsafePointer<CChar>, _ length: Int, allowed: Int, flags: RouteFlags,
        _ violation: LimitGuard.Violation, depth: Int? = nil
    ) {
        if flags.contains(.textChunks) {
            var allowed = max(0, min(length, allowed))
            // Back up to the start of a UTF-8 character.
            while allowed > 0 && allowed < length && UInt8(bitPattern: bytes[allowed]) & 0xC0 == 0x80 { allowed -= 1 }
            if allowed > 0 { gatherTextChunk(UnsafeRawBufferPointer(start: bytes, count: allowed)) }
        }
        let frame = stack[(depth ?? stack.count) - 1]
        violate(violation, at: (frame.line, frame.column, frame.byteOffset), depth: depth)
    }

    /// Decides the key of a name the table just interned, when it is new, and charges the
    /// table's growth; `false` when that broke the memory limit and the parse ended.
    @inline(__always)
    func admitsInternedName(_ id: Int32) -> Bool {
        // A new name's id is the table's size before it: known ids are below the count charged.
        guard _slowPath(Int(id) >= chargedNameCount) else { return true }
        keys.update()
        chargeNames()
        return !isHalted
    }

    /// Charges the parse's memory budget for the name table's growth since the last
    /// charge: a document of many distinct element names is held to the same limit as
    /// expat, which keeps its own copy of each.
    func chargeNames() {
        chargedNameCount = names.count
        let held = names.heldBytes + keys.heldBytes
        guard held > chargedNameBytes else { return }
        guard chargeParserMemory(bytes: held - chargedNameBytes, holding: "the names of \(names.count) distinct elements")
        else { return }
        chargedNameBytes = held
    }
}

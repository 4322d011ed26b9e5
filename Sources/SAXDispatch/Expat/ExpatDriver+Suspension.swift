private import CExpat

/// Pausing and resuming expat for a stream whose consumer pulls (the corresponding expat
/// functions are `XML_StopParser` with `resumable` and `XML_ResumeParser`).
extension ExpatDriver {
    /// Asks expat to pause after the current callback, keeping the rest of its input,
    /// so that the caller of ``feed(_:)`` or ``finish()`` gets control back (the
    /// corresponding expat call is `XML_StopParser(parser, XML_TRUE)`). A few callbacks
    /// may still follow, such as the end of an empty element paused at its start.
    /// Does nothing outside a parse call, after a stop, or while reading an input into expat's buffer.
    ///
    /// Inside an internal entity (`&items;` declared in the DTD), the pause waits for the
    /// next event of the document itself: expat 2.5.0, resumed inside an entity referenced
    /// from another entity, goes back to the document without the rest of the outer one,
    /// losing its elements, or fails. A stream may then get ahead of its consumer by the
    /// values of one entity's replacement text, up to ``XMLStreamOutput/maximumWaitingValues``.
    @inline(__always)
    func suspend() {
        guard pause.acceptsRequest, let parser else { return }
        if currentEventMayBeInEntity {
            pause.request(deferred: true)
            withSink { $0.awaitEventForPause() }
            return
        }
        pause.request(deferred: false)
        _ = XML_StopParser(parser, 1)
    }

    /// Whether the current event may come from an internal entity's replacement text:
    /// expat then reports the position of the reference (`&name;`) in the document, so the
    /// event's bytes start with `&` (in UTF-8, in a single-byte encoding, or in UTF-16).
    /// Text from a predefined or character reference (`&amp;`) counts too, harmlessly.
    var currentEventMayBeInEntity: Bool {
        var offset: Int32 = 0
        var size: Int32 = 0
        guard let buffer = XML_GetInputContext(parser, &offset, &size), offset >= 0, offset < size else { return false }
        let first = UInt8(bitPattern: buffer[Int(offset)])
        if first == 0x26 { return true }
        return first == 0 && offset + 1 < size && UInt8(bitPattern: buffer[Int(offset) + 1]) == 0x26
    }

    /// Whether expat is paused, holding input it has not parsed yet.
    var isSuspended: Bool { pause.isPaused }

    /// Whether a callback asked expat to pause after the current one (``suspend()``).
    var isPauseRequested: Bool { pause.isRequested }

    /// Whether a pause waits for the document's own next event, asked for inside an
    /// internal entity (``suspend()``).
    var isPauseDeferred: Bool { pause.isDeferred }

    /// Pauses now if a callback inside an internal entity asked to (the engine checks at
    /// each event while a pause awaits one, ``DispatchEngine/pauseAwaitsEvent``).
    func suspendIfDeferred() {
        guard _slowPath(pause.isDeferred) else { return }
        suspend()
    }

    /// Goes on parsing after ``suspend()`` paused expat: the rest of the paused call's
    /// input, then whatever input was not given to expat yet if the paused call was the
    /// last one, then what the paused call still owes. Returns `.suspended` again when a
    /// callback pauses it again.
    func resume() -> FeedResult {
        guard let parser else { return .accepted }
        // A parse stopped while paused: expat was told to stop, as its resume would say.
        if pause.isStopped { return .ended }
        guard let owed = pause.resume() else { return .accepted }
        var status = charging { XML_ResumeParser(parser) }
        if _slowPath(status == XML_STATUS_ERROR && documents.readsConcatenatedDocuments) {
            status = XML_Status(rawValue: statusContinuingAfterDocumentEnd(isFinal: owed.callEndsDocument))
        }
        if status == XML_STATUS_SUSPENDED {
            pause.endCall(pausedOwing: owed)
            return .suspended
        }
        pause.endCall(pausedOwing: nil)
        guard status == XML_STATUS_OK else { return .ended }
        // The paused call is complete. Input it never reached (a feed larger than one call
        // takes) waits at the front of the holdback, and goes on in the same way now.
        if owed.callIsFinal {
            return holdback.held.count > 0 || !owed.callEndsDocument ? parseHeld(isFinal: true) : .accepted
        }
        if owed.unsentBytes > 0 {
            let result = parseHeld(isFinal: false, keepingTail: !owed.surrogateFound)
            if result == .suspended { pause.addOwed(surrogateFound: owed.surrogateFound) }
            if result != .accepted { return result }
        }
        if owed.surrogateFound {
            if holdback.held.count > 0 {
                let result = parseHeld(isFinal: false, keepingTail: false)
                // Paused again: the surrogate is reported after the next resume.
                if result == .suspended { pause.addOwed(surrogateFound: true) }
                if result != .accepted { return result }
            }
            violate(.invalidToken, "not well-formed (invalid token): an unpaired UTF-16 surrogate")
            return .ended
        }
        return concludeCall()
    }
}

private import CExpat

/// Feeding expat: the holdback that keeps any chunking linear, the line breaks held back
/// at the end of a feed, the byte order mark, and the unpaired surrogates that some expat
/// builds accept (see the type's comment).
extension ExpatDriver {
    /// Bytes expat has been given but not yet consumed (the start of an unfinished token).
    var unparsedByteCount: Int {
        let index = XML_GetCurrentByteIndex(parser)
        return index < 0 ? 0 : max(0, holdback.bytesGiven - documents.documentStart.byteOffset - Int(index))
    }

    /// How many new bytes expat should get in one call: at least as many as it would
    /// re-scan, but no more than takes the unfinished token just past the token limit,
    /// so that expat never holds much more than the limit of one token.
    func minimumFeed(unparsed: Int) -> Int {
        guard unparsed > Self.holdbackThreshold else { return 0 }
        return min(unparsed, max(1, maximumTokenBytes - unparsed))
    }

    /// Ends the parse when expat's unfinished token has grown past the token limit.
    /// - Returns: `false` when it did.
    func checkUnfinishedToken(_ unparsed: Int) -> Bool {
        guard unfinishedTokenBreaksLimit(unparsed: unparsed) else { return true }
        violateTokenLimit()
        return false
    }

    /// Feeds bytes, holding them back while they would only make expat re-scan.
    @inline(__always)
    func feed(_ bytes: UnsafeRawBufferPointer) -> FeedResult {
        if _slowPath(!inputEncoding.readsInputDirectly) { return feedUndecided(bytes) }
        return feedDirectly(bytes)
    }

    /// Feeds bytes that expat reads as they are (not before the transcoder).
    @inline(__always)
    func feedDirectly(_ bytes: UnsafeRawBufferPointer) -> FeedResult {
        if !inputEncoding.surrogateCheck.isOff,
            let invalid = inputEncoding.surrogateCheck.firstInvalidOffset(in: bytes)
        {
            return feedUpToUnpairedSurrogate(UnsafeRawBufferPointer(rebasing: bytes[..<invalid]))
        }
        return feedChecked(bytes)
    }

    /// Gives expat everything before an unpaired surrogate, so events before it are
    /// delivered and its position is known, then ends the parse with an error there.
    func feedUpToUnpairedSurrogate(_ bytes: UnsafeRawBufferPointer) -> FeedResult {
        var result = feedChecked(bytes)
        if result == .suspended {
            pause.addOwed(surrogateFound: true)
            return .suspended
        }
        if result == .ended { return .ended }
        if holdback.held.count > 0 {
            result = parseHeld(isFinal: false, keepingTail: false)
            if result == .suspended { pause.addOwed(surrogateFound: true) }
            if result != .accepted { return result }
        }
        violate(.invalidToken, "not well-formed (invalid token): an unpaired UTF-16 surrogate")
        return .ended
    }

    @inline(__always)
    func feedChecked(_ bytes: UnsafeRawBufferPointer) -> FeedResult {
        if holdback.held.count == 0 && bytes.count >= holdback.holdUntil && bytes.count >= Self.smallFeed {
            let (result, tail) = parseKeepingTail(bytes)
            if _slowPath(tail > 0) && result == .accepted, let base = bytes.baseAddress {
                holdback.held.append(base + bytes.count - tail, count: tail)
            }
            if _slowPath(result == .suspended) { holdUnsent(of: bytes, tail: tail) }
            return result
        }
        if let base = bytes.baseAddress { holdback.held.append(base, count: bytes.count) }
        guard holdback.held.count >= holdback.holdUntil else { return .held }
        if bytes.count < Self.smallFeed && holdback.held.count < Self.smallFeedGathering && !bytes.contains(0x3E) {
            return .held
        }
        return parseHeld(isFinal: false)
    }

    /// Feeds whatever is held back and tells expat the input is complete.
    func finish() -> FeedResult {
        if _slowPath(!inputEncoding.readsInputDirectly), let result = finishUndecided() { return result }
        return parseHeld(isFinal: true)
    }

    /// Feeds whatever is held back without ending the input: when no more input will
    /// come but the document is not complete (its source failed), the elements already
    /// whole in it still reach their handlers.
    func flushHeld() -> FeedResult {
        if _slowPath(!inputEncoding.readsInputDirectly && inputEncoding.transcoder == nil),
            decideEncoding(isComplete: true) == .ended
        {
            return .ended
        }
        return holdback.held.count > 0 ? parseHeld(isFinal: false) : .accepted
    }

    /// Parses a feed that is not the last but for a tail that waits for the next: a line
    /// break (``lineBreakTail(_:)``) or a name after the root (``parseHoldingEpilogName(_:)``).
    /// - Returns: how the parse went, and how many bytes at the end of `bytes` it did not
    ///   give expat for that reason (a pause may have left more: ``holdUnsent(of:tail:)``).
    @inline(__always)
    func parseKeepingTail(_ bytes: UnsafeRawBufferPointer) -> (FeedResult, tail: Int) {
        let tail = Self.lineBreakTail(bytes)
        if _slowPath(tail > 0) {
            return (parse(UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - tail)]), isFinal: false), tail)
        }
        if !mayEndInName(bytes) { return (parse(bytes, isFinal: false), 0) }
        return parseHoldingEpilogName(bytes)
    }

    /// Feeds the held-back input; unless it is the last (or `keepingTail` is false), a line
    /// break or a name after the root at its end stays held (``parseKeepingTail(_:)``).
    func parseHeld(isFinal: Bool, keepingTail: Bool = true) -> FeedResult {
        let all = holdback.held.bytes(from: 0)
        let (result, tail) =
            isFinal || !keepingTail ? (parse(all, isFinal: isFinal), 0) : parseKeepingTail(all)
        let kept = result == .ended ? 0 : result == .suspended ? tail + pause.unsentBytes : tail
        holdback.held.removeAll(keepingLast: kept, capacityAtMost: 1 << 20)
        return result
    }

    /// After a pause, keeps the end of a feed that expat did not get: the part a single
    /// call could not take and the held-back line break.
    func holdUnsent(of bytes: UnsafeRawBufferPointer, tail: Int) {
        let kept = pause.unsentBytes + tail
        if kept > 0, let base = bytes.baseAddress { holdback.held.append(base + bytes.count - kept, count: kept) }
    }

    /// How many bytes at the end of a feed expat must not see before what follows: a
    /// carriage return in the last three bytes and everything after it. After the root
    /// element, expat 2.5.0 counts a carriage return that ends its input (in UTF-16, its
    /// last whole code unit) as a line break and then the line feed that starts the next
    /// input as another, so every position after a CR LF split between two feeds would
    /// be one line too far. Three bytes cover a UTF-16 carriage return and the first
    /// byte of the unit after it; in UTF-8, 0x0D only ever is a carriage return.
    @inline(__always)
    static func lineBreakTail(_ bytes: UnsafeRawBufferPointer) -> Int {
        let count = bytes.count
        if count >= 1 && bytes[count - 1] == 0x0D { return 1 }
        if count >= 2 && bytes[count - 2] == 0x0D { return 2 }
        if count >= 3 && bytes[count - 3] == 0x0D { return 3 }
        return 0
    }

    /// How much of `slice`, a parse call cut short by the token limit, to give expat: all of
    /// it but a trailing carriage return and what follows it (``lineBreakTail(_:)``), which
    /// wait with the rest as they do at the end of a feed; all of it when nothing else is left.
    static func sliceKeepingLineBreak(_ slice: UnsafeRawBufferPointer) -> Int {
        let tail = lineBreakTail(slice)
        return tail < slice.count ? slice.count - tail : slice.count
    }

    func parse(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) -> FeedResult {
        guard let parser else { return .ended }
        if _slowPath(holdback.bytesGiven < 2) && inputEncoding.encodingOverride != nil && rejectsZeroInFirstBytes(bytes) {
            return .ended
        }
        if _slowPath(holdback.bytesGiven < 3), let end = byteOrderMarkEnd(in: bytes) {
            guard parse(UnsafeRawBufferPointer(rebasing: bytes[..<end]), isFinal: false) == .accepted else { return .ended }
            return parse(UnsafeRawBufferPointer(rebasing: bytes[end...]), isFinal: isFinal)
        }
        var offset = 0
        while true {
            guard let budget = tokenBudget(unparsed: unparsedByteCount) else { return .ended }
            var length = min(bytes.count - offset, holdback.maximumSlice, budget)
            if length < bytes.count - offset {
                length = Self.sliceKeepingLineBreak(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]))
            }
            let last = offset + length == bytes.count
            // Under a token limit the last bytes of a document get a call of their own before
            // the final, empty one: an unfinished token they leave over the limit is then
            // reported as such, not as a truncated document, however the input was split.
            let final = isFinal && last && (length == 0 || maximumTokenBytes == Int.max)
            let start = bytes.baseAddress.map { ($0 + offset).assumingMemoryBound(to: CChar.self) }
            holdback.bytesGiven += length
            holdback.parseCallCount += 1
            pause.beginCall()
            var status = charging { XML_Parse(parser, start, Int32(length), final ? 1 : 0) }
            if _slowPath(status == XML_STATUS_ERROR && documents.readsConcatenatedDocuments) {
                status = XML_Status(rawValue: statusContinuingAfterDocumentEnd(isFinal: final))
            }
            offset += length
            if status == XML_STATUS_SUSPENDED {
                pause.endCall(
                    pausedOwing: .init(callIsFinal: isFinal, callEndsDocument: final, unsentBytes: bytes.count - offset))
                return .suspended
            }
            pause.endCall(pausedOwing: nil)
            guard status == XML_STATUS_OK else { return .ended }
            if final || (last && !isFinal) { break }
            if !checkUnfinishedToken(unparsedByteCount) { return .ended }
        }
        return concludeCall()
    }

    /// After a parse call that went through: checks expat's unfinished token and sets how
    /// much input the next call needs.
    func concludeCall() -> FeedResult {
        let unparsed = unparsedByteCount
        guard checkUnfinishedToken(unparsed) else { return .ended }
        holdback.holdUntil = minimumFeed(unparsed: unparsed)
        return .accepted
    }

    /// Where a UTF-8 byte order mark that `bytes` completes ends in them, when more follows.
    /// The first bytes it gathers are also what the XML declaration that may follow is
    /// checked against (``watchXMLDeclaration(_:)``).
    ///
    /// Expat counts positions after each call, in the encoding it ends the call with: when
    /// one call holds both the byte order mark and a declaration of another 8-bit encoding
    /// (`<?xml version="1.0" encoding="US-ASCII"?>`), the mark's three bytes count as three
    /// columns, but as one when the call ends at the mark. The driver ends a call there, so
    /// positions do not depend on how the input was split.
    func byteOrderMarkEnd(in bytes: UnsafeRawBufferPointer) -> Int? {
        let needed = 3 - inputEncoding.leadingBytes.count
        guard needed > 0 else { return nil }
        inputEncoding.leadingBytes += bytes.prefix(needed)
        guard inputEncoding.leadingBytes == [0xEF, 0xBB, 0xBF] else { return nil }
        return bytes.count > needed ? needed : nil
    }

    /// Ends the parse when one of the document's first two bytes, some of which `bytes`
    /// holds, is zero, under an encoding override.
    ///
    /// Expat tells UTF-16 from a zero in the first two bytes even when told the encoding, so
    /// a string such as `"<\0r\0/\0>\0"` would be read as the UTF-16 document `<r/>`. A
    /// zero byte is never part of a well-formed document, so it is an invalid token where
    /// it stands, as it is anywhere else.
    /// - Returns: `true` when it was, and the parse ended.
    func rejectsZeroInFirstBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let zero = bytes.prefix(2 - holdback.bytesGiven).firstIndex(of: 0) else { return false }
        let offset = holdback.bytesGiven + zero
        violate(.invalidToken, "not well-formed (invalid token)", at: (line: 1, column: offset + 1, byteOffset: offset))
        return true
    }
}

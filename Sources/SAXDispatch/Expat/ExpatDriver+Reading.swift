private import CExpat

/// Reading an input straight into expat's own buffer.
extension ExpatDriver {
    /// Reads an input to its end straight into expat's own buffer
    /// (`XML_GetBuffer` / `XML_ParseBuffer`), `chunkSize` bytes at a time, or more
    /// while expat holds an unfinished token larger than that.
    ///
    /// - Parameter afterRead: Called after each chunk but the last is parsed (to deliver what
    ///   waits for the end of a feed, as after each ``feed(_:)``); `false` ends the parse.
    /// - Returns: `.accepted` when the whole input was parsed, `.ended` when expat stopped
    ///   or `afterRead` said to end.
    /// - Throws: What the reader threw, once the bytes read before it are parsed.
    func parse(reading reader: inout some XMLInputReader, chunkSize: Int, afterRead: () -> Bool) throws -> FeedResult {
        guard let parser else { return .ended }
        if chunkSize < Self.holdbackThreshold {
            return try parseFeeding(reading: &reader, chunkSize: chunkSize, afterRead: afterRead)
        }
        if _slowPath(!inputEncoding.readsInputDirectly),
            let result = try parseReadingUndecided(&reader, chunkSize: chunkSize, afterRead: afterRead)
        {
            return result
        }
        if holdback.held.count > 0 && parseHeld(isFinal: false) == .ended { return .ended }
        if holdback.bytesGiven + holdback.held.count < 3 {
            // The first bytes go through parse(_:isFinal:), which ends a call after a byte order mark.
            var first: (UInt8, UInt8, UInt8) = (0, 0, 0)
            let wanted = 3 - holdback.bytesGiven - holdback.held.count
            let read = withUnsafeMutableBytes(of: &first) { buffer in reader.fill(buffer.baseAddress, count: wanted) }
            let count = read.count
            let result = withUnsafeBytes(of: &first) { feed(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            if result == .ended { return .ended }
            if let failure = read.failure { throw failure }
            if count < wanted { return finish() }
            if holdback.held.count > 0 && parseHeld(isFinal: false) == .ended { return .ended }
        }
        while true {
            let unparsed = unparsedByteCount
            guard checkUnfinishedToken(unparsed), let budget = tokenBudget(unparsed: unparsed) else { return .ended }
            let wanted = min(max(chunkSize, minimumFeed(unparsed: unparsed)), holdback.maximumSlice)
            // A line break held back from the previous read goes first.
            let carried = holdback.held.count
            guard let buffer = charging({ XML_GetBuffer(parser, Int32(carried + wanted)) }) else { return .ended }
            if carried > 0, let heldBytes = holdback.held.bytes(from: 0).baseAddress {
                UnsafeMutableRawPointer(buffer).copyMemory(from: heldBytes, byteCount: carried)
            }
            holdback.held.removeAll(keepingAtMost: 1 << 20)
            let read = reader.fill(buffer + carried, count: wanted)
            let filled = carried + read.count
            // The bytes read before a failure are parsed before it is reported.
            let isFinal = filled < carried + wanted && read.failure == nil
            let bytes = UnsafeRawBufferPointer(start: buffer, count: filled)
            if !inputEncoding.surrogateCheck.isOff,
                let invalid = inputEncoding.surrogateCheck.firstInvalidOffset(in: UnsafeRawBufferPointer(rebasing: bytes[carried...]))
            {
                if carried + invalid > budget {
                    // More than the token limit leaves room for: the bytes before the surrogate
                    // take the way of fed bytes, which slices them. They are copied out of
                    // expat's buffer first, which a parse call may move.
                    let before = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[..<(carried + invalid)]))
                    return before.withUnsafeBytes { feedUpToUnpairedSurrogate($0) }
                }
                // Parsed in expat's buffer, even when there are none: the call also gives back
                // the position that asking for the buffer cleared.
                holdback.bytesGiven += carried + invalid
                var status = charging { XML_ParseBuffer(parser, Int32(carried + invalid), 0) }
                if _slowPath(status == XML_STATUS_ERROR && documents.readsConcatenatedDocuments) {
                    status = XML_Status(rawValue: statusContinuingAfterDocumentEnd(isFinal: false))
                }
                guard status == XML_STATUS_OK, checkUnfinishedToken(unparsedByteCount) else { return .ended }
                violate(.invalidToken, "not well-formed (invalid token): an unpaired UTF-16 surrogate")
                return .ended
            }
            // What the token limit leaves no room for waits in `holdback.held`, with a held-back line break.
            var given = min(filled - (isFinal ? 0 : Self.lineBreakTail(bytes)), budget)
            if given == budget && given < filled {
                given = Self.sliceKeepingLineBreak(UnsafeRawBufferPointer(rebasing: bytes[..<given]))
            } else if !isFinal && given == filled && mayEndInName(bytes) {
                // A name at the end waits for the next read whether or not the root ended
                // (``parseHoldingEpilogName(_:)``): carried to the front of the next buffer,
                // it costs a copy of a few bytes.
                given -= trailingNameRun(bytes)
            }
            if given < filled, let base = bytes.baseAddress { holdback.held.append(base + given, count: filled - given) }
            // Under a token limit the last bytes get a call of their own, as in parse(_:isFinal:).
            let isLast = isFinal && given == filled && (given == 0 || maximumTokenBytes == Int.max)
            holdback.bytesGiven += given
            var status = charging { XML_ParseBuffer(parser, Int32(given), isLast ? 1 : 0) }
            if _slowPath(status == XML_STATUS_ERROR && documents.readsConcatenatedDocuments) {
                status = XML_Status(rawValue: statusContinuingAfterDocumentEnd(isFinal: isLast))
            }
            guard status == XML_STATUS_OK else { return .ended }
            if let failure = read.failure { throw failure }
            if isLast { return .accepted }
            guard afterRead() else { return .ended }
        }
    }
}

extension ExpatDriver {
    /// Reads an input whose encoding is not decided yet, or that goes through the
    /// transcoder, a chunk at a time through ``feed(_:)``.
    /// - Returns: How the parse ended, or nil once the input turned out to be one expat
    ///   reads directly: the rest is read into expat's buffer.
    private func parseReadingUndecided(
        _ reader: inout some XMLInputReader, chunkSize: Int, afterRead: () -> Bool
    ) throws -> FeedResult? {
        // At least four bytes at first: expat decides on UTF-8 from a single byte that holds no zero,
        // where UTF-16 needs two to be told, and UTF-32 four.
        let size = max(4, min(chunkSize, holdback.maximumSlice))
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let read = reader.fill(chunk.baseAddress, count: size)
            if feed(UnsafeRawBufferPointer(rebasing: chunk[..<read.count])) == .ended { return .ended }
            if let failure = read.failure { throw failure }
            if read.count < size { return finish() }
            guard afterRead() else { return .ended }
            if inputEncoding.readsInputDirectly { return nil }
        }
    }

    /// Reads an input whose pieces are smaller than the holdback threshold and feeds them
    /// as fed bytes are: an expat call and a read per piece would make a byte-at-a-time
    /// parse cost both per byte. Each read takes what the reader has, up to a block (a pipe
    /// still hands over what arrived without waiting for more); the block is fed in pieces
    /// of `chunkSize`, so the events are those of feeding such pieces.
    ///
    /// - Returns: As ``parse(reading:chunkSize:afterRead:)``.
    /// - Throws: What the reader threw, once the bytes read before it are parsed.
    private func parseFeeding(
        reading reader: inout some XMLInputReader, chunkSize: Int, afterRead: () -> Bool
    ) throws -> FeedResult {
        var block = [UInt8](repeating: 0, count: max(chunkSize, Self.feedingBlockSize))
        while true {
            let count: Int
            do {
                count = try block.withUnsafeMutableBytes { try reader.read(into: $0) }
            } catch {
                // The bytes read before the failure are parsed before it is reported.
                if holdback.held.count > 0 && parseHeld(isFinal: false, keepingTail: false) == .ended { return .ended }
                throw error
            }
            precondition(count >= 0 && count <= block.count, "XMLInputReader.read(into:) returned \(count) for a buffer of \(block.count) bytes")
            if count == 0 { return finish() }
            var offset = 0
            while offset < count {
                let end = min(count, offset + chunkSize)
                let result = block.withUnsafeBytes { feed(UnsafeRawBufferPointer(rebasing: $0[offset..<end])) }
                if result == .ended { return .ended }
                offset = end
                guard afterRead() else { return .ended }
            }
        }
    }

    /// How much a read takes at most when the input is fed in small pieces.
    static let feedingBlockSize = 64 * 1024

}

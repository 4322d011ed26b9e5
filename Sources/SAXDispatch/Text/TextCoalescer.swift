/// Where text is coalesced: the open elements' own text, the character data gathered for
/// text-chunk handlers, the text a stream's pause left undelivered, and the rule that
/// whitespace before an element's first other character is neither kept nor counted unless
/// a handler preserves it.
///
/// Expat splits text at buffer edges, line ends, entity and character references and
/// CDATA sections; the coalescer joins the pieces so that what handlers receive, and what
/// the text limits count, does not depend on how the input or expat split it. The engine
/// feeds it the pieces, decides when to deliver, and calls the handlers; the coalescer
/// owns the buffers.
///
/// What must stay true:
/// - Open elements that collect text own consecutive regions of the own-text buffer, the
///   innermost last: an element's region starts where the buffer ended when it opened
///   (``ElementFrame/textStart``) and is cut off at its end (``endOwnText(at:)``).
/// - No gathered chunk is larger than ``chunkLimit`` bytes, and every slice handed out
///   ends on a character boundary (``sliceEnd(_:)``).
/// - Deferred text exists only while a stream's pause waits; it is delivered, all of it,
///   before the next event.
struct TextCoalescer: ~Copyable {
    /// The largest piece of text a text-chunk handler receives at once.
    static let chunkLimit = 64 * 1024

    /// The own text of the open elements that collect it, one region each.
    private var own = TextBuffer()
    /// Character data for text-chunk handlers, gathered across expat's small pieces (it
    /// reports every line end and entity reference separately) and delivered at the next
    /// markup event, at ``chunkLimit`` bytes, or at the end of a feed.
    private var pending = TextBuffer()
    /// Text of one large character-data callback that a stream's pause left undelivered,
    /// from `deferredStart` on: a slice per resume (``nextDeferredSlice()``).
    private var deferred = TextBuffer()
    private var deferredStart = 0
    /// Whether text counted without being kept (``Dispatcher/limitsAllText``) counts its
    /// leading whitespace, as the dispatcher's whitespace policy says.
    let countsLeadingWhitespace: Bool

    init(countsLeadingWhitespace: Bool) {
        self.countsLeadingWhitespace = countsLeadingWhitespace
    }

    // MARK: Own text

    /// The bytes of own text the open elements hold together; where a new element's region starts.
    var ownCount: Int {
        @inline(__always) get { own.count }
    }

    /// What ``collect(_:_:start:keepsLeadingWhitespace:within:)`` did with a piece of text.
    enum Collecting {
        /// The piece is collected, or nothing of it counts (leading whitespace left out).
        case collected
        /// Nothing is collected: the piece's `added` bytes, after the `skipped` leading ones
        /// left out, would take the buffer past the bound, and the element has `own` bytes
        /// of text so far. The limits decide; ``appendOwnText(_:count:)`` collects it then.
        case overBound(added: Int, own: Int, skipped: Int)
    }

    /// Collects a piece of character data as the innermost element's own text, whose region
    /// starts at `start`, while the buffer stays within `bound`, within which no text limit
    /// can break. (`start` is read only when leading whitespace may be left out: preserved
    /// text costs no look at the element stack.)
    ///
    /// Whitespace before an element's first other character is never collected unless a
    /// handler preserves it (`keepsLeadingWhitespace`; the policies trim it), whichever
    /// pieces it comes in, so that neither memory nor the limits depend on how the input
    /// was split.
    @inline(__always)
    mutating func collect(
        _ bytes: UnsafePointer<CChar>, _ length: Int, start: @autoclosure () -> Int, keepsLeadingWhitespace: Bool,
        within bound: Int
    ) -> Collecting {
        if keepsLeadingWhitespace || own.count != start() {
            // Text within both limits as a whole is within each: the buffer holds the open
            // elements' text, and the innermost one's own is a part of it.
            if _slowPath(own.count + length > bound) {
                return .overBound(added: length, own: own.count - start(), skipped: 0)
            }
            own.append(bytes, count: length)
        } else {
            let skipped = Whitespace.leadingSpaceCount(UnsafeRawBufferPointer(start: bytes, count: length))
            if skipped < length {
                if _slowPath(own.count + length - skipped > bound) {
                    return .overBound(added: length - skipped, own: 0, skipped: skipped)
                }
                own.append(bytes + skipped, count: length - skipped)
            }
        }
        return .collected
    }

    /// Collects a piece of the innermost element's own text as
    /// ``collect(_:_:start:keepsLeadingWhitespace:within:)`` would, where that takes no
    /// call: nothing of it is left out and it has at most 16 bytes, which the buffer has
    /// room for within `bound`; or all of it is leading whitespace, left out. `false`,
    /// collecting nothing, otherwise. (`start` is read only when leading whitespace may
    /// be left out.)
    @inline(__always)
    mutating func collectShort(
        _ bytes: UnsafePointer<CChar>, _ length: Int, start: @autoclosure () -> Int, keepsLeadingWhitespace: Bool,
        within bound: Int
    ) -> Bool {
        if !keepsLeadingWhitespace && own.count == start() {
            // Nothing of the element's text is collected yet: its leading whitespace is left out.
            let skipped = Whitespace.leadingSpaceCount(UnsafeRawBufferPointer(start: bytes, count: length))
            if skipped == length { return true }
            if skipped != 0 { return false }
        }
        guard length <= 16 && own.count &+ length <= bound else { return false }
        return own.appendShort(bytes, count: length)
    }

    /// Appends a piece of the innermost element's own text that the limits admitted
    /// (``Collecting/overBound(added:own:skipped:)``).
    mutating func appendOwnText(_ bytes: UnsafePointer<CChar>, count: Int) {
        own.append(bytes, count: count)
    }

    /// The own text of the element whose region starts at `start`, with its descendants'
    /// regions after it (still open ones only).
    @inline(__always)
    func ownText(from start: Int) -> UnsafeRawBufferPointer {
        own.bytes(from: start)
    }

    /// Cuts off the own text of the element whose region starts at `start`, which ends.
    @inline(__always)
    mutating func endOwnText(at start: Int) {
        own.truncate(to: start)
    }

    /// How many bytes of a piece of character data count as the innermost element's text
    /// when it is counted without being kept, with `counted` bytes of it so far.
    func countedBytes(of piece: UnsafeRawBufferPointer, counted: Int) -> Int {
        countsLeadingWhitespace || counted != 0 ? piece.count : piece.count - Whitespace.leadingSpaceCount(piece)
    }

    // MARK: Text chunks

    /// Whether character data waits for the innermost element's text-chunk handlers.
    var hasPendingChunk: Bool {
        @inline(__always) get { pending.count > 0 }
    }

    /// Gathers a piece of character data for text-chunk handlers, unless it would make the
    /// gathered chunk larger than ``chunkLimit``: `false` then, and the engine delivers the
    /// chunk and the piece in slices (``gatherRest(_:)`` takes what is left).
    @inline(__always)
    mutating func gather(_ piece: UnsafeRawBufferPointer) -> Bool {
        if pending.count + piece.count > Self.chunkLimit { return false }
        if let base = piece.baseAddress, piece.count > 0 { pending.append(base, count: piece.count) }
        return true
    }

    /// Gathers a piece of at most 16 bytes when the chunk's buffer has room for it and the
    /// chunk stays within ``chunkLimit``, without a call; `false`, gathering nothing,
    /// otherwise (``gather(_:)`` then takes it).
    @inline(__always)
    mutating func gatherShort(_ bytes: UnsafeRawPointer, _ length: Int) -> Bool {
        length <= 16 && pending.count &+ length <= Self.chunkLimit && pending.appendShort(bytes, count: length)
    }

    /// Gathers the end of a large piece, shorter than ``chunkLimit``, after the chunk
    /// before it was delivered.
    mutating func gatherRest(_ piece: UnsafeRawBufferPointer) {
        if let base = piece.baseAddress, piece.count > 0 { pending.append(base, count: piece.count) }
    }

    /// The gathered chunk, valid until ``clearPendingChunk()``.
    func pendingChunk() -> UnsafeRawBufferPointer {
        pending.bytes(from: 0)
    }

    mutating func clearPendingChunk() {
        pending.truncate(to: 0)
    }

    /// Where a text slice of at most ``chunkLimit`` bytes from the start of `bytes`
    /// ends: never before a UTF-8 continuation byte, so each slice holds whole characters.
    static func sliceEnd(_ bytes: UnsafeRawBufferPointer) -> Int {
        var cut = min(bytes.count, chunkLimit)
        while cut < bytes.count && cut > chunkLimit - 3 && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        return cut
    }

    // MARK: Text a pause left undelivered

    /// Keeps the rest of a large piece that a stream's pause leaves undelivered.
    mutating func deferText(_ piece: UnsafeRawBufferPointer) {
        if let base = piece.baseAddress { deferred.append(base, count: piece.count) }
    }

    /// Whether text a pause left undelivered waits.
    var hasDeferredText: Bool { deferredStart < deferred.count }

    /// The next slice of the text a pause left undelivered, valid until ``dropDeferredText()``.
    /// Only while ``hasDeferredText``.
    mutating func nextDeferredSlice() -> UnsafeRawBufferPointer {
        let rest = deferred.bytes(from: deferredStart)
        let cut = Self.sliceEnd(rest)
        deferredStart += cut
        return UnsafeRawBufferPointer(rebasing: rest[..<cut])
    }

    /// Lets go of the deferred text, delivered or not.
    mutating func dropDeferredText() {
        deferred.removeAll(keepingAtMost: Self.chunkLimit)
        deferredStart = 0
    }
}

private import CExpat
private import CExpatMemory

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Owns one expat parser: creates and frees it, installs the C callbacks that
/// forward to a ``DispatchEngine``, feeds it bytes, and reads positions and errors
/// back. The only type in the package that touches expat.
///
/// Feeding is adaptive. Expat 2.5.0 as Debian 12 ships it re-tokenizes an unfinished
/// token from its start on every call, so a 10 MiB token fed in 4 KiB pieces costs
/// quadratic time. The driver therefore holds input back until it has at least as
/// many new bytes as expat still holds unparsed: each re-scan is paid for by at
/// least as many fresh bytes, which keeps the total linear whatever the chunking.
/// Unfinished tokens up to ``holdbackThreshold`` bytes are re-scanned rather than
/// held, so ordinary tags split across network reads are parsed as soon as they
/// complete and an interactive stream never waits on a small tail.
final class ExpatDriver {
    /// The optional event kinds to install callbacks for.
    struct Events {
        var processingInstructions = false
        var comments = false
        var doctype = false
        var notations = false
    }

    enum FeedResult {
        /// Expat parsed the bytes (and anything held back before them).
        case accepted
        /// The bytes were held back, to be parsed with later input: no event happened.
        case held
        /// Expat stopped: a parse error, or the engine halted it.
        case ended
        /// Expat paused after a callback asked it to (``suspend()``); ``resume()`` goes on
        /// with the rest of the input it was given.
        case suspended
    }

    let parser: OpaquePointer?
    /// What the document may contain and how large anything may grow.
    let profile: SafetyProfile
    /// Expat's heap budget: every block expat allocates is charged to it.
    private let budget: UnsafeMutablePointer<saxdispatch_memory_budget>
    /// The limits as plain bounds (`Int.max` when unlimited), read on hot paths.
    let maximumTokenBytes: Int
    let maximumNameBytes: Int
    /// Entity declarations seen so far, and the external ones by system identifier.
    var entityDeclarationCount = 0
    var externalEntityNames: [String: String] = [:]
    /// Attribute declarations per element name; set once any ATTLIST is seen, after which
    /// start tags may carry defaulted attributes beyond the ones written.
    var attributeDeclarationCounts: [String: Int] = [:]
    @exclusivity(unchecked) var hasAttributeDeclarations = false
    /// Bytes of attribute values that start tags took from the DTD's defaults so far: expat
    /// expands a default once and copies it to every element without counting it towards
    /// its amplification limit, so the driver counts it (``admitsDefaultedAttributes(_:from:to:_:)``).
    var defaultedAttributeBytes = 0
    /// The engine, as the user data every callback receives.
    private(set) var userData: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var characterData = CharacterData.ignored
    /// Input held back because expat still has more unparsed bytes than this.
    @exclusivity(unchecked) private var held = TextBuffer()
    /// How many bytes a feed (or the held-back input) must reach before expat gets
    /// them: the size of expat's unfinished token when that exceeds the threshold,
    /// else 0. Computed once after every call into expat, so a held-back feed costs
    /// a copy and a comparison.
    @exclusivity(unchecked) private var holdUntil = 0
    /// Catches unpaired surrogates in UTF-16 input, which some expat 2.5.0 builds accept.
    @exclusivity(unchecked) private(set) var surrogateCheck = UTF16SurrogateCheck()
    /// Total bytes passed to expat so far.
    @exclusivity(unchecked) private var bytesGiven = 0
    /// How many times expat was asked to parse; tests use it to check the holdback.
    @exclusivity(unchecked) private(set) var parseCallCount = 0
    /// Every byte received: given to expat or held back.
    var byteCount: Int { bytesGiven + held.count }
    /// True while expat runs a parse call that a callback may pause (not a read of an
    /// input into expat's buffer).
    @exclusivity(unchecked) private var isSuspendable = false
    /// Set once a callback asked expat to pause, until the parse call returns.
    @exclusivity(unchecked) private var suspensionRequested = false
    /// Set when a callback inside an internal entity asked to pause: the pause waits for
    /// the next event of the document itself (``suspendIfDeferred()``).
    @exclusivity(unchecked) private var suspensionDeferred = false
    /// Whether expat is paused, holding input it has not parsed yet.
    private(set) var isSuspended = false
    /// Whether the paused call was part of the parse of the input's end.
    private var suspendedCallIsFinal = false
    /// Whether the paused call was the one that told expat the input is complete; when
    /// not, the input's end still owes expat that call after the resume.
    private var suspendedCallEndsDocument = false
    /// How many bytes of the paused call's input were never given to expat (inputs
    /// larger than one call takes); they wait at the front of `held`.
    private var unsentAfterSuspension = 0
    /// An unpaired surrogate found in input that a pause cut short: reported once the
    /// input before it is parsed.
    private var surrogateAfterSuspension = false
    /// Set by ``stop()``; a stopped parser is never paused.
    private var isStopped = false

    /// Unfinished tokens larger than this make the driver hold input back.
    static let holdbackThreshold = 1024
    /// Feeds shorter than this that hold no `>` are gathered, up to ``smallFeedGathering``
    /// bytes, before expat sees them. Every event but text needs a `>` to complete, so
    /// gathering delays only text; and expat costs about 60 ns a call, which made a
    /// document fed one byte at a time 20 times slower than fed whole.
    static let smallFeed = 16
    static let smallFeedGathering = 512
    /// Expat's `int` length parameter bounds one call; feed larger inputs in slices.
    /// (A variable so that tests can make slices small.)
    var maximumSlice = 1 << 30

    /// The encoding expat reads the input in whatever the document declares (a string's
    /// UTF-8), or `nil` when the document's byte order mark and declaration decide.
    private(set) var encodingOverride: String?

    /// Whether expat resolves namespaces (``QualifiedName`` says how it then spells names).
    let processesNamespaces: Bool

    /// - Parameters:
    ///   - encoding: An encoding name expat knows (`"UTF-8"`) to read the input in
    ///     whatever it declares; `nil` lets the document say.
    ///   - processesNamespaces: Whether expat resolves namespaces and reports
    ///     namespace well-formedness errors. The corresponding expat functions are
    ///     `XML_ParserCreateNS` and `XML_SetReturnNSTriplet`.
    init(profile: SafetyProfile, encoding: String? = nil, processesNamespaces: Bool = true) {
        self.processesNamespaces = processesNamespaces
        self.profile = profile
        encodingOverride = encoding
        maximumTokenBytes = profile.maximumTokenBytes.bound
        maximumNameBytes = profile.maximumNameBytes.bound
        budget = .allocate(capacity: 1)
        budget.initialize(
            to: saxdispatch_memory_budget(
                used: 0, limit: profile.maximumParserMemoryBytes.value.map { size_t($0) } ?? .max, peak: 0,
                exceeded: 0))
        var suite = XML_Memory_Handling_Suite(
            malloc_fcn: saxdispatch_memory_malloc, realloc_fcn: saxdispatch_memory_realloc,
            free_fcn: saxdispatch_memory_free)
        let previous = saxdispatch_memory_enter(budget)
        let separator: [CChar] = [CChar(bitPattern: QualifiedName.separator), 0]
        parser = separator.withUnsafeBufferPointer { separator in
            XML_ParserCreate_MM(encoding, &suite, processesNamespaces ? separator.baseAddress : nil)
        }
        // Names then carry the prefix they were written with (`uri␁local␁prefix`).
        if let parser, processesNamespaces { XML_SetReturnNSTriplet(parser, 1) }
        saxdispatch_memory_enter(previous)
    }

    deinit {
        if let parser { XML_ParserFree(parser) }
        budget.deallocate()
    }

    /// Runs `body`, a call into expat that may allocate, charging expat's heap budget.
    @inline(__always)
    private func charging<Result>(_ body: () throws -> Result) rethrows -> Result {
        let previous = saxdispatch_memory_enter(budget)
        defer { saxdispatch_memory_enter(previous) }
        return try body()
    }

    /// Charges `bytes` that the dispatcher holds for the parse to expat's heap budget, as
    /// expat's own allocations are charged; `false`, charging nothing, when they do not fit.
    func charge(bytes: Int) -> Bool {
        saxdispatch_memory_charge(budget, size_t(max(0, bytes))) != 0
    }

    /// Makes expat read the input as `name` whatever the document declares, when no input
    /// has reached the driver yet; afterwards the encoding is already decided and this does
    /// nothing. The corresponding expat function is `XML_SetEncoding`.
    func overrideEncoding(_ name: String) {
        guard let parser, byteCount == 0, encodingOverride == nil else { return }
        guard charging({ XML_SetEncoding(parser, name) }) == XML_STATUS_OK else { return }
        encodingOverride = name
    }

    /// Whether expat failed because its heap budget ran out.
    var exceededMemoryBudget: Bool { budget.pointee.exceeded != 0 }

    /// The most bytes expat held at once so far.
    var peakParserMemory: Int { budget.pointee.peak }

    var isAvailable: Bool { parser != nil }

    func connect(to engine: DispatchEngine, events: Events) {
        guard let parser else { return }
        userData = Unmanaged.passUnretained(engine).toOpaque()
        XML_SetUserData(parser, userData)
        saxdispatch_set_reparse_deferral(parser, 0)
        installSafetyHandlers(parser, profile: profile, events: events)
        setSkipping(false)
    }

    /// Routes start and end tags to the dispatcher, or, while a subtree is skipped, to
    /// callbacks that only count its depth and check the limits.
    func setSkipping(_ skipping: Bool) {
        guard let parser else { return }
        if skipping {
            XML_SetElementHandler(
                parser,
                { userData, name, attributes in
                    guard let name, let attributes else { return }
                    withEngine(userData) { $0.skippedStart(name, attributes) }
                },
                { userData, _ in
                    withEngine(userData) { $0.skippedEnd() }
                })
        } else {
            XML_SetElementHandler(
                parser,
                { userData, name, attributes in
                    guard let name, let attributes else { return }
                    withEngine(userData) { $0.startElement(name, attributes) }
                },
                { userData, _ in
                    withEngine(userData) { $0.endElement() }
                })
        }
    }

    /// Where character data goes while an element is innermost.
    enum CharacterData {
        /// Nowhere: expat skips text cheaply when no callback is installed.
        case ignored
        /// To ``DispatchEngine/characters(_:_:)``.
        case common
        /// To ``DispatchEngine/charactersRarely(_:_:)``, which first does what few elements
        /// need (whole text, inner markup, counting text), so the common callback tests none of it.
        case rare
    }

    /// Installs, swaps or removes the character-data callback.
    @inline(__always)
    func setCharacterData(_ route: CharacterData) {
        guard route != characterData else { return }
        characterData = route
        switch route {
        case .ignored:
            XML_SetCharacterDataHandler(parser, nil)
        case .common:
            XML_SetCharacterDataHandler(parser) { userData, bytes, length in
                guard let bytes, length > 0 else { return }
                withEngine(userData) { $0.characters(bytes, Int(length)) }
            }
        case .rare:
            XML_SetCharacterDataHandler(parser) { userData, bytes, length in
                guard let bytes, length > 0 else { return }
                withEngine(userData) { $0.charactersRarely(bytes, Int(length)) }
            }
        }
    }

    /// Asks expat to stop at the end of the current callback, for good.
    /// The corresponding expat function is `XML_StopParser`.
    func stop() {
        guard let parser else { return }
        isStopped = true
        _ = XML_StopParser(parser, 0)
    }

    /// Asks expat to pause after the current callback, keeping the rest of its input,
    /// so that the caller of ``feed(_:)`` or ``finish()`` gets control back (the
    /// corresponding expat call is `XML_StopParser(parser, XML_TRUE)`). A few callbacks
    /// may still follow, such as the end of an empty element paused at its start.
    /// Does nothing outside a parse call, after a stop, or while reading an input into
    /// expat's buffer.
    ///
    /// Inside an internal entity (`&items;` declared in the DTD), the pause waits for the
    /// next event of the document itself: expat 2.5.0, resumed inside an entity referenced
    /// from another entity, goes back to the document without the rest of the outer one,
    /// losing its elements, or fails. A stream may then get ahead of its consumer by the
    /// values of one entity's replacement text, up to ``XMLStreamOutput/maximumWaitingValues``.
    @inline(__always)
    func suspend() {
        guard isSuspendable, !suspensionRequested, !isStopped, let parser else { return }
        if currentEventMayBeInEntity {
            suspensionDeferred = true
            withEngine(userData) { $0.hasPauseWork = true }
            return
        }
        suspensionRequested = true
        _ = XML_StopParser(parser, 1)
    }

    /// Whether the current event may come from an internal entity's replacement text:
    /// expat then reports the position of the reference (`&name;`) in the document, so the
    /// event's bytes start with `&` (in UTF-8, in a single-byte encoding, or in UTF-16).
    /// Text from a predefined or character reference (`&amp;`) counts too, harmlessly.
    private var currentEventMayBeInEntity: Bool {
        var offset: Int32 = 0
        var size: Int32 = 0
        guard let buffer = XML_GetInputContext(parser, &offset, &size), offset >= 0, offset < size else { return false }
        let first = UInt8(bitPattern: buffer[Int(offset)])
        if first == 0x26 { return true }
        return first == 0 && offset + 1 < size && UInt8(bitPattern: buffer[Int(offset) + 1]) == 0x26
    }

    /// Whether a callback asked expat to pause after the current one (``suspend()``).
    var isPauseRequested: Bool { suspensionRequested }

    /// Whether a pause waits for the document's own next event, asked for inside an
    /// internal entity (``suspend()``).
    var isPauseDeferred: Bool { suspensionDeferred }

    /// Pauses now if a callback inside an internal entity asked to (the engine checks at
    /// each event while it has pause work).
    func suspendIfDeferred() {
        guard _slowPath(suspensionDeferred) else { return }
        suspensionDeferred = false
        suspend()
    }

    /// Goes on parsing after ``suspend()`` paused expat: the rest of the paused call's
    /// input, then whatever input was not given to expat yet if the paused call was the
    /// last one. Returns `.suspended` again when a callback pauses it again.
    func resume() -> FeedResult {
        guard isSuspended, let parser else { return .accepted }
        isSuspended = false
        isSuspendable = true
        let status = charging { XML_ResumeParser(parser) }
        isSuspendable = false
        suspensionRequested = false
        suspensionDeferred = false
        if status == XML_STATUS_SUSPENDED {
            isSuspended = true
            return .suspended
        }
        guard status == XML_STATUS_OK else { return .ended }
        // The paused call is complete. Input it never reached (a feed larger than one call
        // takes) waits at the front of `held`, and goes on in the same way now.
        let unsent = unsentAfterSuspension
        unsentAfterSuspension = 0
        if suspendedCallIsFinal {
            return held.count > 0 || !suspendedCallEndsDocument ? parseHeld(isFinal: true) : .accepted
        }
        if unsent > 0 {
            let result = parseHeld(isFinal: false, keepingLineBreak: !surrogateAfterSuspension)
            if result != .accepted { return result }
        }
        if surrogateAfterSuspension {
            if held.count > 0 {
                let result = parseHeld(isFinal: false, keepingLineBreak: false)
                // Paused again: the surrogate is reported after the next resume.
                if result != .accepted { return result }
            }
            surrogateAfterSuspension = false
            withEngine(userData) {
                $0.violate(.invalidToken, "not well-formed (invalid token): an unpaired UTF-16 surrogate")
            }
            return .ended
        }
        return concludeCall()
    }

    // MARK: Feeding

    /// Bytes expat has been given but not yet consumed (the start of an unfinished token).
    var unparsedByteCount: Int {
        let index = XML_GetCurrentByteIndex(parser)
        return index < 0 ? 0 : max(0, bytesGiven - Int(index))
    }

    /// How many new bytes expat should get in one call: at least as many as it would
    /// re-scan, but no more than takes the unfinished token just past the token limit,
    /// so that expat never holds much more than the limit of one token.
    private func minimumFeed(unparsed: Int) -> Int {
        guard unparsed > Self.holdbackThreshold else { return 0 }
        return min(unparsed, max(1, maximumTokenBytes - unparsed))
    }

    /// Ends the parse when expat's unfinished token has grown past the token limit.
    /// - Returns: `false` when it did.
    private func checkUnfinishedToken(_ unparsed: Int) -> Bool {
        guard unfinishedTokenBreaksLimit(unparsed: unparsed) else { return true }
        withEngine(userData) { $0.violateTokenLimit() }
        return false
    }

    /// Feeds bytes, holding them back while they would only make expat re-scan.
    @inline(__always)
    func feed(_ bytes: UnsafeRawBufferPointer) -> FeedResult {
        if !surrogateCheck.isOff, let invalid = surrogateCheck.firstInvalidOffset(in: bytes) {
            return feedUpToUnpairedSurrogate(UnsafeRawBufferPointer(rebasing: bytes[..<invalid]))
        }
        return feedChecked(bytes)
    }

    /// Gives expat everything before an unpaired surrogate, so events before it are
    /// delivered and its position is known, then ends the parse with an error there.
    private func feedUpToUnpairedSurrogate(_ bytes: UnsafeRawBufferPointer) -> FeedResult {
        var result = feedChecked(bytes)
        if result == .suspended {
            surrogateAfterSuspension = true
            return .suspended
        }
        if result == .ended { return .ended }
        if held.count > 0 {
            result = parseHeld(isFinal: false, keepingLineBreak: false)
            if result == .suspended { surrogateAfterSuspension = true }
            if result != .accepted { return result }
        }
        withEngine(userData) {
            $0.violate(.invalidToken, "not well-formed (invalid token): an unpaired UTF-16 surrogate")
        }
        return .ended
    }

    @inline(__always)
    private func feedChecked(_ bytes: UnsafeRawBufferPointer) -> FeedResult {
        if held.count == 0 && bytes.count >= holdUntil && bytes.count >= Self.smallFeed {
            let tail = Self.lineBreakTail(bytes)
            if _fastPath(tail == 0) {
                let result = parse(bytes, isFinal: false)
                if _slowPath(result == .suspended) { holdUnsent(of: bytes, tail: 0) }
                return result
            }
            let result = parse(UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - tail)]), isFinal: false)
            if result == .accepted, let base = bytes.baseAddress { held.append(base + bytes.count - tail, count: tail) }
            if result == .suspended { holdUnsent(of: bytes, tail: tail) }
            return result
        }
        if let base = bytes.baseAddress { held.append(base, count: bytes.count) }
        guard held.count >= holdUntil else { return .held }
        if bytes.count < Self.smallFeed && held.count < Self.smallFeedGathering && !bytes.contains(0x3E) {
            return .held
        }
        return parseHeld(isFinal: false)
    }

    /// Feeds whatever is held back and tells expat the input is complete.
    func finish() -> FeedResult {
        parseHeld(isFinal: true)
    }

    /// Feeds whatever is held back without ending the input: when no more input will
    /// come but the document is not complete (its source failed), the elements already
    /// whole in it still reach their handlers.
    func flushHeld() -> FeedResult {
        held.count > 0 ? parseHeld(isFinal: false) : .accepted
    }

    /// Feeds the held-back input; unless it is the last, a line break at its end stays held.
    private func parseHeld(isFinal: Bool, keepingLineBreak: Bool = true) -> FeedResult {
        let all = held.bytes(from: 0)
        let tail = isFinal || !keepingLineBreak ? 0 : Self.lineBreakTail(all)
        let result = parse(UnsafeRawBufferPointer(rebasing: all[..<(all.count - tail)]), isFinal: isFinal)
        let kept = result == .ended ? 0 : result == .suspended ? tail + unsentAfterSuspension : tail
        held.removeAll(keepingLast: kept, capacityAtMost: 1 << 20)
        return result
    }

    /// After a pause, keeps the end of a feed that expat did not get: the part a single
    /// call could not take and the held-back line break.
    private func holdUnsent(of bytes: UnsafeRawBufferPointer, tail: Int) {
        let kept = unsentAfterSuspension + tail
        if kept > 0, let base = bytes.baseAddress { held.append(base + bytes.count - kept, count: kept) }
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

    private func parse(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) -> FeedResult {
        guard let parser else { return .ended }
        if _slowPath(bytesGiven < 2) && encodingOverride != nil && rejectsZeroInFirstBytes(bytes) { return .ended }
        if _slowPath(bytesGiven < 3), let end = byteOrderMarkEnd(in: bytes) {
            guard parse(UnsafeRawBufferPointer(rebasing: bytes[..<end]), isFinal: false) == .accepted else { return .ended }
            return parse(UnsafeRawBufferPointer(rebasing: bytes[end...]), isFinal: isFinal)
        }
        var offset = 0
        while true {
            guard let budget = tokenBudget(unparsed: unparsedByteCount) else { return .ended }
            var length = min(bytes.count - offset, maximumSlice, budget)
            if length < bytes.count - offset {
                length = Self.sliceKeepingLineBreak(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]))
            }
            let last = offset + length == bytes.count
            // Under a token limit the last bytes of a document get a call of their own before
            // the final, empty one: an unfinished token they leave over the limit is then
            // reported as such, not as a truncated document, however the input was split.
            let final = isFinal && last && (length == 0 || maximumTokenBytes == Int.max)
            let start = bytes.baseAddress.map { ($0 + offset).assumingMemoryBound(to: CChar.self) }
            bytesGiven += length
            parseCallCount += 1
            isSuspendable = true
            let status = charging { XML_Parse(parser, start, Int32(length), final ? 1 : 0) }
            isSuspendable = false
            suspensionRequested = false
            suspensionDeferred = false
            offset += length
            if status == XML_STATUS_SUSPENDED {
                isSuspended = true
                suspendedCallIsFinal = isFinal
                suspendedCallEndsDocument = final
                unsentAfterSuspension = bytes.count - offset
                return .suspended
            }
            guard status == XML_STATUS_OK else { return .ended }
            if final || (last && !isFinal) { break }
            if !checkUnfinishedToken(unparsedByteCount) { return .ended }
        }
        return concludeCall()
    }

    /// After a parse call that went through: checks expat's unfinished token and sets how
    /// much input the next call needs.
    private func concludeCall() -> FeedResult {
        let unparsed = unparsedByteCount
        guard checkUnfinishedToken(unparsed) else { return .ended }
        holdUntil = minimumFeed(unparsed: unparsed)
        return .accepted
    }

    /// The first bytes given to expat, while fewer than three (a UTF-8 byte order mark's length).
    private var leadingBytes: [UInt8] = []

    /// Where a UTF-8 byte order mark that `bytes` completes ends in them, when more follows.
    /// A completed mark also makes the driver check the XML declaration that may follow it
    /// (``watchDeclarationAfterByteOrderMark()``).
    ///
    /// Expat counts positions after each call, in the encoding it ends the call with: when
    /// one call holds both the byte order mark and a declaration of another 8-bit encoding
    /// (`<?xml version="1.0" encoding="US-ASCII"?>`), the mark's three bytes count as three
    /// columns, but as one when the call ends at the mark. The driver ends a call there, so
    /// positions do not depend on how the input was split.
    private func byteOrderMarkEnd(in bytes: UnsafeRawBufferPointer) -> Int? {
        let needed = 3 - leadingBytes.count
        guard needed > 0 else { return nil }
        leadingBytes += bytes.prefix(needed)
        guard leadingBytes == [0xEF, 0xBB, 0xBF] else { return nil }
        watchDeclarationAfterByteOrderMark()
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
    private func rejectsZeroInFirstBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let zero = bytes.prefix(2 - bytesGiven).firstIndex(of: 0) else { return false }
        let offset = bytesGiven + zero
        withEngine(userData) {
            $0.violate(
                .invalidToken, "not well-formed (invalid token)", at: (line: 1, column: offset + 1, byteOffset: offset))
        }
        return true
    }

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
        if held.count > 0 && parseHeld(isFinal: false) == .ended { return .ended }
        if bytesGiven + held.count < 3 {
            // The first bytes go through parse(_:isFinal:), which ends a call after a byte order mark.
            var first: (UInt8, UInt8, UInt8) = (0, 0, 0)
            let wanted = 3 - bytesGiven - held.count
            let read = withUnsafeMutableBytes(of: &first) { buffer in reader.fill(buffer.baseAddress, count: wanted) }
            let count = read.count
            let result = withUnsafeBytes(of: &first) { feed(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            if result == .ended { return .ended }
            if let failure = read.failure { throw failure }
            if count < wanted { return finish() }
            if held.count > 0 && parseHeld(isFinal: false) == .ended { return .ended }
        }
        while true {
            let unparsed = unparsedByteCount
            guard checkUnfinishedToken(unparsed), let budget = tokenBudget(unparsed: unparsed) else { return .ended }
            let wanted = min(max(chunkSize, minimumFeed(unparsed: unparsed)), maximumSlice)
            // A line break held back from the previous read goes first.
            let carried = held.count
            guard let buffer = charging({ XML_GetBuffer(parser, Int32(carried + wanted)) }) else { return .ended }
            if carried > 0, let heldBytes = held.bytes(from: 0).baseAddress {
                UnsafeMutableRawPointer(buffer).copyMemory(from: heldBytes, byteCount: carried)
            }
            held.removeAll(keepingAtMost: 1 << 20)
            let read = reader.fill(buffer + carried, count: wanted)
            let filled = carried + read.count
            // The bytes read before a failure are parsed before it is reported.
            let isFinal = filled < carried + wanted && read.failure == nil
            let bytes = UnsafeRawBufferPointer(start: buffer, count: filled)
            if !surrogateCheck.isOff,
                let invalid = surrogateCheck.firstInvalidOffset(in: UnsafeRawBufferPointer(rebasing: bytes[carried...]))
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
                bytesGiven += carried + invalid
                let status = charging { XML_ParseBuffer(parser, Int32(carried + invalid), 0) }
                guard status == XML_STATUS_OK, checkUnfinishedToken(unparsedByteCount) else { return .ended }
                withEngine(userData) {
                    $0.violate(.invalidToken, "not well-formed (invalid token): an unpaired UTF-16 surrogate")
                }
                return .ended
            }
            // What the token limit leaves no room for waits in `held`, with a held-back line break.
            var given = min(filled - (isFinal ? 0 : Self.lineBreakTail(bytes)), budget)
            if given == budget && given < filled {
                given = Self.sliceKeepingLineBreak(UnsafeRawBufferPointer(rebasing: bytes[..<given]))
            }
            if given < filled, let base = bytes.baseAddress { held.append(base + given, count: filled - given) }
            // Under a token limit the last bytes get a call of their own, as in parse(_:isFinal:).
            let isLast = isFinal && given == filled && (given == 0 || maximumTokenBytes == Int.max)
            bytesGiven += given
            let status = charging { XML_ParseBuffer(parser, Int32(given), isLast ? 1 : 0) }
            guard status == XML_STATUS_OK else { return .ended }
            if let failure = read.failure { throw failure }
            if isLast { return .accepted }
            guard afterRead() else { return .ended }
        }
    }

    // MARK: Positions and errors

    /// The 1-based line and column and the 0-based byte offset of the current event.
    @inline(__always)
    func currentPosition() -> (line: Int, column: Int, byteOffset: Int) {
        (
            Int(XML_GetCurrentLineNumber(parser)), Int(XML_GetCurrentColumnNumber(parser)) + 1,
            Int(XML_GetCurrentByteIndex(parser))
        )
    }

    /// The size in bytes of the token being reported (0 inside an internal entity).
    @inline(__always)
    var currentEventByteCount: Int { Int(XML_GetCurrentByteCount(parser)) }

    /// Whether the start tag being reported closes its element too (`<nd ref="1"/>`): its
    /// end tag is the next event. `false` when that cannot be told from the input bytes
    /// (inside an entity, or in an encoding other than an ASCII-compatible one).
    var currentStartTagIsEmpty: Bool {
        let count = currentEventByteCount
        guard count >= 2 else { return false }
        var offset: Int32 = 0
        var size: Int32 = 0
        guard let buffer = XML_GetInputContext(parser, &offset, &size), Int(offset) + count <= Int(size) else {
            return false
        }
        let end = Int(offset) + count
        return buffer[end - 2] == 0x2F && buffer[end - 1] == 0x3E  // "/>"
    }

    /// The number of attributes written in the current start tag, as opposed to
    /// defaulted from the DTD, which follow them.
    var specifiedAttributeCount: Int { Int(XML_GetSpecifiedAttributeCount(parser)) / 2 }

    /// The error expat stopped with, as a Swift value.
    ///
    /// - Parameter rootStarted: Whether the root element started; the end of input is
    ///   then ``XMLParseError/Code/truncated`` rather than a missing root.
    func currentError(elementPath: ElementPath, rootStarted: Bool, source: String?) -> XMLParseError {
        guard let parser else {
            return XMLParseError(
                code: .noMemory, message: "could not create an expat parser", line: 1, column: 1, byteOffset: 0,
                source: source)
        }
        let expatCode = XML_GetErrorCode(parser)
        let position = currentPosition()
        var code = XMLParseError.Code(rawValue: Int(expatCode.rawValue))
        var message = XML_ErrorString(expatCode).map { String(cString: $0) } ?? "expat error \(expatCode.rawValue)"
        var limit: Int?
        switch code {
        case .noMemory where exceededMemoryBudget:
            code = .memoryLimitExceeded
            limit = profile.maximumParserMemoryBytes.value
            message = "the parser needs more memory than maximumParserMemoryBytes (\(profile.maximumParserMemoryBytes))"
        case .unclosedToken, .partialCharacter, .unclosedCDATASection:
            code = .truncated
            message = "the input ends inside a token (\(message))"
        case .noElements where rootStarted:
            code = .truncated
            message = "the input ends before the root element is closed"
        case .noElements:
            message = "no root element"
        default:
            break
        }
        return XMLParseError(
            code: code, message: message, line: max(1, position.line), column: max(1, position.column),
            byteOffset: max(0, position.byteOffset), elementPath: elementPath, limit: limit, source: source)
    }
}

/// Calls `body` with the engine a callback's user data points to, without retaining
/// it: the engine owns the driver, so it outlives every callback.
@inline(__always)
func withEngine(_ userData: UnsafeMutableRawPointer?, _ body: (DispatchEngine) -> Void) {
    guard let userData else { return }
    Unmanaged<DispatchEngine>.fromOpaque(userData)._withUnsafeGuaranteedRef(body)
}

/// A C string from expat as a Swift string, or nil for a null pointer.
func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map(UTF8Text.string(cString:))
}

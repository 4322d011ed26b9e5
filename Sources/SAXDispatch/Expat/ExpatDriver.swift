private import CExpat
private import CExpatMemory

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Owns one expat parser: creates and frees it, installs its C callbacks, decides the
/// safety rules for what expat reads in the prolog and DTD itself, forwards element,
/// text and document events to the layer above, feeds it bytes, pauses it, and reads
/// positions and errors back. The only type in the package that touches expat.
///
/// A ``PushParser`` owns the driver and the engine it forwards to. Every callback receives
/// the driver as its user data; the layer above is reached only through an
/// ``ExpatEventSink`` and the ``ExpatElementCallbacks`` it provides (everything the driver
/// may call on it), held unretained: the driver never names the engine.
///
/// The driver keeps the parser pointer, the memory budget, the profile and its bounds,
/// and the callbacks; the rest of its state is one value per concern, stored inline:
/// ``ExpatDriverHoldback``, ``ExpatDriverPauseState``, ``ExpatDriverDTDGuard``,
/// ``ExpatDriverInputEncoding`` and ``ExpatDriverDocumentSequence``. Its behaviour is one
/// file per concern: `+Callbacks` (element and text events), `+Safety` (the prolog and
/// DTD rules, token and name checks), `+Entities`, `+TokenLimit`, `+Encoding`,
/// `+Transcoding`, `+Feeding`, `+Reading`, `+Suspension` (pauses for streams),
/// `+Documents`, `+Positions` (positions and the error expat stopped with) and `+ErrorContext`.
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
        /// Whether the namespace declarations of each start tag are kept as written
        /// (``startTagDeclarations``), with namespace processing.
        var namespaceDeclarations = false
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
    /// Namespace declarations on the start tag expat reports next. With namespace
    /// processing, expat hands each to a callback of its own before the start tag and
    /// leaves it out of the tag's attributes; the attribute limit counts them all the same,
    /// and the engine takes it when it checks the tag (``DispatchEngine/takeNamespaceDeclarationCount()``).
    @exclusivity(unchecked) var pendingNamespaceDeclarations = 0
    /// The declarations of the latest start tag that had any, when ``Events/namespaceDeclarations``.
    @exclusivity(unchecked) var startTagDeclarations = StartTagNamespaceDeclarations()
    /// The distinct names the parser interns, logged while a range of a document is read
    /// on its own (``InternedNameLog``); `nil`, and nothing logged, otherwise. Held
    /// unretained, as it is read on every start tag: whoever sets it keeps it alive for
    /// the parse.
    var nameLog: InternedNameLog? {
        get { nameLogReference?.takeUnretainedValue() }
        set {
            nameLogReference = newValue.map { Unmanaged.passUnretained($0) }
            // A new log has seen no tag: the next one is read whatever expat allocated.
            allocationsLogged = size_t.max
        }
    }
    @exclusivity(unchecked) private var nameLogReference: Unmanaged<InternedNameLog>?
    /// Expat's allocations (``saxdispatch_memory_budget/allocations``) when the log last
    /// took a tag's names. Expat allocates for every name it interns for the first time
    /// at a start tag, before the tag's event: a tag with no allocation since the last one
    /// logged holds no name the parser did not know, and is not read. (Names the DTD
    /// declared were interned before the first tag, whose event takes that allocation; a
    /// range repeats the prolog, so its parser's peak holds them.)
    @exclusivity(unchecked) private var allocationsLogged = size_t.max
    /// The UTF-8 text of a start tag from an internal entity, as expat reports it.
    var currentMarkup: [UInt8] = []
    /// The driver itself, as the user data every callback receives.
    private(set) var userData: UnsafeMutableRawPointer?
    /// Where the driver reports what is not an element or text event, held unretained:
    /// the ``PushParser`` that owns the driver owns the sink too.
    unowned(unsafe) var sink: (any ExpatEventSink)?
    /// The element and text callbacks of the layer above, installed as its handlers need them.
    var elementCallbacks: ExpatElementCallbacks?
    /// The object the element and text callbacks report to (the sink), unretained and
    /// untyped: they know its type, the driver does not.
    private(set) var eventTarget: UnsafeMutableRawPointer?
    @exclusivity(unchecked) var characterData = CharacterData.ignored

    // The driver's state, one value per concern, each stored inline. What is left above is
    // the parser, its budget and bounds, and the callbacks with the event being reported.

    /// Input held back from expat, and what was given to it.
    @exclusivity(unchecked) var holdback = ExpatDriverHoldback()
    /// The input's encoding: override, sniffing, transcoder, what the document declared.
    @exclusivity(unchecked) var inputEncoding: ExpatDriverInputEncoding
    /// What the DTD declared, counted against the safety profile.
    @exclusivity(unchecked) var dtd = ExpatDriverDTDGuard()
    /// Which document of the input is parsed, and where it started.
    @exclusivity(unchecked) var documents = ExpatDriverDocumentSequence()

    /// Every byte received: given to expat or held back.
    var byteCount: Int { holdback.byteCount }
    /// Where a pause stands (`+Suspension`): the only state a pause has.
    @exclusivity(unchecked) var pause = ExpatDriverPauseState.idle

    /// Unfinished tokens larger than this make the driver hold input back.
    static let holdbackThreshold = 1024
    /// Feeds shorter than this that hold no `>` are gathered, up to ``smallFeedGathering``
    /// bytes, before expat sees them. Every event but text needs a `>` to complete, so
    /// gathering delays only text; and every call into expat has a fixed cost, which would
    /// make a document fed one byte at a time many times slower than fed whole.
    static let smallFeed = 16
    static let smallFeedGathering = 512

    /// Whether expat resolves namespaces (``QualifiedName`` says how it then spells names).
    let processesNamespaces: Bool
    /// The optional callbacks installed, again for each document of a concatenated input.
    var events = Events()

    /// - Parameters:
    ///   - encoding: An encoding name expat knows (`"UTF-8"`) to read the input in
    ///     whatever it declares; `nil` lets the document say.
    ///   - processesNamespaces: Whether expat resolves namespaces and reports
    ///     namespace well-formedness errors. The corresponding expat functions are
    ///     `XML_ParserCreateNS` and `XML_SetReturnNSTriplet`.
    init(profile: SafetyProfile, encoding: String? = nil, processesNamespaces: Bool = true) {
        self.processesNamespaces = processesNamespaces
        self.profile = profile
        inputEncoding = ExpatDriverInputEncoding(named: encoding)
        let expatEncoding = inputEncoding.encodingOverride
        maximumTokenBytes = profile.maximumTokenBytes.bound
        maximumNameBytes = profile.maximumNameBytes.bound
        budget = .allocate(capacity: 1)
        budget.initialize(
            to: saxdispatch_memory_budget(
                used: 0, limit: profile.maximumParserMemoryBytes.value.map { size_t($0) } ?? .max, peak: 0,
                exceeded: 0, allocations: 0))
        var suite = XML_Memory_Handling_Suite(
            malloc_fcn: saxdispatch_memory_malloc, realloc_fcn: saxdispatch_memory_realloc,
            free_fcn: saxdispatch_memory_free)
        let previous = saxdispatch_memory_enter(budget)
        let separator: [CChar] = [CChar(bitPattern: QualifiedName.separator), 0]
        parser = separator.withUnsafeBufferPointer { separator in
            XML_ParserCreate_MM(expatEncoding, &suite, processesNamespaces ? separator.baseAddress : nil)
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
    func charging<Result>(_ body: () throws -> Result) rethrows -> Result {
        let previous = saxdispatch_memory_enter(budget)
        defer { saxdispatch_memory_enter(previous) }
        return try body()
    }

    /// Charges `bytes` that the dispatcher holds for the parse to expat's heap budget, as
    /// expat's own allocations are charged; `false`, charging nothing, when they do not fit.
    func charge(bytes: Int) -> Bool {
        saxdispatch_memory_charge(budget, size_t(max(0, bytes))) != 0
    }

    /// Charges `bytes`, or as many of them as fit under the limit, for what the parse is
    /// to count as held though it holds nothing for it (what one parse of a whole document
    /// would hold for names a parse of its rest never sees).
    func charge(atMost bytes: Int) {
        let room = budget.pointee.limit - min(budget.pointee.used, budget.pointee.limit)
        _ = saxdispatch_memory_charge(budget, min(size_t(max(0, bytes)), room))
    }

    /// Gives back `bytes` that ``charge(bytes:)`` charged, which the dispatcher no longer holds.
    func release(bytes: Int) {
        saxdispatch_memory_release(budget, size_t(max(0, bytes)))
    }

    /// Makes expat read the input as `name` whatever the document declares, when no input
    /// has reached the driver yet; afterwards the encoding is already decided and this does
    /// nothing. The corresponding expat function is `XML_SetEncoding`.
    func overrideEncoding(_ name: String) {
        guard let parser, byteCount == 0, inputEncoding.encodingOverride == nil, inputEncoding.sniffedBytes.isEmpty
        else { return }
        guard charging({ XML_SetEncoding(parser, name) }) == XML_STATUS_OK else { return }
        inputEncoding.encodingOverride = name
        inputEncoding.encodingIsOverridden = true
        inputEncoding.readsInputDirectly = true
    }

    /// Whether expat failed because its heap budget ran out.
    var exceededMemoryBudget: Bool { budget.pointee.exceeded != 0 }

    /// The most bytes expat held at once so far.
    var peakParserMemory: Int { budget.pointee.peak }

    var isAvailable: Bool { parser != nil }

    /// Installs the callbacks: `elementCallbacks` for element and text events, which report
    /// to `sink` themselves, the driver's own safety callbacks, and the optional `events`
    /// the sink's handlers need, which the driver reports to `sink`.
    func connect(to sink: some ExpatEventSink, elementCallbacks: ExpatElementCallbacks, events: Events) {
        guard let parser else { return }
        self.sink = sink
        self.elementCallbacks = elementCallbacks
        eventTarget = Unmanaged.passUnretained(sink).toOpaque()
        self.events = events
        userData = Unmanaged.passUnretained(self).toOpaque()
        XML_SetUserData(parser, userData)
        saxdispatch_set_reparse_deferral(parser, 0)
        installSafetyHandlers(parser, profile: profile, events: events)
        setSkipping(false)
    }

    /// Asks expat to stop at the end of the current callback, for good.
    /// The corresponding expat function is `XML_StopParser`.
    func stop() {
        guard let parser else { return }
        pause.stop()
        _ = XML_StopParser(parser, 0)
    }

}

extension ExpatDriver {
    /// Calls `body` with the sink the driver reports to. Only after
    /// ``connect(to:elementCallbacks:events:)``, as every callback is.
    @inline(__always)
    func withSink(_ body: (any ExpatEventSink) -> Void) {
        body(sink.unsafelyUnwrapped)
    }

    /// Logs a start tag's names (``admitsStartTag(_:_:skipped:)``), out of line so that
    /// the start tags of a parse that logs nothing stay as short as they were.
    @inline(never)
    private func logNames(
        _ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>, skipped: Bool
    ) {
        allocationsLogged = budget.pointee.allocations
        nameLogReference.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.logStartTag(name, attributes, skipped: skipped) }
    }

    /// Ends the parse because the document broke a rule the driver enforces; the sink
    /// records it with the element path and halts.
    func violate(
        _ code: XMLParseError.Code, _ message: String, limit: Int? = nil,
        at position: (line: Int, column: Int, byteOffset: Int)? = nil
    ) {
        withSink { $0.ruleBroken(code, message, limit: limit, at: position) }
    }

    /// Whether a start tag may go on to the layer above: false when it holds an undeclared
    /// entity reference that expat would drop from an attribute value (the parse then
    /// ends). Checked only once such a reference can occur (``ExpatDriverDTDGuard``).
    /// Logs the tag's names first while a log is kept (``nameLog``) and expat allocated
    /// since the last tag logged (``allocationsLogged``); `skipped` says the layer above
    /// does not intern the element's name itself.
    @inline(__always)
    func admitsStartTag(
        _ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>, skipped: Bool
    ) -> Bool {
        if _slowPath(nameLogReference != nil) && budget.pointee.allocations != allocationsLogged {
            logNames(name, attributes, skipped: skipped)
        }
        // Expat drops undeclared references from attribute values once the document has an
        // external subset or a parameter entity reference; namespace declarations, which
        // expat does not pass on, are checked too.
        if _slowPath(dtd.checksAttributeEntityReferences) { return admitsEntityReferences(inStartTag: name) }
        return true
    }
}

/// Calls `body` with the driver a callback's user data points to, without retaining it:
/// the ``PushParser`` that owns the driver keeps it alive while expat runs.
@inline(__always)
func withDriver(_ userData: UnsafeMutableRawPointer?, _ body: (ExpatDriver) -> Void) {
    guard let userData else { return }
    Unmanaged<ExpatDriver>.fromOpaque(userData)._withUnsafeGuaranteedRef(body)
}

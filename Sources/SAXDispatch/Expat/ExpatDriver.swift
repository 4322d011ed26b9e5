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
/// text and document events to a ``DispatchEngine``, feeds it bytes, and reads positions
/// and errors back. The only type in the package that touches expat.
///
/// Every callback receives the driver as its user data; the engine it forwards to is
/// held unretained (the engine owns the driver, so it outlives every callback). The
/// type's concerns are one file each: `+Callbacks` (element and text events), `+Safety`
/// (the prolog and DTD rules, token and name checks), `+TokenLimit`, `+Encoding` (a
/// declaration that contradicts a UTF-8 byte order mark), `+Feeding`, `+Descriptor`,
/// `+Suspension` (pauses for streams) and `+Positions` (positions and errors).
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
    /// Namespace declarations on the start tag expat reports next. With namespace
    /// processing, expat hands each to a callback of its own before the start tag and
    /// leaves it out of the tag's attributes; the attribute limit counts them all the same,
    /// and the engine sets this back to 0 when it checks the tag (``DispatchEngine/checkStartTag(_:_:)``).
    @exclusivity(unchecked) var pendingNamespaceDeclarations = 0
    /// Bytes of attribute values that start tags took from the DTD's defaults so far: expat
    /// expands a default once and copies it to every element without counting it towards
    /// its amplification limit, so the driver counts it (``admitsDefaultedAttributes(_:from:to:_:)``).
    var defaultedAttributeBytes = 0
    /// The general entities declared so far (`+Entities`), and the bytes of their names
    /// charged to expat's heap budget, given back when the next document starts.
    var declaredEntities = DeclaredEntities()
    var declaredEntityBytes = 0
    /// Set once expat would drop an undeclared entity reference from an attribute value
    /// without a word: the start tags' references are then checked (`+Entities`).
    @exclusivity(unchecked) var checksAttributeEntityReferences = false
    /// Whether the DOCTYPE named a DTD whose entities are built in, until they are declared.
    var namesKnownDTD = false
    /// True while expat parses the built-in entities' declarations.
    var readsBuiltInEntities = false
    /// The UTF-8 text of a start tag from an internal entity, as expat reports it.
    var currentMarkup: [UInt8] = []
    /// The lead bytes of the multi-byte encoding expat reads through its map, if it does.
    var mapLeadBytes: EncodingCatalog.LeadBytes?
    /// The undeclared entity references left out, for the warnings; kept across documents.
    var skippedEntities = SkippedEntityLog()
    /// The driver itself, as the user data every callback receives.
    private(set) var userData: UnsafeMutableRawPointer?
    /// The engine that events go to, unretained: it owns the driver.
    var engine: Unmanaged<DispatchEngine>?
    @exclusivity(unchecked) var characterData = CharacterData.ignored
    /// Input held back because expat still has more unparsed bytes than this.
    @exclusivity(unchecked) var held = TextBuffer()
    /// How many bytes a feed (or the held-back input) must reach before expat gets
    /// them: the size of expat's unfinished token when that exceeds the threshold,
    /// else 0. Computed once after every call into expat, so a held-back feed costs
    /// a copy and a comparison.
    @exclusivity(unchecked) var holdUntil = 0
    /// Catches unpaired surrogates in UTF-16 input, which some expat 2.5.0 builds accept.
    @exclusivity(unchecked) var surrogateCheck = UTF16SurrogateCheck()
    /// Total bytes passed to expat so far.
    @exclusivity(unchecked) var bytesGiven = 0
    /// How many times expat was asked to parse; tests use it to check the holdback.
    @exclusivity(unchecked) var parseCallCount = 0
    /// Every byte received: given to expat or held back.
    var byteCount: Int { bytesGiven + held.count }
    /// True while expat runs a parse call that a callback may pause (not a read of an
    /// input into expat's buffer).
    @exclusivity(unchecked) var isSuspendable = false
    /// Set once a callback asked expat to pause, until the parse call returns.
    @exclusivity(unchecked) var suspensionRequested = false
    /// Set when a callback inside an internal entity asked to pause: the pause waits for
    /// the next event of the document itself (``suspendIfDeferred()``).
    @exclusivity(unchecked) var suspensionDeferred = false
    /// Whether expat is paused, holding input it has not parsed yet.
    var isSuspended = false
    /// Whether the paused call was part of the parse of the input's end.
    var suspendedCallIsFinal = false
    /// Whether the paused call was the one that told expat the input is complete; when
    /// not, the input's end still owes expat that call after the resume.
    var suspendedCallEndsDocument = false
    /// How many bytes of the paused call's input were never given to expat (inputs
    /// larger than one call takes); they wait at the front of `held`.
    var unsentAfterSuspension = 0
    /// An unpaired surrogate found in input that a pause cut short: reported once the
    /// input before it is parsed.
    var surrogateAfterSuspension = false
    /// Set by ``stop()``; a stopped parser is never paused.
    var isStopped = false

    /// The first bytes given to expat, while fewer than three (a UTF-8 byte order mark's length).
    var leadingBytes: [UInt8] = []
    /// The first bytes (up to three) of the document being parsed, when it is not the
    /// input's first: what its XML declaration is checked against (``leadingBytes`` for the first).
    var laterDocumentLeadingBytes: [UInt8] = []
    /// The version the document's XML declaration names when it is not 1.0, for the note
    /// on its errors: expat reads every document by XML 1.0's rules.
    var declaredXMLVersion: String?

    /// Unfinished tokens larger than this make the driver hold input back.
    static let holdbackThreshold = 1024
    /// Feeds shorter than this that hold no `>` are gathered, up to ``smallFeedGathering``
    /// bytes, before expat sees them. Every event but text needs a `>` to complete, so
    /// gathering delays only text; and every call into expat has a fixed cost, which would
    /// make a document fed one byte at a time many times slower than fed whole.
    static let smallFeed = 16
    static let smallFeedGathering = 512
    /// Expat's `int` length parameter bounds one call; feed larger inputs in slices.
    /// (A variable so that tests can make slices small.)
    var maximumSlice = 1 << 30

    /// The encoding expat reads the input in whatever the document declares (a string's
    /// UTF-8), or `nil` when the document's byte order mark and declaration decide.
    var encodingOverride: String?
    /// Whether the application named the input's encoding (``overrideEncoding(_:)``, an
    /// input's encoding): then every document is read in it, whatever it declares.
    var encodingIsOverridden = false

    /// False while the driver has not yet seen whether the input needs the transcoder (its
    /// first bytes, up to the end of an XML declaration, wait in `sniffedBytes`), and while
    /// a transcoder converts it; true when bytes go to expat as they come, which is all a
    /// UTF-8 document ever pays for after its first bytes: one test per feed.
    @exclusivity(unchecked) var readsInputDirectly: Bool
    /// The document's first bytes, while they do not yet show how it is encoded.
    var sniffedBytes: [UInt8] = []
    /// Converts the input to UTF-8 ahead of expat, for encodings its map cannot express.
    var transcoder: EncodingTranscoder?
    /// Set when the transcoder met an invalid sequence while expat was paused: reported
    /// once the input before it is parsed.
    var transcodingFailedAfterSuspension = false
    /// The encoding expat asked about and no one could read, for the error's message.
    var unknownEncodingName: String?
    /// The encoding the document's XML declaration names, once read (per document).
    var declaredEncodingName: String?

    /// Whether expat resolves namespaces (``QualifiedName`` says how it then spells names).
    let processesNamespaces: Bool
    /// The optional callbacks installed, again for each document of a concatenated input.
    var events = Events()

    /// Whether the input may hold documents one after another (`+Documents`).
    var readsConcatenatedDocuments = false
    /// Which document of the input is being parsed, from 1.
    var documentNumber = 1
    /// Where the document being parsed starts in the input: the 1-based line and column
    /// and the 0-based byte offset that expat's positions, which count from the start of
    /// the document, are moved by.
    var documentStart = (line: 1, column: 1, byteOffset: 0)

    /// - Parameters:
    ///   - encoding: An encoding name expat knows (`"UTF-8"`) to read the input in
    ///     whatever it declares; `nil` lets the document say.
    ///   - processesNamespaces: Whether expat resolves namespaces and reports
    ///     namespace well-formedness errors. The corresponding expat functions are
    ///     `XML_ParserCreateNS` and `XML_SetReturnNSTriplet`.
    init(profile: SafetyProfile, encoding: String? = nil, processesNamespaces: Bool = true) {
        self.processesNamespaces = processesNamespaces
        self.profile = profile
        var expatEncoding = encoding
        var chosenTranscoder: EncodingTranscoder?
        if let encoding, !EncodingCatalog.isExpatBuiltIn(encoding), SingleByteEncoding(named: encoding) == nil,
            let path = EncodingCatalog.path(for: encoding), let transcoder = EncodingTranscoder(name: encoding, path: path)
        {
            // Expat reads what the transcoder makes of the input, whatever the document declares.
            chosenTranscoder = transcoder
            expatEncoding = "UTF-8"
        }
        transcoder = chosenTranscoder
        encodingOverride = expatEncoding
        encodingIsOverridden = encoding != nil
        readsInputDirectly = encoding != nil && chosenTranscoder == nil
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

    /// Gives back `bytes` that ``charge(bytes:)`` charged, which the dispatcher no longer holds.
    func release(bytes: Int) {
        saxdispatch_memory_release(budget, size_t(max(0, bytes)))
    }

    /// Makes expat read the input as `name` whatever the document declares, when no input
    /// has reached the driver yet; afterwards the encoding is already decided and this does
    /// nothing. The corresponding expat function is `XML_SetEncoding`.
    func overrideEncoding(_ name: String) {
        guard let parser, byteCount == 0, encodingOverride == nil, sniffedBytes.isEmpty else { return }
        guard charging({ XML_SetEncoding(parser, name) }) == XML_STATUS_OK else { return }
        encodingOverride = name
        encodingIsOverridden = true
        readsInputDirectly = true
    }

    /// Whether expat failed because its heap budget ran out.
    var exceededMemoryBudget: Bool { budget.pointee.exceeded != 0 }

    /// The most bytes expat held at once so far.
    var peakParserMemory: Int { budget.pointee.peak }

    var isAvailable: Bool { parser != nil }

    /// Installs the callbacks, which forward events to `engine`.
    func connect(to engine: DispatchEngine, events: Events) {
        guard let parser else { return }
        self.engine = Unmanaged.passUnretained(engine)
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
        isStopped = true
        _ = XML_StopParser(parser, 0)
    }

}

extension ExpatDriver {
    /// Calls `body` with the engine events go to. Only after ``connect(to:events:)``, as
    /// every callback is.
    @inline(__always)
    func withEngine(_ body: (DispatchEngine) -> Void) {
        engine.unsafelyUnwrapped._withUnsafeGuaranteedRef(body)
    }

    /// Ends the parse because the document broke a rule the driver enforces; the engine
    /// records it with the element path and halts.
    func violate(
        _ code: XMLParseError.Code, _ message: String, limit: Int? = nil,
        at position: (line: Int, column: Int, byteOffset: Int)? = nil
    ) {
        withEngine { $0.violate(code, message, limit: limit, at: position) }
    }
}

/// Calls `body` with the driver a callback's user data points to, without retaining it:
/// the engine that owns the driver keeps it alive while expat runs.
@inline(__always)
func withDriver(_ userData: UnsafeMutableRawPointer?, _ body: (ExpatDriver) -> Void) {
    guard let userData else { return }
    Unmanaged<ExpatDriver>.fromOpaque(userData)._withUnsafeGuaranteedRef(body)
}

/// Calls `body` with the engine that the driver a callback's user data points to
/// forwards events to: the element and text callbacks' one step from C to the engine.
@inline(__always)
func forwardToEngine(_ userData: UnsafeMutableRawPointer?, _ body: (DispatchEngine) -> Void) {
    guard let userData else { return }
    Unmanaged<ExpatDriver>.fromOpaque(userData)._withUnsafeGuaranteedRef { $0.withEngine(body) }
}

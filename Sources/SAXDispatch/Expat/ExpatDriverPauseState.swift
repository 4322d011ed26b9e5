/// Where a pause of expat stands, for a stream whose consumer pulls: every transition is a
/// method of this type, and ``ExpatDriver`` (`+Suspension`) is its only caller.
///
/// ```
/// idle ─beginCall─▶ running ─request─▶ requested ─endCall(paused)─▶ paused(owed) ─resume─▶ running
///                      │                   ▲
///   request inside an  ▼                   │ the document's next event makes the pause
///   internal entity:  deferred ────────────┘
/// running, requested, deferred ─endCall─▶ idle;  requested, deferred ─beginDocument─▶ running
/// any ─stop─▶ stopped (for good)
/// ```
///
/// What must stay true: a pause is asked only while a parse call that may pause runs
/// (`running`: `XML_Parse` or `XML_ResumeParser`, never a read into expat's buffer), and
/// never after a stop; `paused` carries what the paused call still owes once it completes.
enum ExpatDriverPauseState: Equatable {
    /// What a paused parse call still owes once a resume completes it.
    struct Owed: Equatable {
        /// Whether the paused call was part of the parse of the input's end.
        var callIsFinal = false
        /// Whether the paused call was the one that told expat the input is complete; when
        /// not, the input's end still owes expat that call after the resume.
        var callEndsDocument = false
        /// How many bytes of the paused call's input were never given to expat (inputs
        /// larger than one call takes); they wait at the front of the holdback.
        var unsentBytes = 0
        /// An unpaired surrogate found in input that the pause cut short: reported once the
        /// input before it is parsed.
        var surrogateFound = false
    }

    /// No parse call that may pause runs.
    case idle
    /// A parse call that may pause runs, and no pause was asked.
    case running
    /// A callback asked expat to pause after it (`XML_StopParser` with `resumable`).
    case requested
    /// A callback inside an internal entity asked to pause: the pause waits for the next
    /// event of the document itself, where ``ExpatDriver/suspendIfDeferred()`` makes it.
    case deferred
    /// Expat is paused, holding input it has not parsed yet.
    case paused(Owed)
    /// The parse was stopped; it never pauses again.
    case stopped

    /// Whether a callback may ask for a pause now: a parse call that may pause runs, and
    /// no pause was asked, or the one asked waits for the document's next event.
    var acceptsRequest: Bool {
        switch self {
        case .running, .deferred: true
        default: false
        }
    }

    var isRequested: Bool {
        if case .requested = self { return true }
        return false
    }

    var isDeferred: Bool {
        if case .deferred = self { return true }
        return false
    }

    var isPaused: Bool {
        if case .paused = self { return true }
        return false
    }

    var isStopped: Bool {
        if case .stopped = self { return true }
        return false
    }

    /// A parse call that may pause begins (unless the parse was stopped).
    mutating func beginCall() {
        if !isStopped { self = .running }
    }

    /// A callback asked to pause: now, or at the document's next event when `deferred`.
    mutating func request(deferred: Bool) {
        guard acceptsRequest else { return }
        self = deferred ? .deferred : .requested
    }

    /// The parse call returned; `owed` when expat paused it.
    mutating func endCall(pausedOwing owed: Owed?) {
        guard !isStopped else { return }
        self = owed.map { .paused($0) } ?? .idle
    }

    /// Goes on with a paused call: what it owes, or `nil` when it is not paused.
    mutating func resume() -> Owed? {
        guard case .paused(let owed) = self else { return nil }
        self = .running
        return owed
    }

    /// Notes what the paused call owes besides what ended it: bytes it never gave expat, an
    /// unpaired surrogate after them.
    mutating func addOwed(unsentBytes: Int = 0, surrogateFound: Bool = false) {
        guard case .paused(var owed) = self else { return }
        owed.unsentBytes += unsentBytes
        owed.surrogateFound = owed.surrogateFound || surrogateFound
        self = .paused(owed)
    }

    /// A new document of the input starts: a pause asked in the one that ended is dropped.
    mutating func beginDocument() {
        if isRequested || isDeferred { self = .running }
    }

    /// The parse stops for good.
    mutating func stop() {
        self = .stopped
    }

    /// The bytes the paused call never gave expat; 0 when not paused.
    var unsentBytes: Int {
        if case .paused(let owed) = self { return owed.unsentBytes }
        return 0
    }
}

/// Parses a document fed in pieces of any size, dispatching events to a
/// ``Dispatcher``'s handlers as soon as each piece is fed.
///
/// Feed bytes as they arrive, then call ``finish()``. The events, and any error's
/// position, are the same however the input is split: whole, one byte at a time,
/// or anything between.
///
/// ```swift
/// let parser = PushParser(dispatcher)
/// for chunk in chunks { try parser.feed(chunk) }
/// try parser.finish()
/// ```
///
/// Events are dispatched as soon as the bytes that complete them are fed, with
/// one exception that keeps any chunking linear in time: while expat holds an
/// unfinished token longer than 1 KiB (a huge tag, comment or attribute value),
/// input is gathered until there is at least as much new input as the token so far,
/// then parsed in one call. ``finish()`` parses whatever was gathered.
///
/// After an error, every further call throws the same error. After a stop, feeding
/// does nothing and ``finish()`` returns ``ParseOutcome/stopped``.
///
/// A parser owns mutable C state and is used from one thread at a time; it is not
/// `Sendable`.
public final class PushParser {
    /// The parser owns both halves of the parse, and keeps them alive while expat runs: the
    /// driver, which owns expat and takes the input, pauses and errors; and the engine,
    /// which the driver reports expat's events to. Each holds the other unretained.
    let driver: ExpatDriver
    let engine: DispatchEngine
    private var failure: (any Error)?
    private var outcome: ParseOutcome?
    /// What the parse found worth a warning, once the document was read to its end
    /// (``finish()`` returned ``ParseOutcome/completed``); empty before. Warnings about a
    /// document itself (an XML version other than 1.0) come first, the first 64 of them;
    /// the `onWarning` handlers had each when its document's declaration was read. Then
    /// pattern prefixes bound nowhere, the undeclared entities left out, and the patterns
    /// and record fields that matched nothing, each with the names the document had
    /// instead (``ParseWarning/suggestions``).
    public private(set) var warnings: [ParseWarning] = []
    /// Set once ``finish()`` told expat the input is complete.
    private var isFinishing = false
    /// True while expat runs; feeding a parser from its own handler would re-enter expat.
    private var isParsing = false

    /// A name for the input (usually a file path) used in error descriptions.
    public var source: String? {
        get { engine.source }
        set { engine.source = newValue }
    }

    /// Creates a parser that dispatches to the handlers of `dispatcher`.
    public init(_ dispatcher: Dispatcher, source: String? = nil) {
        (driver, engine) = Self.makeDriverAndEngine(dispatcher)
        self.source = source
    }

    /// A parser that reads its input as `encoding` (a name expat knows, such as `"UTF-8"`)
    /// whatever the document declares, or as the document says for `nil`; and as documents
    /// one after another when `readsConcatenatedDocuments`.
    init(_ dispatcher: Dispatcher, source: String?, encoding: String?, readsConcatenatedDocuments: Bool = false) {
        (driver, engine) = Self.makeDriverAndEngine(
            dispatcher, encoding: encoding, readsConcatenatedDocuments: readsConcatenatedDocuments)
        self.source = source
    }

    /// A parser for a stream, which pauses at every value its consumer has not taken, so
    /// its handlers never put deliveries off (``DeferredDelivery``).
    init(
        streaming dispatcher: Dispatcher, source: String?, encoding: String? = nil,
        readsConcatenatedDocuments: Bool = false
    ) {
        (driver, engine) = Self.makeDriverAndEngine(
            dispatcher, encoding: encoding, readsConcatenatedDocuments: readsConcatenatedDocuments, mayDefer: false)
        self.source = source
    }

    /// The driver (and its expat parser) and the engine of one parse, connected: expat's
    /// callbacks go through the driver to the engine.
    private static func makeDriverAndEngine(
        _ dispatcher: Dispatcher, encoding: String? = nil, readsConcatenatedDocuments: Bool = false, mayDefer: Bool = true
    ) -> (ExpatDriver, DispatchEngine) {
        let driver = ExpatDriver(
            profile: dispatcher.safety, encoding: encoding, processesNamespaces: dispatcher.processesNamespaces)
        driver.documents.readsConcatenatedDocuments = readsConcatenatedDocuments
        let engine = DispatchEngine(dispatcher: dispatcher, driver: driver, mayDefer: mayDefer)
        var events = engine.optionalExpatEvents
        events.namespaceDeclarations = dispatcher.keepsNamespaceDeclarations && dispatcher.processesNamespaces
        driver.connect(to: engine, elementCallbacks: engine.elementCallbacks, events: events)
        return (driver, engine)
    }

    deinit {
        // An ElementContext a handler kept holds the engine, and the engine the handlers:
        // with the parser gone no event can come, so the handlers go and the cycle with them.
        engine.letHandlersGo()
    }

    /// Whether the input may hold documents one after another, each parsed in turn with
    /// its own events: a log of XML records, a stream of messages. `false` unless set;
    /// set it before the first feed. ``XMLInput/readsConcatenatedDocuments`` says how
    /// documents are told apart, and what positions and errors count.
    ///
    /// ```swift
    /// let parser = PushParser(dispatcher)
    /// parser.readsConcatenatedDocuments = true
    /// for message in messages { try parser.feed(message) }
    /// try parser.finish()
    /// ```
    public var readsConcatenatedDocuments: Bool {
        get { driver.documents.readsConcatenatedDocuments }
        set { driver.documents.readsConcatenatedDocuments = newValue }
    }

    /// How many documents the parser has begun: 1 until a concatenated input's second
    /// document starts (``readsConcatenatedDocuments``).
    public var documentCount: Int { driver.documents.documentNumber }

    /// The number of input bytes received so far (fed, or read from a file).
    public var byteCount: Int { driver.byteCount }

    /// Whether parsing has stopped, by request, by a handler error or a parse error.
    public var isStopped: Bool { engine.isHalted || failure != nil }

    /// Parses the next piece of the document.
    ///
    /// - Throws: ``XMLParseError`` when the document is not well-formed, or the error a
    ///   handler threw, wrapped in a ``HandlerError``.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        try checkOpen()
        if engine.isHalted || outcome != nil { return }
        precondition(!isParsing, Self.reentrancyMessage)
        isParsing = true
        let result = driver.feed(bytes)
        isParsing = false
        try settle(afterFeeding: result)
    }

    /// Parses the input held back so far (a large unfinished token waits for more input
    /// before expat sees it again), without ending the document: for a stream whose
    /// source failed, so that the values whole in what arrived are still delivered.
    ///
    /// - Throws: As ``feed(_:)-(UnsafeRawBufferPointer)``.
    @usableFromInline
    func flushHeldInput() throws {
        try checkOpen()
        if engine.isHalted || outcome != nil { return }
        precondition(!isParsing, Self.reentrancyMessage)
        isParsing = true
        let result = driver.flushHeld()
        isParsing = false
        try settle(afterFeeding: result)
    }

    private func settle(afterFeeding result: ExpatDriver.FeedResult) throws {
        switch result {
        case .held, .suspended:
            // Held back: nothing was parsed. Suspended: a stream's parser paused, and
            // streams never put deliveries off. Either way there is nothing to deliver yet.
            return
        case .accepted:
            // Text gathered for chunk handlers, and deliveries put off, are not held past
            // the bytes fed so far.
            whileParsing { engine.flushPendingText() }
            try deliverDeferred()
        case .ended:
            try settle()
        }
    }

    /// Parses the next piece of the document.
    ///
    /// - Throws: ``XMLParseError`` when the document is not well-formed, or the error a
    ///   handler threw, wrapped in a ``HandlerError``.
    public func feed(_ bytes: some Sequence<UInt8>) throws {
        let handled: Void? = try bytes.withContiguousStorageIfAvailable { try feed(UnsafeRawBufferPointer($0)) }
        if handled == nil {
            let copy = Array(bytes)
            try copy.withUnsafeBytes { try feed($0) }
        }
    }

    /// Parses the UTF-8 bytes of a string as the next piece of the document.
    ///
    /// When a string is the first piece, the document is read as UTF-8 whatever its XML
    /// declaration names: a string holds Unicode text, so a declared encoding describes
    /// bytes it no longer has (`encoding="ISO-8859-1"` would turn `é` into `Ã©`). After
    /// bytes were fed, their byte order mark and declaration have decided the encoding,
    /// and a string adds its UTF-8 bytes to the document as they are.
    ///
    /// - Throws: ``XMLParseError`` when the document is not well-formed, or the error a
    ///   handler threw, wrapped in a ``HandlerError``.
    public func feed(_ text: String) throws {
        driver.overrideEncoding("UTF-8")
        var text = text
        try text.withUTF8 { try feed(UnsafeRawBufferPointer($0)) }
    }

    /// Tells the parser the document is complete and checks that it is well-formed.
    ///
    /// - Returns: ``ParseOutcome/completed``, or ``ParseOutcome/stopped`` if a
    ///   handler stopped the parse.
    /// - Throws: ``XMLParseError`` when the document is not well-formed or ends too
    ///   early, or the error a handler threw, wrapped in a ``HandlerError``.
    @discardableResult
    public func finish() throws -> ParseOutcome {
        var outcome = try finishUnlessSuspended()
        while outcome == nil { outcome = try resume() }
        return outcome ?? .completed
    }

    // MARK: Pausing, for consumers that pull (asynchronous streams)

    /// Whether a handler paused the parse (``requestSuspension()``) with input left to parse.
    @usableFromInline var isSuspended: Bool { driver.isSuspended }

    /// Asks expat to pause after the current callback, so that the call feeding or
    /// finishing the parse returns with the rest of the input kept for ``resume()``.
    /// Does nothing when called outside a parse call.
    @usableFromInline
    func requestSuspension() {
        driver.suspend()
    }

    /// Whether a handler asked to pause inside an internal entity's replacement text,
    /// where the pause waits for the document's own next event.
    @usableFromInline
    var isPauseDeferred: Bool { driver.isPauseDeferred }

    /// Fails the parse because more than `limit` values wait for a stream's consumer
    /// (``XMLStreamOutput/maximumWaitingValues``); the error reaches the consumer after the
    /// values before it.
    @usableFromInline
    func failStreamBacklog(limit: Int) {
        engine.violate(
            .streamBacklogExceeded,
            "more than \(limit) values wait for the stream's consumer: the parse cannot pause inside an internal"
                + " entity's replacement text, and one reference expanded to more values than that",
            limit: limit)
    }

    /// Like ``finish()``, but returns `nil` when a handler paused the parse; ``resume()``
    /// then goes on with it.
    @usableFromInline
    func finishUnlessSuspended() throws -> ParseOutcome? {
        try checkOpen()
        if let outcome { return outcome }
        precondition(!driver.isSuspended, "finish() called on a paused parse; resume it first")
        if engine.isHalted { return conclude(.stopped) }
        isFinishing = true
        return try concludeFinishing(whileParsing { driver.finish() })
    }

    /// Goes on after a pause: parses the rest of the input already fed (or, after
    /// ``finishUnlessSuspended()``, the rest of the document).
    ///
    /// - Returns: The outcome once a paused finish completes, else `nil`.
    /// - Throws: As ``feed(_:)-(UnsafeRawBufferPointer)`` and ``finish()``.
    @usableFromInline
    func resume() throws -> ParseOutcome? {
        try checkOpen()
        if let outcome { return outcome }
        if engine.hasDeferredText {
            // Long text paused between slices: the next slice first, expat stays paused.
            whileParsing { engine.deliverDeferredTextSlice() }
            if engine.isHalted { try settle() }
            return nil
        }
        let result = whileParsing { driver.resume() }
        if isFinishing { return try concludeFinishing(result) }
        try settle(afterFeeding: result)
        return nil
    }

    private func concludeFinishing(_ result: ExpatDriver.FeedResult) throws -> ParseOutcome? {
        switch result {
        case .suspended: return nil
        case .ended: try settle()
        case .accepted, .held: try deliverDeferred()
        }
        return conclude(engine.stopRequested ? .stopped : .completed)
    }

    /// Stops parsing without an error. Call it from a handler or between feeds;
    /// no handler runs afterwards.
    public func stop() {
        engine.requestStop()
    }

    /// Reads `input` to its end and finishes the parse: a file or a descriptor straight
    /// into expat's buffer, ``XMLInput/chunkSize`` bytes at a time; a string or bytes in
    /// memory in one piece. The input's ``XMLInput/name`` becomes the parser's ``source``;
    /// its ``XMLInput/encoding`` applies when nothing was fed before, and its
    /// ``XMLInput/readsConcatenatedDocuments`` when set.
    ///
    /// ``Dispatcher/parse(_:)-(XMLInput)`` does this with a parser of its own; parse with
    /// one you made to read its ``warnings`` or ``byteCount`` afterwards, or to feed the
    /// start of the document yourself before the input gives the rest.
    ///
    /// ```swift
    /// let parser = PushParser(dispatcher)
    /// try parser.parse(.file("map.osm"))
    /// print(parser.byteCount)
    /// ```
    ///
    /// - Returns: ``ParseOutcome/completed``, or ``ParseOutcome/stopped`` if a handler stopped.
    /// - Throws: ``XMLInputError`` when the input cannot be opened or read (after the events
    ///   of what was read before), what a ``XMLInput/reader(name:_:)`` input's reader throws,
    ///   as it is, ``XMLParseError`` for a malformed document, or a ``HandlerError``
    ///   wrapping a handler's error.
    @discardableResult
    public func parse(_ input: XMLInput) throws -> ParseOutcome {
        source = input.name
        if let encoding = input.encoding { driver.overrideEncoding(encoding) }
        if input.readsConcatenatedDocuments { readsConcatenatedDocuments = true }
        return try input.parse(with: self)
    }

    /// Reads `reader` to its end straight into expat's buffer, `chunkSize` bytes at a
    /// time, and finishes.
    ///
    /// - Throws: What the reader throws, after what was parsed before it is delivered;
    ///   otherwise as ``finish()``.
    func parse(reading reader: inout some XMLInputReader, chunkSize: Int) throws -> ParseOutcome {
        let chunkSize = max(1, chunkSize)
        try checkOpen()
        let result: ExpatDriver.FeedResult
        do {
            result = try whileParsing {
                // Text gathered for text-chunk handlers goes out after each read, as after each feed.
                try driver.parse(reading: &reader, chunkSize: chunkSize) {
                    engine.flushPendingText()
                    return !engine.isHalted
                }
            }
        } catch {
            // Only a read throws here. What was parsed before it failed is delivered first:
            // text gathered for text-chunk handlers, and deliveries put off.
            whileParsing { engine.flushPendingText() }
            try rethrowHandlerError()
            try deliverDeferred()
            failure = error
            throw error
        }
        if result == .ended {
            do {
                try settle()
            } catch let error as XMLParseError {
                // The reader may know better: damaged bytes a decompressor handed on.
                guard let explained = reader.failure(explaining: error) else { throw error }
                failure = explained
                throw explained
            }
        } else {
            try deliverDeferred()
        }
        return conclude(engine.stopRequested ? .stopped : .completed)
    }

    private static let reentrancyMessage =
        "PushParser fed from inside one of its own handlers; feed it after the call returns"

    private func whileParsing<Result>(_ body: () throws -> Result) rethrows -> Result {
        precondition(!isParsing, Self.reentrancyMessage)
        isParsing = true
        defer { isParsing = false }
        return try body()
    }

    @inline(__always)
    private func checkOpen() throws {
        if let failure { throw failure }
        guard driver.isAvailable else {
            let error = driver.parseError(elementPath: [], rootStarted: false, source: source)
            failure = error
            throw error
        }
    }

    /// Makes the deliveries that handlers put off (``DeferredDelivery``), and settles the
    /// parse if one of them failed.
    private func deliverDeferred() throws {
        whileParsing { engine.deliverDeferred() }
        if engine.isHalted { try settle() }
    }

    /// Expat stopped: find out why, and throw unless a handler asked to stop.
    private func settle() throws {
        // Deliveries put off before the stop are made first; if one of them fails, its
        // error is the one reported.
        whileParsing { engine.deliverDeferred() }
        try rethrowHandlerError()
        if engine.stopRequested { return }
        if let violation = engine.violation {
            whileParsing { engine.flushPendingTextAfterViolation() }
            try rethrowHandlerError()
            failure = violation
            throw violation
        }
        // A parse error: text that came before it still reaches text-chunk handlers,
        // exactly as it would have if the input had been split just before the error.
        whileParsing { engine.flushPendingText() }
        try rethrowHandlerError()
        let error = driver.parseError(elementPath: engine.currentPath, rootStarted: engine.rootStarted, source: source)
        failure = error
        engine.halt()
        throw error
    }

    /// Throws the error a handler threw, if one did, wrapped with where it happened.
    private func rethrowHandlerError() throws {
        guard var error = engine.handlerError else { return }
        error.source = source
        failure = error
        throw error
    }

    private func conclude(_ result: ParseOutcome) -> ParseOutcome {
        outcome = result
        if result == .completed {
            let atEnd =
                (engine.unseenPatternPrefixes().map(ParseWarning.unseenPrefix)
                + driver.dtd.skippedEntities.warnings).map { warning in
                    var warning = warning
                    warning.source = source
                    return warning
                } + engine.unmatchedPatternWarnings()
            // The warnings found while reading reached the handlers then.
            warnings = engine.readingWarnings + atEnd
            for warning in atEnd {
                for handler in engine.warningHandlers { handler(warning) }
            }
        }
        return result
    }
}

@available(*, unavailable)
extension PushParser: Sendable {}

/// Reads one document on many threads: a framing pass on the caller's thread cuts it into
/// ranges at record boundaries as it reads (``DocumentFramer``), workers parse each range as
/// a document of its own (``RangeJob``), and the caller gets each range's result in
/// document order.
///
/// A range is verified by its own parse: it must parse without an error, and nothing may
/// be delivered while its closing tags are read (a record open across its end, which a
/// range cannot hold whole). The first range that does not verify, and everything after
/// it, is read by one sequential parse that begins where that range begins, with the
/// context the range before it verified: so records come out as one parse of the whole
/// would deliver them, with its first error at the same position, whatever the document.
/// But where the range's end was found by looking ahead (``State/speculate(sizes:maximumContextBytes:)``),
/// a guess that fails where the elements around the records change, the ranges from it on
/// are dropped and its bytes framed again instead, in ranges a framer proposes from its
/// start; only a framed range that does not verify sends the rest to one parse.
/// The same happens when the framing pass stops (``FramingStop``) or a record grows past
/// ``maximumPendingBytes``, which keeps memory bounded.
///
/// Expat's memory budget holds over the whole document too: each range's parse logs the
/// distinct names it interned, and a range is delivered only while what one parse of the
/// whole would hold by its end stays below the limit (``ParserMemoryBound``). Past that,
/// one parse of the whole reads the document again from its first byte and the values
/// delivered already are dropped from it, when the caller can drop them and the input can
/// be read again; otherwise the sequential parse of the rest begins with its budget charged
/// for at least what the names of the ranges before it and one parse's pieces would hold,
/// so that it breaks the limit no later than one parse of the whole would (perhaps earlier,
/// or where that parse would not).
///
/// What must stay true: every byte of the document is in exactly one range; a range's
/// result is delivered only after every range before it; after a fallback, no worker's
/// result is delivered.
struct ParallelRangeParse {
    let input: XMLInput
    /// The records' local name; empty when every element at ``recordDepth`` begins a
    /// boundary.
    let recordName: [UInt8]
    /// The boundaries' depth when set, rather than the first record's.
    var recordDepth: Int?
    /// Whether the input is read as UTF-8 whatever it declares (its encoding set to UTF-8).
    let readsUTF8: Bool
    let workers: Int
    /// The size past which a range ends, at the next record boundary; near the document's
    /// end, when its length is known, smaller (``sizes``).
    let rangeBytes: Int
    let sizes: RangeSizes
    /// Whether one parse of the whole would break expat's memory budget by a range's end.
    let memory: ParserMemoryBound

    /// The parallel read of the elements matching `pattern` in `input`, or `nil` when the
    /// document is to be read sequentially: fewer than 2 workers, a last step that names no
    /// element (`*`), an input set to another encoding than UTF-8, one that holds documents
    /// one after another, or a range already.
    ///
    /// - Parameters:
    ///   - workers: At most 1,024.
    ///   - rangeBytes: At least 1 byte, at most 1 GiB.
    init?(input: XMLInput, pattern: ElementPattern, workers: Int, rangeBytes: Int) {
        guard workers > 1, let reading = input.framedReading, let recordName = pattern.lastStepLocalName else { return nil }
        self.init(input: input, recordName: Array(recordName.utf8), readsUTF8: reading.readsUTF8, workers: workers, rangeBytes: rangeBytes)
    }

    /// The parallel read of `input` in ranges that begin at the root's children, or `nil`
    /// when it is to be read sequentially (see ``init(input:pattern:workers:rangeBytes:)``).
    init?(input: XMLInput, workers: Int, rangeBytes: Int) {
        guard workers > 1, let reading = input.framedReading else { return nil }
        self.init(input: input, recordName: [], readsUTF8: reading.readsUTF8, workers: workers, rangeBytes: rangeBytes)
        recordDepth = 2
    }

    private init(input: XMLInput, recordName: [UInt8], readsUTF8: Bool, workers: Int, rangeBytes: Int) {
        self.input = input
        self.recordName = recordName
        self.readsUTF8 = readsUTF8
        self.workers = min(workers, 1024)
        self.rangeBytes = min(max(1, rangeBytes), 1 << 30)
        sizes = RangeSizes(largest: self.rangeBytes, documentBytes: input.expectedByteCount, workers: self.workers)
        memory = ParserMemoryBound(inMemoryBytes: input.inMemoryByteCount, chunkSize: input.chunkSize, inMemory: input.isInMemory)
    }

    /// How many bytes a read asks for: about as many as a sequential parse reads, and an
    /// array a little under 64 KiB. Larger arrays would take fresh pages from the kernel for
    /// each read (past `malloc`'s mapping threshold), and freeing a block of 64 KiB or more
    /// makes glibc's `malloc` consolidate its free lists and trim the heap, on every read's
    /// array, on the thread that frees it.
    static let readSize = XMLInput.defaultChunkSize - 4096

    /// How many ranges may be handed to the workers and not yet delivered: two per worker,
    /// and with small ranges enough for a few megabytes, so that the workers still have
    /// work while the reading thread waits for a core (three threads on two cores).
    var rangesInFlight: Int { min(max(workers * 2, (4 << 20) / rangeBytes), workers * 16) }

    /// The most bytes held without a boundary before the rest is read sequentially.
    var maximumPendingBytes: Int { max(8 * rangeBytes, 16 << 20) }
    /// The largest context a range may repeat (the prolog and its ancestors' start tags):
    /// past it, no range begins there, so the copies each range holds stay bounded.
    var maximumContextBytes: Int { max(rangeBytes, 1 << 20) }

    /// Reads the document.
    ///
    /// - Parameters:
    ///   - parse: Parses one range's document on a worker thread; `nil` when the range does
    ///     not verify.
    ///   - deliver: Receives each range's result, in document order, on the caller's thread.
    ///   - dropping: Told, on the caller's thread, of the ranges (by ``RangeJob/index``)
    ///     dropped and read again under new indices, before the new ones are handed in:
    ///     whatever their workers left for delivery is not to be delivered.
    ///   - dropsDelivered: Whether `sequential` can make a dispatcher that reads the document
    ///     from its first byte and drops what the ranges delivered (``SequentialStart/documentStart``).
    ///   - sequential: A dispatcher whose handlers deliver to the caller directly, for the
    ///     rest of the document after a range that did not verify, from where it says.
    /// - Returns: How many ranges the workers read, and where the sequential parse began.
    /// - Throws: What the reader, `deliver` or the sequential parse throw.
    @discardableResult
    func run<Result: Sendable>(
        parse: @escaping @Sendable (RangeJob) -> Result?,
        deliver: (Result) throws -> Void,
        dropping: (Range<Int>) -> Void = { _ in },
        dropsDelivered: Bool = false,
        sequential: (SequentialStart) -> Dispatcher
    ) throws -> Report {
        var reader = try input.makeReader()
        let pool = RangeWorkers<Result?>(count: workers, capacity: rangesInFlight, parse: parse)
        defer { pool.stop() }
        var framer = DocumentFramer(recordName: recordName, readsUTF8: readsUTF8, recordDepth: recordDepth)
        framer.proposalsFrom = sizes.size(from: 0)
        var state = State(framer: framer, source: input.name, encoding: input.encoding)
        state.rereadsWhole = dropsDelivered && input.canBeReadAgain
        if pool.running == 0 {
            state.fallingBack = true
        }
        var fallback: PushParser?
        do {
            return try withoutActuallyEscaping(deliver) { deliver in
                try withoutActuallyEscaping(dropping) { dropping in
                    let coordination = Coordination(pool: pool, deliver: deliver, dropping: dropping)
                    return try read(&reader, coordination, state: &state, fallback: &fallback, sequential: sequential)
                }
            }
        } catch let error as XMLParseError where fallback != nil {
            // As a sequential parse: the reader may say better why its bytes did not parse.
            throw reader.failure(explaining: error) ?? error
        }
    }

    /// Reads the document to its end: ``run(parse:deliver:sequential:)`` without its setup.
    private func read<Result: Sendable>(
        _ reader: inout any XMLInputReader, _ coordination: Coordination<Result>, state: inout State,
        fallback: inout PushParser?, sequential: (SequentialStart) -> Dispatcher
    ) throws -> Report {
        let pool = coordination.pool
        while true {
            // Each read has an array of its own, which the ranges cut from it share: the
            // document's bytes are copied only into expat's buffer. An array whose bytes no
            // range holds any more is read into again (a fallback's parser copied them).
            state.reads.release(before: fallback == nil ? state.oldestHeldOffset : .max)
            let read: ArraySlice<UInt8>
            do {
                read = try state.reads.read { try reader.read(into: $0) }
            } catch {
                // As a sequential parse: what was read before is parsed and delivered first.
                if fallback == nil {
                    pool.stop()
                    fallback = try beginSequential(&state, sequential: sequential)
                }
                throw error
            }
            let count = read.count
            if let parser = fallback {
                if count == 0 { break }
                try read.withUnsafeBytes { try parser.feed($0) }
                continue
            }
            if count == 0 {
                // The last range: to the document's end (again, when the held bytes were
                // framed again while the ranges were delivered).
                while !state.fallingBack {
                    try makeRoom(&state, coordination)
                    if state.fallingBack { break }
                    state.handIn(upTo: nil, to: pool)
                    guard try deliverSettled(&state, coordination, waits: .all) else { break }
                    if state.pendingCount == 0 { return state.report }
                }
                if state.refusedForMemory && state.rereadsWhole {
                    pool.stop()
                    return try rereadWhole(&state, sequential: sequential)
                }
                fallback = try beginSequential(&state, sequential: sequential)
                break
            }
            var cuts: [FrameBoundary] = []
            if !state.fallingBack && state.speculativeName == nil {
                // A range ends at the first boundary its size past its start where one may
                // begin: inside the root, never at the root itself, never inside a record,
                // which neither range could hold whole, and with a context small enough to
                // repeat. The framer proposes nothing before that.
                let sizes = sizes
                let maximumContextBytes = maximumContextBytes
                read.withUnsafeBytes { chunk in
                    state.framer.scanForCuts(chunk) { boundary in
                        Self.admit(boundary, into: &cuts, sizes: sizes, maximumContextBytes: maximumContextBytes)
                    }
                }
            }
            if state.framer.declaresAmplification && !state.fallingBack {
                // Expat's amplification ratio counts from the document's first byte: one
                // parse reads it all, as no range has been handed in before the root.
                cuts.removeAll()
                state.fallingBack = true
            }
            state.append(read)
            if !state.fallingBack && state.speculativeName != nil {
                cuts = state.speculate(sizes: sizes, maximumContextBytes: maximumContextBytes)
            }
            // Where the range that ends at the last cut begins.
            let lastRangeStart = cuts.count > 1 ? cuts[cuts.count - 2].offset : state.pendingBoundary?.offset ?? 0
            let framedAgain = state.framedAgain
            try handIn(cuts, &state, coordination)
            if !state.fallingBack, state.framedAgain == framedAgain, cuts.last != nil, state.framer.stop == nil,
                state.speculativeName != nil
                    || ((state.framer.lastAncestorClose ?? -1) < lastRangeStart && lastRangeStart >= state.looksAheadFrom)
            {
                // The next cut is sought after the element the last one begins with. (Its
                // name is in the held bytes, as a cut is proposed past it; were it not, a look
                // ahead goes on with the name it had, and never with a framer it left behind.)
                // Not after a framed range in which an element around the records closed:
                // the next range's records would likely be in other elements than the cut's,
                // which a cut found ahead assumes they are, and the range would not verify.
                // Nor for a while after a guess failed (``framedAfterFailedGuesses(_:)``).
                let name = HeldBytes(pieces: state.pending, start: state.pendingStart).elementName(at: state.pendingStart)
                state.speculativeName = name ?? state.speculativeName
            }
            if !state.fallingBack {
                _ = try deliverSettled(&state, coordination, waits: .none)
            }
            if !state.fallingBack && (state.framer.stop != nil || state.pendingCount > maximumPendingBytes) {
                // No more boundaries, or a record too large to hold: what is handed in is
                // delivered, and the rest read sequentially.
                if try !deliverSettled(&state, coordination, waits: .all) { state.fallingBack = true }
                state.fallingBack = true
            }
            if state.fallingBack {
                pool.stop()
                if state.refusedForMemory && state.rereadsWhole { return try rereadWhole(&state, sequential: sequential) }
                fallback = try beginSequential(&state, sequential: sequential)
            }
        }
        if let fallback { _ = try fallback.finish() }
        return state.report
    }

    /// What the coordinator works with besides its ``State``: the workers, and the caller's
    /// closures that receive the ranges' results and hear of dropped ranges.
    private struct Coordination<Result: Sendable> {
        let pool: RangeWorkers<Result?>
        let deliver: (Result) throws -> Void
        let dropping: (Range<Int>) -> Void
    }

    /// Hands in the range up to each cut in turn, delivering while the workers have no room
    /// for it; stops where the rest is to be read sequentially, or where the held bytes were
    /// framed again (the cuts left are then not the document's).
    private func handIn<Result>(_ cuts: [FrameBoundary], _ state: inout State, _ coordination: Coordination<Result>) throws {
        let framedAgain = state.framedAgain
        for cut in cuts {
            try makeRoom(&state, coordination)
            if state.fallingBack || state.framedAgain != framedAgain { return }
            state.handIn(upTo: cut, to: coordination.pool)
        }
    }

    /// Delivers ranges until the workers have room for another; with none to deliver (the
    /// places are taken by dropped ranges still being parsed), handing in waits instead.
    private func makeRoom<Result>(_ state: inout State, _ coordination: Coordination<Result>) throws {
        while !state.fallingBack && !coordination.pool.hasRoom && !state.unsettled.isEmpty {
            if try !deliverSettled(&state, coordination, waits: .one) { break }
        }
    }

    /// Reads the whole document again in one parse, as a sequential read would, whose
    /// dispatcher drops what the ranges delivered (``SequentialStart/documentStart``): once
    /// one parse of the whole might break expat's memory budget, only one can tell where.
    private func rereadWhole(_ state: inout State, sequential: (SequentialStart) -> Dispatcher) throws -> Report {
        state.unsettled.removeAll()
        state.pending.removeAll()
        state.pendingCount = 0
        state.sequentialFrom = 0
        _ = try sequential(.documentStart).parse(input)
        return state.report
    }

    /// Where the sequential parse of a parallel read begins.
    enum SequentialStart {
        /// At the offset given, the start of the first range not delivered, in the context
        /// of the range before it: everything it delivers is new.
        case rest(from: Int)
        /// At the document's first byte, as one parse of the whole: it delivers again, first,
        /// everything the ranges delivered, which the dispatcher drops.
        case documentStart
    }

    /// How a document was read.
    struct Report {
        /// How many ranges the workers read and verified.
        var rangesReadInParallel: Int
        /// The offset where the sequential parse of the rest began, if one did.
        var sequentialFrom: Int?
        /// How many of the ranges read in parallel begin at a cut found by looking ahead for a
        /// start tag rather than by the framing pass.
        var cutsFoundAhead = 0
        /// How many times a range whose end was found ahead did not verify and its bytes
        /// were framed again, with the ranges after it.
        var framedAgain = 0
    }

    /// Adds `boundary` to `cuts` when a range may begin there: inside the root, never at
    /// the root itself, never inside a record, which neither range could hold whole, and
    /// with a context small enough to repeat.
    /// - Returns: Where the framer proposes the next boundary from.
    static func admit(
        _ boundary: FrameBoundary, into cuts: inout [FrameBoundary], sizes: RangeSizes, maximumContextBytes: Int
    ) -> Int {
        guard !boundary.ancestors.isEmpty && !boundary.insideRecord && boundary.contextBytes <= maximumContextBytes
        else { return boundary.offset + 1 }
        cuts.append(boundary)
        return boundary.offset + sizes.size(from: boundary.offset)
    }

    private enum Waiting { case none, one, all }

    /// How far past a range's size a start tag is looked for before a framer reads the
    /// range (``State/speculate(sizes:maximumContextBytes:)``).
    static var lookAheadBytes: Int { 256 << 10 }
    /// How far back from a start tag found ahead a comment, CDATA section or processing
    /// instruction it might be inside is looked for. Reading back is done once a range, over
    /// a small part of it; a guess that fails costs the parses of the ranges in flight. The
    /// openings of constructs that hold a record's start tag (a record commented out, HTML
    /// in a CDATA section) are mostly near it, and the parse finds out the rest.
    static var markupLookBack: Int { 4096 }

    /// Delivers the results ready in order (waiting for one, or for all handed in);
    /// `false`, with ``State/fallingBack`` set, at a range that did not verify (unless its
    /// end was found ahead: its bytes are then framed again, ``frameAgain(_:_:)``).
    private func deliverSettled<Result>(_ state: inout State, _ coordination: Coordination<Result>, waits: Waiting) throws -> Bool {
        var waitsNext = waits != .none
        while let first = state.unsettled.first {
            guard let result = coordination.pool.take(first.index, waits: waitsNext) else { return true }
            let names = first.names
            guard let value = result else {
                if first.endsInItsContext && !names.brokeLimit && first.boundary != nil {
                    try frameAgain(&state, coordination)
                    // A framed range handed in then did not verify: the rest is sequential.
                    if state.fallingBack { return false }
                    waitsNext = waits == .all
                    continue
                }
                state.fallingBack = true
                state.refusedForMemory = memory.refusesRangeThatBrokeLimit(state.nextToDeliver, names)
                return false
            }
            guard memory.admits(range: state.nextToDeliver, names) else {
                state.fallingBack = true
                state.refusedForMemory = true
                return false
            }
            try coordination.deliver(value)
            if first.boundary?.foundAhead == true { state.cutsFoundAhead += 1 }
            state.unsettled.removeFirst()
            state.nextToDeliver += 1
            waitsNext = waits == .all
        }
        return true
    }

    /// Drops the oldest range handed in, whose end was found ahead and which did not verify,
    /// and every range after it, and frames their bytes and the pending ones again from its
    /// start, handing in the ranges a framer proposes: a guess that failed where the elements
    /// around the records changed (closed, and others opened) costs the ranges read in vain,
    /// not the rest of the document on one core.
    ///
    /// The range's start is right: the range before it verified that it ends in the context
    /// assumed there, or the range begins where a framer cut. The ranges are framed from
    /// there on, for ``framedAfterFailedGuesses(_:)`` ranges' worth of bytes and then until
    /// one in which no element around the records closed (`read`), so the guess that failed
    /// is not made again at once.
    private func frameAgain<Result>(_ state: inout State, _ coordination: Coordination<Result>) throws {
        guard let failed = state.unsettled.first, let base = failed.boundary else { return }
        let dropped = failed.index..<state.nextIndex
        coordination.pool.drop(dropped)
        coordination.dropping(dropped)
        state.holdAgain(from: base)
        state.searchedFrom = 0
        state.framedAgain += 1
        state.looksAheadFrom = base.offset + Self.framedAfterFailedGuesses(state.framedAgain) * rangeBytes
        let held = HeldBytes(pieces: state.pending, start: state.pendingStart)
        let cuts = state.resumeFraming(at: base, held, sizes: sizes, maximumContextBytes: maximumContextBytes)
        try handIn(cuts, &state, coordination)
    }

    /// How many ranges' worth of bytes are framed after the `failures`th guess that failed
    /// before looking ahead again: 64, doubling with each failure up to 1,024. A failed
    /// guess costs the parses of the ranges in flight, several ranges; framing a range costs
    /// the framer's pass over it, a few percent of its parse. So looking ahead pays only
    /// where guesses fail less often than once in some hundred ranges, and where they fail
    /// more often (groups of records a few ranges long) the ranges are soon all framed.
    static func framedAfterFailedGuesses(_ failures: Int) -> Int {
        64 << min(max(failures - 1, 0), 4)
    }

    /// The sequential parse of the rest of the document, from the oldest range not
    /// delivered (or the pending bytes), fed what is held so far.
    private func beginSequential(_ state: inout State, sequential: (SequentialStart) -> Dispatcher) throws -> PushParser {
        let start = state.unsettled.first.map(\.boundary) ?? state.pendingBoundary
        state.sequentialFrom = start?.offset ?? 0
        let parser = PushParser(sequential(.rest(from: start?.offset ?? 0)), source: input.name, encoding: input.encoding)
        parser.driver.documents.rangeOrigin = state.origin(start)
        if state.refusedForMemory {
            // At least what one parse of the whole would hold by now for the names before
            // the rest and the pieces it reads: the rest then breaks the limit no later than
            // that parse would.
            parser.driver.charge(atMost: memory.boundBeforeRefusal)
        }
        try state.context(start).withUnsafeBytes { try parser.feed($0) }
        for range in state.unsettled {
            for piece in range.bytes { try piece.withUnsafeBytes { try parser.feed($0) } }
        }
        for piece in state.pending { try piece.withUnsafeBytes { try parser.feed($0) } }
        state.unsettled.removeAll()
        state.pending.removeAll()
        state.pendingCount = 0
        return parser
    }
}

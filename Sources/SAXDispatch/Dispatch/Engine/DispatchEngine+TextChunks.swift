/// Delivering text to text-chunk handlers: the chunks the ``TextCoalescer`` gathers, large
/// pieces in slices, and the slices a stream's pause left for the resumes.
extension DispatchEngine {
    /// Gathers character data for the innermost element's text-chunk handlers.
    @inline(__always)
    func gatherTextChunk(_ piece: UnsafeRawBufferPointer) {
        if _slowPath(!text.gather(piece)) { gatherLargeTextChunk(piece) }
    }

    /// Character data that would make the gathered chunk too large: the chunk goes to the
    /// handlers, then the piece in bounded slices straight from expat's buffer, and its end
    /// is gathered.
    @inline(never)
    func gatherLargeTextChunk(_ piece: UnsafeRawBufferPointer) {
        var piece = piece
        flushPendingText()
        while piece.count >= TextCoalescer.chunkLimit && !isHalted {
            if isPauseRequested {
                // A stream's consumer has a value waiting: the rest waits for the resumes.
                text.deferText(piece)
                pauseAwaitsEvent = true
                return
            }
            let cut = TextCoalescer.sliceEnd(piece)
            deliverTextChunk(UnsafeRawBufferPointer(rebasing: piece[..<cut]))
            piece = UnsafeRawBufferPointer(rebasing: piece[cut...])
        }
        if isHalted { return }
        text.gatherRest(piece)
    }

    /// Delivers the gathered character data of the innermost element to its text-chunk handlers.
    func flushPendingText() {
        guard text.hasPendingChunk else { return }
        if takesCatchAllPath {
            deliverCatchAllTextChunk(text.pendingChunk())
        } else {
            deliverTextChunk(text.pendingChunk())
        }
        text.clearPendingChunk()
    }

    /// Delivers text gathered for text-chunk handlers before a violation, as a parse error
    /// does: the handlers see the same text however the input was split.
    func flushPendingTextAfterViolation() {
        guard violation != nil, handlerError == nil else { return }
        isHalted = false
        flushPendingText()
        isHalted = true
    }

    func deliverTextChunk(_ bytes: UnsafeRawBufferPointer) {
        guard !isHalted, !stack.isEmpty else { return }
        let frame = stack.top
        // The chunk's serial; once its handlers returned, the next one refuses the chunk.
        let serial = chunkSerial
        let depth = stack.count
        defer { chunkSerial = serial &+ 1 }
        if frame.matchStart < 0 {
            let handlers = routes.textHandlers(bucket: routes.bucket(frame.key))
            if handlers.count == 1, let handler = handlers.first {
                // One handler (a catch-all, or one pattern by name): no chain to walk or stop.
                handler.withHandler { callTextHandler($0, frame, depth: depth, chunk: serial, bytes) }
                return
            }
            chainStopped = false
            for handler in handlers {
                handler.withHandler { callTextHandler($0, frame, depth: depth, chunk: serial, bytes) }
                if isHalted { return }
                if chainStopped { break }
            }
        } else {
            chainStopped = false
            chain: for entry in matches.entries(from: frame.matchStart, count: frame.matchCount) {
                for handler in routes.textHandlers(entry: entry) {
                    handler.withHandler { callTextHandler($0, frame, depth: depth, chunk: serial, bytes) }
                    if isHalted { return }
                    if chainStopped { break chain }
                }
            }
        }
    }

    @inline(__always)
    func callTextHandler(
        _ handler: Route.TextHandler, _ frame: ElementFrame, depth: Int, chunk: UInt64, _ bytes: UnsafeRawBufferPointer
    ) {
        do {
            switch handler {
            case .closure(let call):
                try call(
                    ElementContext(engine: self, nameID: frame.name, serial: frame.serial, depth: depth),
                    TextChunk(engine: self, serial: chunk, bytes: bytes))
            case .object(let call, let object):
                try call(
                    ElementContext(engine: self, nameID: frame.name, serial: frame.serial, depth: depth),
                    TextChunk(engine: self, serial: chunk, bytes: bytes), object)
            }
        } catch {
            fail(error, in: .text)
        }
    }
}

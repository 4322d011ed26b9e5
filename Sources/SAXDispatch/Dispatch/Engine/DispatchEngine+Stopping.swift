/// How a parse ends early: a handler's error, a stop request, a broken rule or limit, or
/// a parse error; and the deliveries that handlers put off (``DeferredDelivery``), which
/// come before any of them.
extension DispatchEngine {
    /// Lets go of every handler, when the parser that owns the parse is gone: no event can
    /// reach the engine any more, and a handler's state that kept an ``ElementContext`` (or
    /// a ``TextChunk``) would otherwise keep the engine, and so itself, forever: context →
    /// engine → handlers → the handler's state → context. What a kept context asks after
    /// this (names, positions, the ancestors it was valid for) needs no handler.
    ///
    /// What must stay true: nothing calls a handler afterwards. The route table's buffers
    /// refer to the handlers without retaining them (``HandlerBox``), so the parse is
    /// halted first and every way in to a handler call tests ``isHalted`` or comes from
    /// expat, which only the gone parser could feed.
    func letHandlersGo() {
        isHalted = true
        routes.letHandlersGo()
        processingInstructionHandlers = []
        commentHandlers = []
        doctypeHandlers = []
        notationHandlers = []
        warningHandlers = []
        deferredDelivery.letHolderGo()
    }

    /// Ends the parse because the document broke a rule of the safety profile, at the
    /// current event's position or the one given, in the open element at `depth` (the
    /// innermost unless said). Never inlined, as ``fail(_:in:)``.
    @inline(never)
    func violate(
        _ code: XMLParseError.Code, _ message: String, limit: Int? = nil,
        at position: (line: Int, column: Int, byteOffset: Int)? = nil, depth: Int? = nil
    ) {
        guard !isHalted else { return }
        violation = parseError(
            code, message, limit: limit, at: position ?? currentPosition(), path: depth.map(path(depth:)) ?? currentPath)
        isHalted = true
        stopExpat()
    }

    /// The error for a limit that a handler set keeps, broken inside the open element at
    /// `depth` (a record's size, ``XMLParseError/Code/recordSizeLimitExceeded``): at that
    /// element's start tag, with its path, for its handler to throw.
    @inline(never)
    func limitError(_ code: XMLParseError.Code, _ message: String, limit: Int, depth: Int) -> XMLParseError {
        let position =
            depth >= 1 && depth <= stack.count
            ? (line: stack[depth - 1].line, column: stack[depth - 1].column, byteOffset: stack[depth - 1].byteOffset)
            : currentPosition()
        return parseError(code, message, limit: limit, at: position, path: path(depth: depth))
    }

    /// The one way the engine makes an ``XMLParseError``: the position as given (line and
    /// column from 1, the offset from 0), the element path, the parse's source and, in
    /// documents one after another, which document.
    private func parseError(
        _ code: XMLParseError.Code, _ message: String, limit: Int?,
        at position: (line: Int, column: Int, byteOffset: Int), path: ElementPath
    ) -> XMLParseError {
        var error = XMLParseError(
            code: code, message: message, line: max(1, position.line), column: max(1, position.column),
            byteOffset: max(0, position.byteOffset), elementPath: path, limit: limit, source: source)
        if readsConcatenatedDocuments { error.documentNumber = documentNumber }
        return error
    }

    /// Ends the parse because the document broke one of the dispatcher's limits.
    func violate(
        _ violation: LimitGuard.Violation, at position: (line: Int, column: Int, byteOffset: Int)? = nil,
        depth: Int? = nil
    ) {
        violate(violation.code, violation.message, limit: violation.limit, at: position, depth: depth)
    }

    /// Ends the parse with a handler's error, wrapped with the element and position.
    ///
    /// Never inlined: every handler call's `catch` leads here, and inlined into the
    /// per-event paths it would make their frames larger for a path taken once per parse.
    @inline(never)
    func fail(_ error: any Error, in event: HandlerError.Event) {
        guard !isHalted else { return }
        // Deliveries put off from before the failing handler come first; if one of them
        // fails, its error is the one reported.
        deliverDeferred()
        guard !isHalted else { return }
        let position: (line: Int, column: Int, byteOffset: Int)
        switch event {
        case .start, .end, .text:
            let frame = stack.top
            position = (frame.line, frame.column, frame.byteOffset)
        case .processingInstruction, .comment, .doctype, .notation:
            position = currentPosition()
        }
        handlerError = HandlerError(
            underlying: error, event: event, elementPath: currentPath, line: position.line, column: position.column,
            byteOffset: max(0, position.byteOffset))
        isHalted = true
        stopExpat()
    }

    /// Dispatches nothing more, after a parse error.
    func halt() {
        isHalted = true
    }

    func requestStop() {
        guard !isHalted else { return }
        stopRequested = true
        isHalted = true
        stopExpat()
    }

    /// Registers what holds the deliveries that handlers put off in this parse; only while
    /// ``DeferredDelivery/isAllowed``.
    func registerDeferredDelivery(_ holder: any DeferredDelivery.Holder) {
        deferredDelivery.register(holder)
    }

    /// Makes the deliveries that handlers put off, in document order; a failing one ends
    /// the parse with its error.
    func deliverDeferred() {
        guard let holder = deferredDelivery.holder, let error = holder.deliverAll(in: self) else { return }
        handlerError = error
        isHalted = true
        stopExpat()
    }

    /// Whether deferred deliveries are still made: no handler failed and no stop was asked.
    /// A broken limit or a parse error does not stop them, as they came before it.
    var acceptsDeferredDeliveries: Bool { handlerError == nil && !stopRequested }
}

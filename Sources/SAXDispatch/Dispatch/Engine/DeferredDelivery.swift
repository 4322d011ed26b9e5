/// Deliveries that handlers put off until after the expat callback they run in: the hook
/// through which a client of the dispatcher batches work unlike expat's, so that it runs
/// in a row instead of between every two events.
///
/// A client registers one ``Holder`` per parse (``DispatchEngine/registerDeferredDelivery(_:)``),
/// which keeps what it holds in document order. The engine has it deliver everything it
/// holds before a feed, finish or resume call returns, before a handler's error or a parse
/// error is reported, at the end of each document of a concatenated input (whose element
/// names are dropped then, ``DispatchEngine/endDocument()``), and whenever the client asks
/// (``DispatchEngine/deliverDeferred()``), as it does when it holds enough.
///
/// What must stay true: deliveries may be put off (``isAllowed``) only when the handlers
/// that put theirs off are the dispatcher's only handlers (``Dispatcher/hasOnlyDeferringHandlers``),
/// so that no other handler can observe the delay, and never for a stream's parser, which
/// pauses at every value its consumer has not taken instead. A broken limit or a parse
/// error after a held delivery does not stop it (it came first); a handler's error or a
/// stop request drops the deliveries after it, which would never have been reached.
struct DeferredDelivery {
    /// What holds one parse's deferred deliveries.
    protocol Holder: AnyObject {
        /// Makes every delivery it holds, in document order, while
        /// ``DispatchEngine/acceptsDeferredDeliveries``; then lets all of them go, made or not.
        ///
        /// - Returns: The error that a delivery threw, as the handler error to report: it
        ///   names the element and position that the delivery belongs to.
        func deliverAll(in engine: DispatchEngine) -> HandlerError?
    }

    /// Whether handlers may put their deliveries off in this parse.
    let isAllowed: Bool
    /// The registered holder, if a handler put a delivery off.
    private(set) var holder: (any Holder)?

    init(isAllowed: Bool) {
        self.isAllowed = isAllowed
    }

    /// Registers the parse's holder; there is one per parse.
    mutating func register(_ holder: any Holder) {
        precondition(isAllowed, "a delivery was put off in a parse that does not allow it")
        precondition(self.holder == nil || self.holder === holder, "one holder of deferred deliveries per parse")
        self.holder = holder
    }

    /// Drops the holder without delivering what it holds: for a parse whose parser is gone
    /// (``DispatchEngine/letHandlersGo()``), which nothing can deliver to any more.
    mutating func letHolderGo() {
        holder = nil
    }
}

/// A handler kept in a class, so that the engine can call it through an unretained
/// reference.
///
/// Calling a closure copied out of the route table's buffers retains and releases its
/// context around the call: two atomic operations per handler and element. The route
/// table keeps every box alive for the parse and stores `Unmanaged` references to them;
/// the engine calls through `_withUnsafeGuaranteedRef`, which borrows the box and its
/// `let` handler without retaining either.
final class HandlerBox<Handler> {
    let handler: Handler

    init(_ handler: Handler) {
        self.handler = handler
    }
}

/// A handler kept in a class, so that the engine can call it through an unretained
/// reference.
///
/// Calling a closure copied out of the route table's buffers retains and releases its
/// context around the call: two atomic operations per handler and element. The route
/// table keeps every box alive for the parse and stores ``UnretainedHandler``s to them;
/// the engine calls through ``withHandler(_:)``, which borrows the box and its `let`
/// handler without retaining either.
final class HandlerBox<Handler> {
    let handler: Handler

    init(_ handler: Handler) {
        self.handler = handler
    }

    /// Boxes the handlers of each list, appends the boxes to `keptAlive` (which must
    /// outlive every use of the result) and returns unretained references to them.
    static func unretained(_ lists: [[Handler]], keptAlive: inout [AnyObject]) -> [[UnretainedHandler<Handler>]] {
        lists.map { list in
            list.map { handler in
                let box = HandlerBox(handler)
                keptAlive.append(box)
                return .passUnretained(box)
            }
        }
    }
}

/// A reference to a ``HandlerBox`` that something else keeps alive.
typealias UnretainedHandler<Handler> = Unmanaged<HandlerBox<Handler>>

extension Unmanaged {
    /// Runs `body` with the handler of the box this refers to, borrowed: neither is
    /// retained. The box must be alive (the route table keeps it for the parse).
    @inline(__always)
    func withHandler<Handler, Result>(_ body: (Handler) throws -> Result) rethrows -> Result
    where Instance == HandlerBox<Handler> {
        try _withUnsafeGuaranteedRef { try body($0.handler) }
    }
}

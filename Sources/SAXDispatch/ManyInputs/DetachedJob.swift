/// Runs `body`, which blocks (a whole synchronous parse), on a thread of its own and
/// waits for it without holding a thread of the cooperative pool: a batch's jobs must not
/// starve the application's other tasks, nor each other's deliveries.
func runDetached<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async -> Result<Value, any Error> {
    await withCheckedContinuation { continuation in
        let job: @Sendable () -> Void = { continuation.resume(returning: Result { try body() }) }
        // No thread: run here rather than not at all.
        if !startThread(job) { job() }
    }
}

/// Where a ``BoundedQueue`` is in its life. Every transition is a method here, so the
/// queue's rules can be read in one place:
///
/// ```
/// open ──finish()──────────► finished ─┐
///   │  ──finish(throwing:)─► failed ───┼──cancel()──► cancelled
///   └──────────────────────cancel()────┘
/// ```
///
/// The producer ends the values (`finished`, or `failed` with its error, which the consumer
/// receives after every value queued before it); the consumer gives up (`cancelled`: queued
/// values are dropped, producers are refused). The first end wins: finishing twice, or
/// after a cancel, changes nothing, and a cancel overrides a finish the consumer has not
/// reached.
package enum QueueState: Sendable {
    /// Values come and go.
    case open
    /// The producer added its last value.
    case finished
    /// The producer stopped with an error, which follows the values queued before it.
    case failed(any Error)
    /// The consumer is done: no value is added or taken any more.
    case cancelled

    /// Whether the consumer is done with the queue.
    package var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// Whether producers may still add values: until the consumer cancels.
    var acceptsValues: Bool { !isCancelled }

    /// Whether a consumer that finds the queue empty waits for a value.
    var awaitsValues: Bool {
        if case .open = self { return true }
        return false
    }

    /// Ends the values, with `error` when the producer failed; false when they had
    /// already ended or the consumer cancelled.
    mutating func finish(throwing error: (any Error)?) -> Bool {
        guard case .open = self else { return false }
        self = error.map { .failed($0) } ?? .finished
        return true
    }

    /// Says the consumer is done; false when it already was.
    mutating func cancel() -> Bool {
        guard !isCancelled else { return false }
        self = .cancelled
        return true
    }
}

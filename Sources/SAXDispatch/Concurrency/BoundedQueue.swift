/// The package's one bounded blocking queue: values in order from producers to one
/// consumer, at most ``capacity`` of them waiting, however fast the producers are.
///
/// Either side may be a thread of its own, which blocks (``put(_:)``, ``take()``), or a
/// task, which suspends (``send(_:)``, ``receive()``) and so never holds a thread of the
/// cooperative pool. The queue's life is a ``QueueState``:
///
/// - A producer waits while the queue is full, until the consumer takes a value or cancels.
/// - The consumer waits while it is empty, until a producer adds a value or ends the values.
/// - ``finish(throwing:)`` (the producer) ends the values: the consumer takes every value
///   queued before, then gets the end (`nil`) or the producer's error.
/// - ``cancel()`` (the consumer) drops the queued values (returned, for the caller to
///   release what they hold) and refuses every producer from then on.
/// - Both wake every waiter, blocked or suspended, at once.
///
/// ```swift
/// let queue = BoundedQueue<[UInt8]>(capacity: 4)
/// _ = startThread {
///     while let chunk = read() { guard queue.put(chunk) else { return } }  // false: cancelled
///     queue.finish()
/// }
/// while let chunk = try queue.take() { parse(chunk) }
/// ```
///
/// What must stay true: at most `capacity` values are queued (a value handed straight to a
/// consumer that waits is never queued), values come out in the order they went in, one
/// consumer at a time, the producer's error comes after every value queued before it, and
/// no continuation is resumed while the lock is held (the task it resumes may call back).
package final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    // Every stored `var` is guarded by `lock`.
    private let lock = Lock()
    /// Blocked consumers wait on it: a value came, or the values ended.
    private let valueAdded = Condition()
    /// Blocked producers wait on it: a value was taken, or the consumer cancelled.
    private let spaceFreed = Condition()
    /// What a value weighs in ``peak``'s `measured` (its bytes, say); `nil`: nothing.
    private let measure: (@Sendable (Element) -> Int)?

    /// How many values may wait for the consumer, at least 1.
    package let capacity: Int

    private var state = QueueState.open
    private var values: [Element] = []
    private var queuedMeasure = 0
    private var mostValues = 0
    private var mostMeasure = 0
    private var blockedProducers = 0
    private var blockedConsumers = 0
    /// The consumer task suspended in ``receive()``; only while `values` is empty.
    private var suspendedConsumer: CheckedContinuation<Element?, any Error>?
    /// Producer tasks suspended in ``send(_:)`` while the queue is full.
    private var suspendedProducers: [CheckedContinuation<Void, Never>] = []

    /// A queue holding up to `capacity` values (at least 1); `measure` weighs each for
    /// ``peak`` (a chunk's byte count, say).
    package init(capacity: Int, measuringBy measure: (@Sendable (Element) -> Int)? = nil) {
        self.capacity = Swift.max(1, capacity)
        self.measure = measure
    }

    /// Where the queue is in its life now.
    package var currentState: QueueState { lock.withLock { state } }

    /// Whether the consumer is done with the queue: a producer that polls can stop.
    package var isCancelled: Bool { lock.withLock { state.isCancelled } }

    /// The most values that waited for the consumer at once, and the most they weighed.
    package var peak: (values: Int, measured: Int) { lock.withLock { (mostValues, mostMeasure) } }

    /// How many producers and consumers wait now, blocked or suspended.
    package var waiting: (producers: Int, consumers: Int) {
        lock.withLock {
            (blockedProducers + suspendedProducers.count, blockedConsumers + (suspendedConsumer == nil ? 0 : 1))
        }
    }

    // MARK: Producing

    /// Adds `value`, blocking the calling thread while the queue is full; false when the
    /// consumer cancelled, and `value` dropped. For a thread of its own only.
    package func put(_ value: Element) -> Bool {
        lock.lock()
        while values.count >= capacity && state.acceptsValues {
            blockedProducers += 1
            spaceFreed.wait(on: lock)
            blockedProducers -= 1
        }
        guard state.acceptsValues else {
            lock.unlock()
            return false
        }
        let handoff = addLocked(value)
        lock.unlock()
        handoff?.deliver()
        return true
    }

    /// Puts each value `next` makes, blocking while the queue is full, until `next` returns
    /// `nil` (the values are finished), throws (they end with its error) or the consumer
    /// cancels (`next` is not called again): the loop of a producer on a thread of its own.
    package func produce(_ next: () throws -> Element?) {
        while true {
            let value: Element?
            do {
                value = try next()
            } catch {
                finish(throwing: error)
                return
            }
            guard let value else {
                finish()
                return
            }
            guard put(value) else { return }
        }
    }

    /// Adds `value`, suspending while the queue is full; false when the consumer cancelled,
    /// and `value` dropped.
    package func send(_ value: Element) async -> Bool {
        while true {
            let attempt: SendAttempt = lock.withLock {
                guard state.acceptsValues else { return .refused }
                guard values.count < capacity else { return .full }
                return .added(addLocked(value))
            }
            switch attempt {
            case .refused:
                return false
            case .added(let handoff):
                handoff?.deliver()
                return true
            case .full:
                // Until the consumer takes a value or cancels; then tries again.
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let suspended: Bool = lock.withLock {
                        guard state.acceptsValues && values.count >= capacity else { return false }
                        suspendedProducers.append(continuation)
                        return true
                    }
                    if !suspended { continuation.resume() }
                }
            }
        }
    }

    /// Ends the values, with the producer's `error` if it failed: the consumer takes every
    /// value queued before, then gets the end or the error. Only the first end counts, and
    /// none after the consumer cancelled.
    package func finish(throwing error: (any Error)? = nil) {
        let consumer: CheckedContinuation<Element?, any Error>? = lock.withLock {
            guard state.finish(throwing: error) else { return nil }
            valueAdded.broadcast()
            let consumer = suspendedConsumer
            suspendedConsumer = nil
            return consumer
        }
        guard let consumer else { return }
        if let error { consumer.resume(throwing: error) } else { consumer.resume(returning: nil) }
    }

    /// What one try of ``send(_:)`` found.
    private enum SendAttempt {
        case refused
        case added(Handoff?)
        case full
    }

    /// A suspended consumer and the value it is handed.
    private struct Handoff {
        let consumer: CheckedContinuation<Element?, any Error>
        let value: Element
        func deliver() { consumer.resume(returning: value) }
    }

    /// Queues `value`, or hands it to the suspended consumer; under the lock.
    private func addLocked(_ value: Element) -> Handoff? {
        if let consumer = suspendedConsumer {
            suspendedConsumer = nil
            return Handoff(consumer: consumer, value: value)
        }
        values.append(value)
        mostValues = Swift.max(mostValues, values.count)
        if let measure {
            queuedMeasure += measure(value)
            mostMeasure = Swift.max(mostMeasure, queuedMeasure)
        }
        valueAdded.broadcast()
        return nil
    }

    // MARK: Consuming

    /// The next value, blocking the calling thread while the queue is empty; `nil` at the
    /// end of the values, or once the consumer cancelled. For a thread of its own only.
    ///
    /// - Throws: The producer's error, after every value queued before it.
    package func take() throws -> Element? {
        lock.lock()
        while values.isEmpty && state.awaitsValues {
            blockedConsumers += 1
            valueAdded.wait(on: lock)
            blockedConsumers -= 1
        }
        if !values.isEmpty {
            let (value, producers) = removeFirstLocked()
            lock.unlock()
            for producer in producers { producer.resume() }
            return value
        }
        let end = state
        lock.unlock()
        if case .failed(let error) = end { throw error }
        return nil
    }

    /// The next value, or `nil` at the end of the values, suspending while the queue is
    /// empty, never blocking a thread.
    ///
    /// - Throws: The producer's error, after every value queued before it;
    ///   `CancellationError` once the consumer cancelled, and when the task is cancelled
    ///   (which cancels the queue).
    package func receive() async throws -> Element? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Element?, any Error>) in
                lock.lock()
                if !values.isEmpty {
                    let (value, producers) = removeFirstLocked()
                    lock.unlock()
                    for producer in producers { producer.resume() }
                    continuation.resume(returning: value)
                    return
                }
                switch state {
                case .open:
                    precondition(suspendedConsumer == nil, "a BoundedQueue has one consumer at a time")
                    suspendedConsumer = continuation
                    lock.unlock()
                case .finished:
                    lock.unlock()
                    continuation.resume(returning: nil)
                case .failed(let error):
                    lock.unlock()
                    continuation.resume(throwing: error)
                case .cancelled:
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Says the consumer is done: the queued values are dropped and returned, every
    /// producer, waiting or to come, is refused, and a suspended ``receive()`` throws
    /// `CancellationError`. Cancelling again changes nothing and returns no value.
    @discardableResult
    package func cancel() -> [Element] {
        lock.lock()
        guard state.cancel() else {
            lock.unlock()
            return []
        }
        let dropped = values
        values = []
        queuedMeasure = 0
        let consumer = suspendedConsumer
        suspendedConsumer = nil
        let producers = suspendedProducers
        suspendedProducers = []
        valueAdded.broadcast()
        spaceFreed.broadcast()
        lock.unlock()
        for producer in producers { producer.resume() }
        consumer?.resume(throwing: CancellationError())
        return dropped
    }

    /// Takes the first queued value, and the producers to wake now that there is room;
    /// under the lock.
    private func removeFirstLocked() -> (Element, [CheckedContinuation<Void, Never>]) {
        let value = values.removeFirst()
        if let measure { queuedMeasure -= measure(value) }
        spaceFreed.broadcast()
        let producers = suspendedProducers
        suspendedProducers = []
        return (value, producers)
    }
}

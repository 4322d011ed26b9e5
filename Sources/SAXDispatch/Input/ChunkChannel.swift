#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A bounded queue of byte chunks from one producer (a reading thread, or a task that
/// writes) to the parse that consumes them: a producer that gets ahead waits, so at most
/// `capacity` chunks wait between them however fast the producer is.
///
/// The consumer waits with a continuation, never blocking a thread of the cooperative
/// pool; a reading thread waits on a condition variable, an asynchronous producer with a
/// continuation. When the consumer is done (the parse ended, its task was cancelled, the
/// stream's iteration was dropped) the channel is closed and every waiting producer
/// returns false.
final class ChunkChannel: @unchecked Sendable {
    // Every stored property is guarded by `mutex`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let spaceFreed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let capacity: Int
    private var chunks: [[UInt8]] = []
    private var bufferedBytes = 0
    private var mostBufferedBytes = 0
    private var mostBufferedChunks = 0
    /// The end of the input: `nil` while it goes on, then the producer's error or nothing.
    private var end: Result<Void, any Error>?
    private var isClosed = false
    private var waitingConsumer: CheckedContinuation<[UInt8]?, any Error>?
    private var waitingProducers: [CheckedContinuation<Bool, Never>] = []

    /// A channel holding up to `capacity` chunks (at least 1).
    init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(spaceFreed, nil)
    }

    deinit {
        pthread_cond_destroy(spaceFreed)
        pthread_mutex_destroy(mutex)
        spaceFreed.deallocate()
        mutex.deallocate()
    }

    private func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// The most bytes and chunks that waited for the consumer at once.
    var peak: (bytes: Int, chunks: Int) { locked { (mostBufferedBytes, mostBufferedChunks) } }

    /// Whether the consumer is done with the channel.
    var isConsumerDone: Bool { locked { isClosed } }

    // MARK: Producing

    /// Adds a chunk, blocking the calling thread while the channel is full; false when the
    /// consumer is done, and the chunk dropped. For a dedicated thread only.
    func sendBlocking(_ chunk: [UInt8]) -> Bool {
        pthread_mutex_lock(mutex)
        while chunks.count >= capacity && !isClosed {
            pthread_cond_wait(spaceFreed, mutex)
        }
        let closed = isClosed
        let consumer = enqueueLocked(chunk)
        pthread_mutex_unlock(mutex)
        guard let consumer else { return !closed }
        consumer.resume(returning: consumer.chunk)
        return true
    }

    /// Adds a chunk, suspending while the channel is full; false when the consumer is done.
    func send(_ chunk: [UInt8]) async -> Bool {
        while true {
            enum Outcome { case closed, sent(Handoff?), full }
            let outcome: Outcome = locked {
                if isClosed { return .closed }
                if chunks.count >= capacity { return .full }
                return .sent(enqueueLocked(chunk))
            }
            switch outcome {
            case .closed: return false
            case .sent(let consumer):
                consumer?.resume(returning: consumer?.chunk)
                return true
            case .full:
                // Waits until the consumer takes a chunk or closes; then tries again.
                let open = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    let ready: Bool? = locked {
                        if isClosed { return false }
                        if chunks.count < capacity { return true }
                        waitingProducers.append(continuation)
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
                if !open { return false }
            }
        }
    }

    /// Ends the input, with the producer's error if it failed; the consumer takes the
    /// chunks before it first.
    func finish(throwing error: (any Error)? = nil) {
        let consumer: CheckedContinuation<[UInt8]?, any Error>? = locked {
            guard end == nil else { return nil }
            end = error.map { .failure($0) } ?? .success(())
            guard chunks.isEmpty, let consumer = waitingConsumer else { return nil }
            waitingConsumer = nil
            return consumer
        }
        guard let consumer else { return }
        if let error { consumer.resume(throwing: error) } else { consumer.resume(returning: nil) }
    }

    /// A consumer waiting for the chunk it is handed.
    private struct Handoff {
        let continuation: CheckedContinuation<[UInt8]?, any Error>
        let chunk: [UInt8]
        func resume(returning chunk: [UInt8]?) { continuation.resume(returning: chunk) }
    }

    /// Queues `chunk`, or hands it straight to a waiting consumer; under the lock.
    private func enqueueLocked(_ chunk: [UInt8]) -> Handoff? {
        guard !isClosed else { return nil }
        if let consumer = waitingConsumer {
            waitingConsumer = nil
            return Handoff(continuation: consumer, chunk: chunk)
        }
        chunks.append(chunk)
        bufferedBytes += chunk.count
        mostBufferedBytes = Swift.max(mostBufferedBytes, bufferedBytes)
        mostBufferedChunks = Swift.max(mostBufferedChunks, chunks.count)
        return nil
    }

    // MARK: Consuming

    /// The next chunk, or `nil` at the end of the input, waiting for the producer without
    /// blocking a thread.
    ///
    /// - Throws: The producer's error, after every chunk before it; `CancellationError`
    ///   when the task is cancelled (the channel is then closed).
    func receive() async throws -> [UInt8]? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8]?, any Error>) in
                pthread_mutex_lock(mutex)
                if !chunks.isEmpty {
                    let chunk = chunks.removeFirst()
                    bufferedBytes -= chunk.count
                    let producers = takeProducersLocked()
                    pthread_mutex_unlock(mutex)
                    wake(producers)
                    continuation.resume(returning: chunk)
                } else if isClosed {
                    pthread_mutex_unlock(mutex)
                    continuation.resume(throwing: CancellationError())
                } else if let end {
                    pthread_mutex_unlock(mutex)
                    continuation.resume(with: end.map { nil })
                } else {
                    waitingConsumer = continuation
                    pthread_mutex_unlock(mutex)
                }
            }
        } onCancel: {
            close(cancelling: true)
        }
    }

    /// Says that the consumer is done: waiting producers return false, queued chunks are
    /// dropped, and a waiting consumer throws `CancellationError` if `cancelling`.
    func close(cancelling: Bool = false) {
        pthread_mutex_lock(mutex)
        isClosed = true
        chunks.removeAll()
        bufferedBytes = 0
        let consumer = waitingConsumer
        waitingConsumer = nil
        let producers = takeProducersLocked()
        pthread_mutex_unlock(mutex)
        wake(producers)
        consumer?.resume(throwing: CancellationError())
    }

    /// The producers to wake now that there is room (or the channel closed); under the lock.
    private func takeProducersLocked() -> [CheckedContinuation<Bool, Never>] {
        pthread_cond_broadcast(spaceFreed)
        let producers = waitingProducers
        waitingProducers.removeAll()
        return producers
    }

    private func wake(_ producers: [CheckedContinuation<Bool, Never>]) {
        for producer in producers { producer.resume(returning: true) }
    }
}

import Foundation
import SAXDispatch
import Testing

/// The kit's bounded queue: order, back-pressure, the producer's end and error after the
/// values before it, and a consumer's cancel, for threads that block and tasks that
/// suspend. Every wait is a handshake (a semaphore, or the queue's own count of waiters),
/// never a sleep.
@Suite("BoundedQueue: order, back-pressure, finish and cancel", .timeLimit(.minutes(1)))
struct BoundedQueueTests {
    struct Broke: Error, Equatable {}

    /// Waits, without sleeping, until `condition` holds: it holds once another thread
    /// reached the state the test waits for.
    static func waitUntil(_ condition: () -> Bool) {
        while !condition() { sched_yield() }
    }

    /// The same, for a test that suspends.
    static func waitUntil(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test("values come out in the order they went in, then the end, again and again")
    func order() throws {
        let queue = BoundedQueue<Int>(capacity: 3)
        for value in 1...3 { #expect(queue.put(value)) }
        #expect(try queue.take() == 1)
        #expect(queue.put(4))
        queue.finish()
        var taken: [Int] = []
        while let value = try queue.take() { taken.append(value) }
        #expect(taken == [2, 3, 4])
        #expect(try queue.take() == nil)
        #expect(queue.peak.values == 3)
        guard case .finished = queue.currentState else {
            Issue.record("expected finished, got \(queue.currentState)")
            return
        }
    }

    @Test("a producer blocks while the queue is full, until the consumer takes a value")
    func producerBlocksWhenFull() throws {
        let queue = BoundedQueue<Int>(capacity: 2)
        let added = LockedValue(0)
        let done = DispatchSemaphore(value: 0)
        #expect(
            startThread {
                for value in 0..<5 {
                    guard queue.put(value) else { break }
                    added.withLock { $0 += 1 }
                }
                queue.finish()
                done.signal()
            })
        // Blocked in its third put: two values wait, and no more.
        Self.waitUntil { queue.waiting.producers == 1 }
        #expect(added.withLock { $0 } == 2)
        #expect(try queue.take() == 0)
        // The take made room for one value: the producer adds it and blocks again.
        Self.waitUntil { added.withLock { $0 } == 3 && queue.waiting.producers == 1 }
        var taken: [Int] = []
        while let value = try queue.take() { taken.append(value) }
        done.wait()
        #expect(taken == [1, 2, 3, 4])
        #expect(queue.peak.values == 2)
    }

    @Test("finishing with an error wakes a blocked consumer, after the values before it")
    func finishWakesConsumer() throws {
        let queue = BoundedQueue<Int>(capacity: 2)
        let taken = LockedValue<[Int]>([])
        let failure = LockedValue<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        #expect(
            startThread {
                do {
                    while let value = try queue.take() { taken.withLock { $0.append(value) } }
                } catch {
                    failure.withLock { $0 = error }
                }
                done.signal()
            })
        Self.waitUntil { queue.waiting.consumers == 1 }
        #expect(queue.put(7))
        // The consumer took 7 and blocks again on the empty queue.
        Self.waitUntil { taken.withLock { $0 } == [7] && queue.waiting.consumers == 1 }
        queue.finish(throwing: Broke())
        done.wait()
        #expect(taken.withLock { $0 } == [7])
        #expect((failure.withLock { $0 } as? Broke) == Broke())

        // Queued values come first; the error stays for every later take.
        let queued = BoundedQueue<Int>(capacity: 2)
        #expect(queued.put(1))
        #expect(queued.put(2))
        queued.finish(throwing: Broke())
        queued.finish()  // the first end counts
        #expect(try queued.take() == 1)
        #expect(try queued.take() == 2)
        #expect(throws: Broke.self) { try queued.take() }
        #expect(throws: Broke.self) { try queued.take() }
    }

    @Test("cancelling wakes a blocked producer, refuses it, and returns the queued values")
    func cancelWakesProducer() throws {
        let queue = BoundedQueue<Int>(capacity: 2)
        let refused = LockedValue<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        #expect(
            startThread {
                for value in 0..<5 {
                    guard queue.put(value) else {
                        refused.withLock { $0 = value }
                        break
                    }
                }
                done.signal()
            })
        Self.waitUntil { queue.waiting.producers == 1 }
        let dropped = queue.cancel()
        done.wait()
        #expect(dropped == [0, 1])
        #expect(refused.withLock { $0 } == 2)
        #expect(queue.currentState.isCancelled)
        #expect(try queue.take() == nil)
        #expect(!queue.put(9))
        #expect(queue.cancel().isEmpty)
        queue.finish(throwing: Broke())  // too late: the consumer is gone
        #expect(queue.isCancelled)
    }

    @Test("produce puts each value made until the maker throws, and the error follows them")
    func produceFinishesWithTheError() throws {
        let queue = BoundedQueue<Int>(capacity: 1)
        let made = LockedValue(0)
        #expect(
            startThread {
                queue.produce {
                    let value = made.withLock { count in
                        count += 1
                        return count
                    }
                    guard value <= 3 else { throw Broke() }
                    return value
                }
            })
        var taken: [Int] = []
        #expect(throws: Broke.self) {
            while let value = try queue.take() { taken.append(value) }
        }
        #expect(taken == [1, 2, 3])
        #expect(queue.peak.values == 1)

        // A cancel stops the producer: it makes no value after the one it was refused.
        let cancelled = BoundedQueue<Int>(capacity: 1)
        let calls = LockedValue(0)
        let done = DispatchSemaphore(value: 0)
        #expect(
            startThread {
                cancelled.produce {
                    calls.withLock { count in
                        count += 1
                        return count
                    }
                }
                done.signal()
            })
        Self.waitUntil { cancelled.waiting.producers == 1 }
        cancelled.cancel()
        done.wait()
        #expect(calls.withLock { $0 } == 2)
    }

    @Test("a suspended receiver is handed the value without queueing it, then the producer's error")
    func receiverGetsHandoffThenError() async throws {
        let queue = BoundedQueue<Int>(capacity: 1)
        let receiving = Task {
            var values: [Int] = []
            do {
                while let value = try await queue.receive() { values.append(value) }
            } catch {
                return (values, error as? Broke)
            }
            return (values, nil)
        }
        await Self.waitUntil { queue.waiting.consumers == 1 }
        #expect(queue.put(1))
        await Self.waitUntil { queue.waiting.consumers == 1 && queue.peak.values == 0 }
        queue.finish(throwing: Broke())
        let (values, error) = await receiving.value
        #expect(values == [1])
        #expect(error == Broke())
        #expect(queue.peak.values == 0)
    }

    @Test("a sender suspends while the queue is full, and a cancel refuses it")
    func senderSuspendsUntilCancel() async throws {
        let queue = BoundedQueue<[UInt8]>(capacity: 1, measuringBy: { $0.count })
        let sending = Task {
            var sent = 0
            for chunk in [[1, 2, 3], [4], [5]] as [[UInt8]] {
                guard await queue.send(chunk) else { break }
                sent += 1
            }
            return sent
        }
        await Self.waitUntil { queue.waiting.producers == 1 }
        #expect(try await queue.receive() == [1, 2, 3])
        await Self.waitUntil { queue.peak.values == 1 && queue.waiting.producers == 1 && queue.waiting.consumers == 0 }
        #expect(queue.cancel() == [[4]])
        #expect(await sending.value == 2)
        #expect(queue.peak == (values: 1, measured: 3))
        await #expect(throws: CancellationError.self) { try await queue.receive() }
    }

    @Test("cancelling the receiving task cancels the queue and ends the receive")
    func taskCancellationCancelsQueue() async throws {
        let queue = BoundedQueue<Int>(capacity: 1)
        let receiving = Task { try await queue.receive() }
        await Self.waitUntil { queue.waiting.consumers == 1 }
        receiving.cancel()
        await #expect(throws: CancellationError.self) { try await receiving.value }
        #expect(queue.isCancelled)
        #expect(await queue.send(1) == false)
    }
}

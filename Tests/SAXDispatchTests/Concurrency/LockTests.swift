import Foundation
import SAXDispatch
import Testing

/// The kit's lock, locked value and thread starter: exclusive access under contention
/// from threads of their own, counted exactly.
@Suite("Lock, LockedValue and startThread", .timeLimit(.minutes(1)))
struct LockTests {
    static let threads = 8
    static let incrementsPerThread = 20_000

    /// Runs `body` on `threads` threads started by the kit at once, and waits for all.
    static func onThreads(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            let started = startThread {
                body()
                done.signal()
            }
            #expect(started)
        }
        for _ in 0..<threads { done.wait() }
    }

    @Test("a locked value under contention from several threads gives the exact count")
    func lockedValueCounts() {
        let count = LockedValue(0)
        Self.onThreads {
            for _ in 0..<Self.incrementsPerThread { count.withLock { $0 += 1 } }
        }
        #expect(count.withLock { $0 } == Self.threads * Self.incrementsPerThread)
    }

    @Test("the lock guards a class's stored state the same way")
    func lockCounts() {
        final class Tally: @unchecked Sendable {
            let lock = Lock()
            // Guarded by `lock`.
            var value = 0
        }
        let tally = Tally()
        Self.onThreads {
            for _ in 0..<Self.incrementsPerThread { tally.lock.withLock { tally.value += 1 } }
        }
        #expect(tally.lock.withLock { tally.value } == Self.threads * Self.incrementsPerThread)
    }

    @Test("startThread runs its body on another thread and says it started")
    func startsAThread() {
        let caller = pthread_self()
        let ranElsewhere = LockedValue<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        #if canImport(Darwin)
        let callerID = UInt(bitPattern: caller)
        #else
        let callerID = UInt(caller)
        #endif
        let started = startThread {
            #if canImport(Darwin)
            let here = UInt(bitPattern: pthread_self())
            #else
            let here = UInt(pthread_self())
            #endif
            ranElsewhere.withLock { $0 = here != callerID }
            done.signal()
        }
        #expect(started)
        done.wait()
        #expect(ranElsewhere.withLock { $0 } == true)
    }
}

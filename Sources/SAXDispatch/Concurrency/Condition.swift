#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A condition variable paired with a ``Lock``: how a thread of its own waits, without
/// spinning, until another thread changes the state the lock guards.
///
/// ```swift
/// lock.lock()
/// while queue.isEmpty && !isClosed { elementAdded.wait(on: lock) }
/// ...
/// lock.unlock()
/// ```
///
/// What must stay true: a waiter holds the lock and tests its predicate in a loop (a wait
/// may end without a signal), and a thread that changes the predicate does so holding the
/// lock, then signals or broadcasts. Never wait on a thread of the cooperative pool: tasks
/// wait with continuations instead.
package final class Condition: @unchecked Sendable {
    /// Allocated once and never moved: a pthread condition must keep its address.
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        condition = .allocate(capacity: 1)
        let result = pthread_cond_init(condition, nil)
        precondition(result == 0, "pthread_cond_init failed: \(result)")
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Releases `lock`, which the calling thread holds, waits for a signal, and takes the
    /// lock again before it returns.
    package func wait(on lock: Lock) {
        let result = pthread_cond_wait(condition, lock.mutex)
        precondition(result == 0, "pthread_cond_wait failed: \(result)")
    }

    /// Wakes every waiting thread.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

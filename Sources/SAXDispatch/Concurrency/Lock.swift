#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The package's one mutual-exclusion lock: the owner of a pthread mutex, for state that
/// threads of their own (reading, decompressing, parsing many files) share.
///
/// Use ``LockedValue`` when the lock guards one value, and this type when it guards several
/// stored properties of a class (say which in a comment) or pairs with a ``Condition``.
/// The standard library's `Mutex` needs macOS 15, above the package's platforms.
///
/// What must stay true: the lock is not recursive (a thread that holds it must not take it
/// again), every `lock()` is followed by one `unlock()` on the same thread, and no code
/// that may block on another thread (a read, a wait for a queue) runs while it is held,
/// except ``Condition/wait(on:)``, which releases it while waiting.
package final class Lock: @unchecked Sendable {
    /// Allocated once and never moved: a pthread mutex must keep its address.
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the lock, waiting while another thread holds it.
    package func lock() {
        let result = pthread_mutex_lock(mutex)
        // A failure means a destroyed mutex or a thread taking it twice: going on would race.
        precondition(result == 0, "pthread_mutex_lock failed: \(result)")
    }

    /// Gives the lock back; the calling thread must hold it.
    package func unlock() {
        let result = pthread_mutex_unlock(mutex)
        precondition(result == 0, "pthread_mutex_unlock failed: \(result)")
    }

    /// Runs `body` holding the lock, and gives it back however `body` ends.
    @inline(__always)
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

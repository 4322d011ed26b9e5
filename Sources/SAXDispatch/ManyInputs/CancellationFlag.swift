#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A flag set once, from any thread, and read from the threads that parse: how a
/// cancelled batch reaches the synchronous reads of its running parses.
final class CancellationFlag: @unchecked Sendable {
    // `isSet` is guarded by `mutex`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var flag = false

    init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Whether ``set()`` was called.
    var isSet: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return flag
    }

    /// Sets the flag; it stays set.
    func set() {
        pthread_mutex_lock(mutex)
        flag = true
        pthread_mutex_unlock(mutex)
    }
}

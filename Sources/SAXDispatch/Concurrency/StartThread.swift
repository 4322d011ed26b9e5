#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs `body` on a new detached thread: the package's one way to start a thread, for work
/// that blocks (reads, decompression, whole synchronous parses) and so must not hold a
/// thread of the cooperative pool.
///
/// The thread has the platform's default attributes (its default stack size for a new
/// thread, no name) and is detached: nothing joins it, and it ends when `body` returns.
/// What `body` captures is released on that thread.
///
/// ```swift
/// let work: @Sendable () -> Void = { readEverything(into: queue) }
/// if !startThread(work) { work() }  // no thread: here rather than not at all
/// ```
///
/// - Returns: Whether the thread started; when it did not (the system has no thread to
///   give), `body` did not run and the caller decides what to do instead.
package func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    /// What crosses to the new thread as its one C argument, retained until it ran.
    final class Start {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Start(body)).toOpaque()
    let entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        guard let context else { return nil }
        Unmanaged<Start>.fromOpaque(context).takeRetainedValue().body()
        return nil
    }
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    guard pthread_create(&thread, nil, entry, context) == 0 else {
        Unmanaged<Start>.fromOpaque(context).release()
        return false
    }
    #if canImport(Darwin)
    if let thread { pthread_detach(thread) }
    #else
    pthread_detach(thread)
    #endif
    return true
}

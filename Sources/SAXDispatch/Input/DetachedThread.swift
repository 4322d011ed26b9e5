#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs `body` on a new detached thread: for work that blocks (reads, whole parses), which
/// must not hold a thread of the cooperative pool. When no thread can be made, `body` runs
/// on the calling thread rather than not at all.
func detachThread(_ body: @escaping @Sendable () -> Void) {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    let entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
        box.body()
        return nil
    }
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let result = pthread_create(&thread, nil, entry, context)
    guard result == 0 else {
        // No thread: run here rather than not at all.
        Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
        return
    }
    #if canImport(Darwin)
    if let thread { pthread_detach(thread) }
    #else
    pthread_detach(thread)
    #endif
}

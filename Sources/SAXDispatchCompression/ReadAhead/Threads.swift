#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SAXDispatch

/// Runs `body` on a new detached thread; false when no thread can be made, and `body` not run.
func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    let entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        guard let context else { return nil }
        Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
        return nil
    }
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    guard pthread_create(&thread, nil, entry, context) == 0 else {
        Unmanaged<Box>.fromOpaque(context).release()
        return false
    }
    #if canImport(Darwin)
    if let thread { pthread_detach(thread) }
    #else
    pthread_detach(thread)
    #endif
    return true
}

/// The processors online, for how many threads decompress at once: at least 1.
func processorCount() -> Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}

/// Moves a reader to another thread. Unchecked `Sendable`: the thread that made it never
/// touches the reader again.
final class ReaderHandoff: @unchecked Sendable {
    let reader: any XMLInputReader
    init(_ reader: any XMLInputReader) { self.reader = reader }
}

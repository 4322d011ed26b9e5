/// A flag set once, from any thread, and read from the threads that parse: how a
/// cancelled batch reaches the synchronous reads of its running parses.
struct CancellationFlag: Sendable {
    private let flag = LockedValue(false)

    /// Whether ``set()`` was called.
    var isSet: Bool { flag.withLock { $0 } }

    /// Sets the flag; it stays set.
    func set() {
        flag.withLock { $0 = true }
    }
}

/// A value that threads share, reached only through ``withLock(_:)``: the package's one
/// way to guard a single value (a count, a flag, a setting) with a ``Lock``.
///
/// ```swift
/// let counted = LockedValue(0)
/// counted.withLock { $0 += bytes }
/// let total = counted.withLock { $0 }
/// ```
///
/// What must stay true: the value is never reached but inside `withLock`, and `body`
/// neither blocks on another thread nor lets the `inout` value escape.
package final class LockedValue<Value> {
    private let lock = Lock()
    // Guarded by `lock`.
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value, holding the lock; what `body` returns is returned.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}

/// Sendable when the value is: the lock makes every access to it exclusive.
extension LockedValue: @unchecked Sendable where Value: Sendable {}

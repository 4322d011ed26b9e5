#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The last prefix and namespace URI the writer's scope was found to bind, at one scope
/// generation: the prefixed attributes of one copied element, and of its siblings, are
/// checked against it before the scope is searched.
struct VerifiedBinding: ~Copyable {
    private(set) var generation: UInt64 = 0
    /// The prefix, a 0 byte, the URI.
    private var bytes = TextBuffer(capacity: 128)
    private var prefixCount = 0

    @inline(__always)
    func matches(prefix: UnsafeRawBufferPointer, uri: UnsafeRawBufferPointer) -> Bool {
        guard prefixCount == prefix.count, bytes.count == prefix.count + 1 + uri.count else { return false }
        let stored = bytes.bytes(from: 0)
        return Self.equal(UnsafeRawBufferPointer(rebasing: stored[..<prefix.count]), prefix)
            && Self.equal(UnsafeRawBufferPointer(rebasing: stored[(prefix.count + 1)...]), uri)
    }

    @inline(__always)
    private static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let first = a.baseAddress, let second = b.baseAddress else { return true }
        return memcmp(first, second, a.count) == 0
    }

    mutating func remember(prefix: UnsafeRawBufferPointer, uri: UnsafeRawBufferPointer, generation: UInt64) {
        bytes.truncate(to: 0)
        bytes.appendBytes(prefix)
        bytes.append(0)
        bytes.appendBytes(uri)
        prefixCount = prefix.count
        self.generation = generation
    }
}

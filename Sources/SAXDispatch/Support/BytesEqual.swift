#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether two runs of bytes are the same, compared as memory: how names and URIs already
/// in memory (expat's, a writer's, a selector's) are compared without making strings.
@inline(__always)
func bytesEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    guard let first = a.baseAddress, let second = b.baseAddress else { return true }
    return memcmp(first, second, a.count) == 0
}

/// Whether the UTF-8 of `string` is `bytes`.
@inline(__always)
func bytesEqual(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
    guard string.utf8.count == bytes.count else { return false }
    return string.utf8.withContiguousStorageIfAvailable { bytesEqual(UnsafeRawBufferPointer($0), bytes) }
        ?? string.utf8.elementsEqual(bytes)
}

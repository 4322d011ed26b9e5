#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What ``readFully(_:into:count:path:)`` read: how many bytes, and the failure that ended
/// the read early, if one did. The bytes before a failure are good: the caller parses
/// them before it reports the failure, so that nothing the input held before it is lost.
struct DescriptorRead {
    var count: Int
    var failure: XMLInputError?
}

/// Reads up to `count` bytes from a file descriptor into `buffer`, retrying after
/// interruptions; fewer only at the end of the input or when a read fails, which the
/// result names (`path` names the input in the error).
func readFully(_ fileDescriptor: Int32, into buffer: UnsafeMutableRawPointer?, count: Int, path: String?)
    -> DescriptorRead
{
    guard let buffer else { return DescriptorRead(count: 0) }
    var filled = 0
    while filled < count {
        let result = readFromDescriptor(fileDescriptor, buffer + filled, count - filled)
        if result > 0 {
            filled += result
        } else if result == 0 {
            break
        } else if errno != EINTR {
            let number = errno
            return DescriptorRead(count: filled, failure: .readFailed(path: path, errorNumber: number))
        }
    }
    return DescriptorRead(count: filled)
}

#if canImport(Glibc)
private let readFromDescriptor = Glibc.read
#elseif canImport(Darwin)
private let readFromDescriptor = Darwin.read
#elseif canImport(Musl)
private let readFromDescriptor = Musl.read
#endif

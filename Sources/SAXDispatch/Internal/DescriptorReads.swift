#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads up to `count` bytes from a file descriptor into `buffer`, retrying after
/// interruptions; fewer only at the end of the input.
///
/// - Throws: ``XMLInputError`` naming `path` when a read fails.
func readFully(_ fileDescriptor: Int32, into buffer: UnsafeMutableRawPointer?, count: Int, path: String?)
    throws(XMLInputError) -> Int
{
    guard let buffer else { return 0 }
    var filled = 0
    while filled < count {
        let result = readFromDescriptor(fileDescriptor, buffer + filled, count - filled)
        if result > 0 {
            filled += result
        } else if result == 0 {
            break
        } else if errno != EINTR {
            let number = errno
            throw XMLInputError.readFailed(path: path, errorNumber: number)
        }
    }
    return filled
}

#if canImport(Glibc)
private let readFromDescriptor = Glibc.read
#elseif canImport(Darwin)
private let readFromDescriptor = Darwin.read
#elseif canImport(Musl)
private let readFromDescriptor = Musl.read
#endif

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes to a file descriptor: a file it created (and closes), or one it was given
/// (standard output, a pipe, a socket), which it leaves open.
final class DescriptorWriter: XMLOutputWriter {
    private var descriptor: Int32
    private let closesDescriptor: Bool
    /// Names the output in an error.
    let name: String

    /// Creates (or empties) the file at `path` and writes it.
    init(creating path: String, name: String) throws {
        let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard opened >= 0 else {
            let number = errno
            throw XMLWriterError(
                code: .outputFailed, message: "cannot create file: \(String(cString: strerror(number)))", output: name,
                errorNumber: number)
        }
        descriptor = opened
        closesDescriptor = true
        self.name = name
    }

    /// Writes `descriptor`, which stays open.
    init(borrowing descriptor: Int32, name: String) {
        self.descriptor = descriptor
        closesDescriptor = false
        self.name = name
    }

    deinit {
        if closesDescriptor && descriptor >= 0 { _ = closeDescriptor(descriptor) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let result = writeDescriptor(descriptor, base + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                throw failure("write failed")
            }
            written += result
        }
    }

    func close() throws {
        guard closesDescriptor && descriptor >= 0 else { return }
        let result = closeDescriptor(descriptor)
        descriptor = -1
        if result != 0 { throw failure("close failed") }
    }

    private func failure(_ what: String) -> XMLWriterError {
        let number = errno
        return XMLWriterError(
            code: .outputFailed, message: "\(what): \(String(cString: strerror(number)))", output: name, errorNumber: number)
    }
}

// The system's calls, out of the class, whose own `write` and `close` would hide them.
private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a file descriptor: a file it opened (and closes when done with it or dropped),
/// or one it was given (standard input, a pipe), which it leaves open.
final class DescriptorReader: XMLInputReader {
    private var descriptor: Int32
    private let closesDescriptor: Bool
    /// Names the input in a read error.
    let name: String
    /// What owns a borrowed descriptor (a `FileHandle`), kept alive while the reader reads.
    var owner: AnyObject?
    /// For a reading thread: asked while a blocking descriptor has nothing to read; a
    /// read ends with `CancellationError` once it returns true. (A non-blocking
    /// descriptor's read says itself that nothing is there: a read failure, as it is
    /// when read synchronously.)
    var stopsWhen: (() -> Bool)? {
        didSet {
            if stopsWhen != nil && descriptor >= 0 && fcntl(descriptor, F_GETFL) & O_NONBLOCK != 0 { stopsWhen = nil }
        }
    }

    /// Reads `descriptor`, which stays open.
    init(borrowing descriptor: Int32, name: String) {
        self.descriptor = descriptor
        closesDescriptor = false
        self.name = name
    }

    /// Reads an open descriptor that the reader closes (for tests that read a pipe as a file).
    init(owning descriptor: Int32, name: String) {
        self.descriptor = descriptor
        closesDescriptor = true
        self.name = name
    }

    /// Opens the file at `path` for reading.
    ///
    /// - Throws: ``XMLInputError/cannotOpen(path:errorNumber:)``, with `name` as its path.
    init(opening path: String, name: String) throws(XMLInputError) {
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw XMLInputError.cannotOpen(path: name, errorNumber: errno) }
        self.descriptor = descriptor
        closesDescriptor = true
        self.name = name
    }

    deinit {
        if closesDescriptor && descriptor >= 0 { close(descriptor) }
    }

    /// Moves past the next `count` bytes without reading them, when the descriptor is a
    /// file that can seek; `false` (nothing moved) otherwise.
    func skip(_ count: Int) -> Bool {
        guard descriptor >= 0, count >= 0 else { return false }
        return lseek(descriptor, off_t(count), SEEK_CUR) >= 0
    }

    /// One read, retried after interruptions; a file the reader opened is closed at its end.
    ///
    /// - Throws: ``XMLInputError/readFailed(path:errorNumber:)`` when the read fails.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty, descriptor >= 0 else { return 0 }
        if let stopsWhen { try waitUntilReadable(orStopped: stopsWhen) }
        while true {
            let result = readFromDescriptor(descriptor, base, buffer.count)
            if result > 0 { return result }
            if result == 0 {
                if closesDescriptor {
                    close(descriptor)
                    descriptor = -1
                }
                return 0
            }
            if errno != EINTR { throw XMLInputError.readFailed(path: name, errorNumber: errno) }
        }
    }
}

extension DescriptorReader {
    /// Waits until the descriptor has something to read (or its end, or an error, which
    /// the read then reports), asking `stopped` every tenth of a second.
    ///
    /// - Throws: `CancellationError` once `stopped` returns true.
    private func waitUntilReadable(orStopped stopped: () -> Bool) throws(CancellationError) {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            if stopped() { throw CancellationError() }
            let result = poll(&request, 1, 100)
            if result > 0 || (result < 0 && errno != EINTR) { return }
        }
    }
}

#if canImport(Glibc)
private let readFromDescriptor = Glibc.read
#elseif canImport(Darwin)
private let readFromDescriptor = Darwin.read
#elseif canImport(Musl)
private let readFromDescriptor = Musl.read
#endif

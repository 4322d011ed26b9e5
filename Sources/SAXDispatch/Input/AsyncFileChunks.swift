#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file's contents as an asynchronous sequence of byte arrays, `chunkSize` bytes each
/// (the last one shorter), read as the consumer asks for them.
///
/// Each iteration opens the file (when it first asks for a chunk) and closes it at the
/// end, after an error, or when the iterator is dropped. Reads are ordinary blocking
/// reads of one chunk: short for local files, so they do not hold a task's thread for
/// long; for a pipe or a network file system, prefer an asynchronous byte source.
///
/// The streams' `contentsOfFile:` variants read through one; use it directly to pick
/// the chunk size or to wrap the chunks (a decompressor, a progress count):
///
/// ```swift
/// let chunks = AsyncFileChunks(path: path, chunkSize: 1 << 20)
/// for try await page in decoder.stream(Page.self, at: "page", chunks: chunks, source: path) {
///     print(page.title)
/// }
/// ```
public struct AsyncFileChunks: AsyncSequence, Sendable {
    public typealias Element = [UInt8]
    public typealias Failure = any Error

    /// The file read.
    public let path: String
    /// The size of each chunk but the last.
    public let chunkSize: Int

    /// The file at `path`, in chunks of `chunkSize` bytes (at least 1).
    public init(path: String, chunkSize: Int = Dispatcher.defaultChunkSize) {
        self.path = path
        self.chunkSize = Swift.max(1, chunkSize)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(file: OpenFile(path: path), chunkSize: chunkSize)
    }

    /// Reads the next chunk on demand.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let file: OpenFile
        let chunkSize: Int

        /// The next chunk, or `nil` at the end of the file.
        ///
        /// - Throws: ``XMLInputError`` when the file cannot be opened or read, or
        ///   `CancellationError` when the task is cancelled.
        public mutating func next() async throws -> [UInt8]? {
            try Task.checkCancellation()
            return try file.read(upTo: chunkSize)
        }
    }

    /// The descriptor of one iteration, closed when the iteration ends or is dropped.
    final class OpenFile {
        let path: String
        private var descriptor: Int32 = -1
        private var isDone = false
        /// A read failure after the bytes handed on before it, for the next call to throw.
        private var pendingFailure: XMLInputError?

        init(path: String) {
            self.path = path
        }

        /// Reads an open descriptor (for tests), which the iteration then owns and closes.
        init(path: String, openDescriptor: Int32) {
            self.path = path
            descriptor = openDescriptor
        }

        deinit {
            if descriptor >= 0 { close(descriptor) }
        }

        /// The next chunk, or `nil` at the end. A read failure ends the iteration; the bytes
        /// read before it come first, as a shorter chunk, and the next call throws it.
        func read(upTo count: Int) throws(XMLInputError) -> [UInt8]? {
            if let failure = pendingFailure {
                pendingFailure = nil
                throw failure
            }
            guard !isDone else { return nil }
            if descriptor < 0 {
                repeat {
                    descriptor = open(path, O_RDONLY | O_CLOEXEC)
                } while descriptor < 0 && errno == EINTR
                guard descriptor >= 0 else {
                    let number = errno
                    isDone = true
                    throw XMLInputError.cannotOpen(path: path, errorNumber: number)
                }
            }
            var failure: XMLInputError?
            let chunk = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                let read = readFully(descriptor, into: buffer.baseAddress, count: count, path: path)
                initialized = read.count
                failure = read.failure
            }
            if failure != nil || chunk.count < count { finish() }
            if let failure {
                guard !chunk.isEmpty else { throw failure }
                pendingFailure = failure
            }
            return chunk.isEmpty ? nil : chunk
        }

        private func finish() {
            isDone = true
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }
}

@available(*, unavailable)
extension AsyncFileChunks.AsyncIterator: Sendable {}

/// An asynchronous sequence of bytes, such as `URLSession.AsyncBytes`, gathered into
/// arrays of `chunkSize` bytes (the last one shorter), so that a parser is fed in
/// pieces rather than byte by byte.
///
/// ``XMLStream``'s `bytes:` initializers wrap their source in one. A chunk is handed on
/// only when full (or at the end), so for a slow interactive source whose values should
/// arrive as soon as their bytes do, choose a small `chunkSize`.
public struct AsyncByteChunks<Bytes: AsyncSequence>: AsyncSequence where Bytes.Element == UInt8 {
    public typealias Element = [UInt8]
    public typealias Failure = any Error

    let bytes: Bytes
    let chunkSize: Int

    /// Gathers `bytes` into chunks of `chunkSize` bytes (at least 1).
    public init(_ bytes: Bytes, chunkSize: Int = Dispatcher.defaultChunkSize) {
        self.bytes = bytes
        self.chunkSize = Swift.max(1, chunkSize)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(bytes: bytes.makeAsyncIterator(), chunkSize: chunkSize)
    }

    /// Reads bytes until a chunk is full or the bytes end.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var bytes: Bytes.AsyncIterator
        let chunkSize: Int
        var ended = false
        /// What the bytes threw after some bytes of a chunk: thrown after that chunk.
        var pendingError: (any Error)?

        /// The bytes that came before an error are handed on first; the error follows.
        private mutating func handOn(_ chunk: [UInt8], failedWith error: any Error) throws -> [UInt8] {
            guard !chunk.isEmpty else { throw error }
            pendingError = error
            return chunk
        }

        private mutating func throwPendingError() throws {
            guard let error = pendingError else { return }
            pendingError = nil
            throw error
        }

        /// The next chunk, or `nil` when the bytes have ended.
        ///
        /// - Throws: What the byte sequence throws, after a chunk of the bytes before it.
        public mutating func next() async throws -> [UInt8]? {
            guard !ended else { return nil }
            try throwPendingError()
            var chunk: [UInt8] = []
            chunk.reserveCapacity(chunkSize)
            while chunk.count < chunkSize {
                do {
                    guard let byte = try await bytes.next() else {
                        ended = true
                        break
                    }
                    chunk.append(byte)
                } catch {
                    return try handOn(chunk, failedWith: error)
                }
            }
            return chunk.isEmpty ? nil : chunk
        }

        /// The next chunk, or `nil` when the bytes have ended; reads in the caller's isolation.
        ///
        /// - Throws: What the byte sequence throws, after a chunk of the bytes before it.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> [UInt8]? {
            guard !ended else { return nil }
            try throwPendingError()
            var chunk: [UInt8] = []
            chunk.reserveCapacity(chunkSize)
            while chunk.count < chunkSize {
                do {
                    guard let byte = try await bytes.next(isolation: actor) else {
                        ended = true
                        break
                    }
                    chunk.append(byte)
                } catch {
                    return try handOn(chunk, failedWith: error)
                }
            }
            return chunk.isEmpty ? nil : chunk
        }
    }
}

extension AsyncByteChunks: Sendable where Bytes: Sendable {}

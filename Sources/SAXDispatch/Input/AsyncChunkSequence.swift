/// An asynchronous source of byte chunks with its type erased per chunk, for
/// ``AsyncXMLInput``.
///
/// The closures are made in generic, inlinable code (``gathering(_:)``, ``feeding(_:)``),
/// so that the loop over the source's elements, a byte at a time for a byte sequence,
/// is specialized where the input is made; only handing on a chunk is an indirect call.
@usableFromInline
struct AsyncChunkSequence: Sendable {
    /// Receives a chunk's bytes, valid only during the call; returns whether to go on.
    @usableFromInline typealias Body = (UnsafeRawBufferPointer) -> Bool

    /// Hands every chunk to `body`, in the caller's isolation, until `body` returns false
    /// or the source ends. The bytes gathered before an error the source throws are
    /// handed on first; then the error is thrown as it is.
    @usableFromInline let forEach: nonisolated(nonsending) @Sendable (_ chunkSize: Int, _ body: Body) async throws -> Void
    /// The iterator of one pass, for a stream, which pulls a chunk at a time.
    @usableFromInline let makeIterator: @Sendable (_ chunkSize: Int) -> AsyncChunkIterator

    @inlinable
    init(
        forEach: nonisolated(nonsending) @escaping @Sendable (_ chunkSize: Int, _ body: Body) async throws -> Void,
        makeIterator: @escaping @Sendable (_ chunkSize: Int) -> AsyncChunkIterator
    ) {
        self.forEach = forEach
        self.makeIterator = makeIterator
    }

    /// A sequence of bytes, gathered into chunks of `chunkSize` bytes (the last one shorter).
    @inlinable
    static func gathering<Bytes: AsyncSequence & Sendable>(_ bytes: Bytes) -> AsyncChunkSequence
    where Bytes.Element == UInt8 {
        AsyncChunkSequence(
            forEach: { chunkSize, body in
                var chunk: [UInt8] = []
                chunk.reserveCapacity(chunkSize)
                do {
                    for try await byte in bytes {
                        chunk.append(byte)
                        if chunk.count >= chunkSize {
                            guard chunk.withUnsafeBytes(body) else { return }
                            chunk.removeAll(keepingCapacity: true)
                        }
                    }
                } catch {
                    if !chunk.isEmpty { _ = chunk.withUnsafeBytes(body) }
                    throw error
                }
                if !chunk.isEmpty { _ = chunk.withUnsafeBytes(body) }
            },
            makeIterator: { chunkSize in
                AsyncChunkIterator(ByteGathering(bytes.makeAsyncIterator(), chunkSize: chunkSize))
            })
    }

    /// A sequence of byte chunks, each handed on as it comes.
    @inlinable
    static func feeding<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) -> AsyncChunkSequence
    where Chunks.Element: Sequence<UInt8> {
        AsyncChunkSequence(
            forEach: { _, body in
                for try await chunk in chunks {
                    guard handOn(chunk, to: body) else { return }
                }
            },
            makeIterator: { _ in AsyncChunkIterator(ChunkFeeding(chunks.makeAsyncIterator())) })
    }
}

/// Calls `body` with the bytes of `chunk`, where they are when they are contiguous.
@inlinable
func handOn<Result>(_ chunk: some Sequence<UInt8>, to body: (UnsafeRawBufferPointer) -> Result) -> Result {
    if let result = chunk.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
    return Array(chunk).withUnsafeBytes(body)
}

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
                var gathering = GatheredBytes(bytes.makeAsyncIterator(), chunkSize: chunkSize)
                while true {
                    // One executor hop per chunk, not per byte (see gatherChunk).
                    let (chunk, error) = await gatherChunk(&gathering)
                    if !chunk.isEmpty {
                        guard chunk.withUnsafeBytes(body) else { return }
                    }
                    if let error { throw error }
                    if gathering.ended { return }
                }
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

/// A byte iterator and the chunk size it is gathered in, moved into ``gatherChunk(_:)``.
@usableFromInline
struct GatheredBytes<Base: AsyncIteratorProtocol>: @unchecked Sendable where Base.Element == UInt8 {
    // Unchecked: one pass owns it, and only ever one call of gatherChunk uses it at a time.
    @usableFromInline var base: Base
    @usableFromInline let chunkSize: Int
    @usableFromInline var ended = false

    @inlinable
    init(_ base: Base, chunkSize: Int) {
        self.base = base
        self.chunkSize = chunkSize
    }
}

/// Gathers up to `chunkSize` bytes from the iterator: the chunk, and the error that cut
/// it short, if one did (the bytes before it are good).
///
/// Concurrent on purpose, and generic and inlinable so that it is specialized for the
/// byte sequence where the input is made: a byte iterator's `next()` is nonisolated, so
/// calling it from the caller's isolation (an actor, the main actor) would hop off and
/// back on for every byte, while here the whole chunk is gathered on the generic executor
/// in one hop, with the iterator's `next()` a direct, inlinable call.
@inlinable
@concurrent
func gatherChunk<Base>(_ gathering: inout GatheredBytes<Base>) async -> (chunk: [UInt8], error: (any Error)?) {
    var chunk: [UInt8] = []
    chunk.reserveCapacity(gathering.chunkSize)
    do {
        while chunk.count < gathering.chunkSize {
            guard let byte = try await gathering.base.next() else {
                gathering.ended = true
                break
            }
            chunk.append(byte)
        }
    } catch {
        gathering.ended = true
        return (chunk, error)
    }
    return (chunk, nil)
}

/// Calls `body` with the bytes of `chunk`, where they are when they are contiguous.
@inlinable
func handOn<Result>(_ chunk: some Sequence<UInt8>, to body: (UnsafeRawBufferPointer) -> Result) -> Result {
    if let result = chunk.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
    return Array(chunk).withUnsafeBytes(body)
}

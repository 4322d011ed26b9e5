/// One pass over an ``AsyncXMLInput``, a chunk at a time, for an ``XMLStream``'s
/// iteration: the source's iterator behind a closure, so that the stream's type names
/// only its element.
@usableFromInline
struct AsyncChunkIterator {
    /// Receives a chunk's bytes, valid only during the call.
    @usableFromInline typealias Body = (UnsafeRawBufferPointer) -> Void

    /// Hands the next chunk to `body`, or returns false at the end of the input.
    ///
    /// - Throws: The source's error, after a chunk of the bytes that came before it.
    @usableFromInline let next: (_ body: Body) async throws -> Bool
    /// The same, pulling from the source in the caller's isolation; `nil` on the
    /// platforms before `next(isolation:)`, where only ``next`` is called.
    @usableFromInline let nextInIsolation: (nonisolated(nonsending) (_ body: Body) async throws -> Bool)?

    @inlinable
    init<Base>(_ base: ByteGathering<Base>) {
        next = { try await base.next($0) }
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            nextInIsolation = { body in try await base.next(isolation: #isolation, body) }
        } else {
            nextInIsolation = nil
        }
    }

    @inlinable
    init<Base>(_ base: ChunkFeeding<Base>) {
        next = { try await base.next($0) }
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            nextInIsolation = { body in try await base.next(isolation: #isolation, body) }
        } else {
            nextInIsolation = nil
        }
    }

    /// Receives the chunks of a channel: a reading thread's or a producer's.
    init(_ reading: ChannelReading) {
        next = { body in try await reading.next(body) }
        nextInIsolation = { body in try await reading.next(body) }
    }

    /// Reads an ``XMLInput`` a chunk at a time, synchronously.
    init(_ reading: InputReading) {
        next = { body in try reading.next(body) }
        nextInIsolation = { body in try reading.next(body) }
    }
}

/// Gathers an asynchronous sequence of bytes into chunks of `chunkSize` bytes (the last
/// one shorter), a chunk per executor hop (``gatherChunk(_:)``); the bytes before an error
/// come first, as a shorter chunk.
@usableFromInline
final class ByteGathering<Base: AsyncIteratorProtocol> where Base.Element == UInt8 {
    @usableFromInline var gathering: GatheredBytes<Base>
    /// What the bytes threw after some bytes of a chunk: thrown after that chunk.
    @usableFromInline var pendingError: (any Error)?

    @inlinable
    init(_ base: Base, chunkSize: Int) {
        gathering = GatheredBytes(base, chunkSize: chunkSize)
    }

    @inlinable
    nonisolated(nonsending) func next(_ body: AsyncChunkIterator.Body) async throws -> Bool {
        if let error = pendingError {
            pendingError = nil
            throw error
        }
        if gathering.ended { return false }
        let (chunk, error) = await gatherChunk(&gathering)
        if let error {
            guard !chunk.isEmpty else { throw error }
            pendingError = error
        }
        guard !chunk.isEmpty else { return false }
        chunk.withUnsafeBytes(body)
        return true
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @inlinable
    func next(isolation actor: isolated (any Actor)?, _ body: AsyncChunkIterator.Body) async throws -> Bool {
        try await next(body)
    }
}

/// Hands on the chunks of an asynchronous sequence of byte chunks as they come.
@usableFromInline
final class ChunkFeeding<Base: AsyncIteratorProtocol> where Base.Element: Sequence<UInt8> {
    @usableFromInline var base: Base

    @inlinable
    init(_ base: Base) {
        self.base = base
    }

    @inlinable
    func next(_ body: AsyncChunkIterator.Body) async throws -> Bool {
        guard let chunk = try await base.next() else { return false }
        handOn(chunk, to: body)
        return true
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @inlinable
    func next(isolation actor: isolated (any Actor)?, _ body: AsyncChunkIterator.Body) async throws -> Bool {
        guard let chunk = try await base.next(isolation: actor) else { return false }
        handOn(chunk, to: body)
        return true
    }
}

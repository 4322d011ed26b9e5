/// One pass over an input that reaches the parse through a ``ChunkChannel``: a
/// synchronous input read on a thread of its own, or a producer task writing chunks.
///
/// The producer starts at the first chunk asked for; when the pass ends or is dropped,
/// the channel is cancelled, which ends the reading thread and cancels the producer task.
final class ChannelReading: @unchecked Sendable {
    // Used from one task at a time, like the stream iterator that holds it.
    let channel: ChunkChannel
    private var start: ((ChunkChannel) -> Task<Void, Never>?)?
    private var producer: Task<Void, Never>?

    /// A pass that calls `start` with its channel at the first chunk asked for.
    init(capacity: Int, start: @escaping (ChunkChannel) -> Task<Void, Never>?) {
        channel = ChunkChannel(chunks: capacity)
        self.start = start
    }

    /// Reads a synchronous input on a thread of its own, one chunk waiting at most.
    convenience init(_ input: XMLInput, chunkSize: Int) {
        self.init(capacity: 1) { channel in
            ReadingThread.start(reading: input, chunkSize: chunkSize, into: channel)
            return nil
        }
    }

    deinit {
        channel.cancel()
        producer?.cancel()
    }

    /// Hands the next chunk to `body`, or returns false at the end of the input.
    ///
    /// - Throws: The producer's error after the chunks before it, or `CancellationError`.
    nonisolated(nonsending) func next(_ body: (UnsafeRawBufferPointer) -> Void) async throws -> Bool {
        if let start {
            self.start = nil
            producer = start(channel)
        }
        guard let chunk = try await channel.receive() else { return false }
        chunk.withUnsafeBytes(body)
        return true
    }

    /// Ends the pass: the producer stops at its next chunk.
    func close() {
        channel.cancel()
        producer?.cancel()
    }
}

import SAXDispatch

/// A bounded queue of decompressed blocks from the thread that decompresses to the parse
/// that reads them: the package's ``SAXDispatch/BoundedQueue`` of blocks, with the blocks
/// the parse has read going back to the decompressor to be filled again, so a parse
/// allocates no block after the first few.
///
/// A decompressor that gets ahead waits, so at most `capacity` blocks wait between them
/// (and one more is filled, one read) however fast it is. Both sides are threads that
/// block: the decompressor its own, the parse the thread that reads its input (a
/// synchronous parse's own, or the reading thread of an asynchronous one, never a thread
/// of the cooperative pool).
final class BlockQueue: Sendable {
    /// Decompressed bytes: `bytes[..<count]`.
    struct Block: Sendable {
        var bytes: [UInt8]
        var count: Int
    }

    private let blocks: BoundedQueue<Block>
    /// Blocks read and handed back, to be filled again: at most `capacity` of them.
    private let spare = LockedValue<[[UInt8]]>([])
    private let blockSize: Int

    /// A queue of up to `capacity` blocks (at least 1) of `blockSize` bytes each.
    init(capacity: Int, blockSize: Int) {
        blocks = BoundedQueue(capacity: capacity)
        self.blockSize = max(1, blockSize)
    }

    // MARK: Decompressing

    /// A block to fill: one the parse has read, or a new one.
    func emptyBlock() -> [UInt8] {
        spare.withLock { $0.popLast() } ?? [UInt8](repeating: 0, count: blockSize)
    }

    /// Adds a filled block, waiting while the queue is full; false when the parse is done
    /// with the queue, and the block dropped.
    func put(_ block: Block) -> Bool {
        blocks.put(block)
    }

    /// Puts each block `next` fills until it returns `nil` or throws (the end, or the
    /// error the parse reads after the blocks before it), or the parse is done with the queue.
    func produce(_ next: () throws -> Block?) {
        blocks.produce(next)
    }

    /// Ends the input: the parse reads the blocks before, then the end or `error`.
    func finish(throwing error: (any Error)? = nil) {
        blocks.finish(throwing: error)
    }

    // MARK: Reading

    /// The next block, waiting while none is ready; `nil` at the end, or once the queue is
    /// closed (its reader is then stopping too).
    ///
    /// - Throws: The error that ended the input, after every block before it.
    func take() throws -> Block? {
        try blocks.take()
    }

    /// Hands a block that was read back to be filled again.
    func recycle(_ bytes: [UInt8]) {
        spare.withLock { spare in
            if spare.count < blocks.capacity { spare.append(bytes) }
        }
    }

    /// The parse is done with the queue: a waiting decompressor stops, and the blocks
    /// queued and kept for filling are released.
    func close() {
        blocks.cancel()
        spare.withLock { $0.removeAll() }
    }
}

import SAXDispatch

/// Decompresses on a thread of its own into a ``BlockQueue``, a few blocks ahead of the
/// parse: decompressing and parsing then take two cores instead of one after the other.
///
/// The thread fills a block with one read of its reader (which returns when the block is
/// full or it needs more compressed input), hands it over, and waits while the queue is
/// full. It ends at the end of the input, after an error (which the parse receives after
/// the blocks before it), or when the parse is done with the queue; a read of a pipe that
/// waits for its writer ends first.
enum DecompressionThread {
    /// Starts the thread that reads `reader` into `queue`; from then on only that thread
    /// uses `reader`. False when no thread could be made, and `reader` is left to the caller.
    static func start(_ reader: DecompressingReader, into queue: BlockQueue) -> Bool {
        let handoff = ReaderHandoff(reader)
        return startThread {
            var reader = handoff.reader
            queue.produce {
                var bytes = queue.emptyBlock()
                let count = try bytes.withUnsafeMutableBytes { try reader.read(into: $0) }
                return count > 0 ? BlockQueue.Block(bytes: bytes, count: count) : nil
            }
        }
    }
}

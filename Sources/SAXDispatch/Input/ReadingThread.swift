/// Reads an ``XMLInput`` on a thread of its own into a ``ChunkChannel``, so that an
/// asynchronous parse of a file, a pipe or standard input never blocks a thread of the
/// cooperative pool on a read.
///
/// The thread (``startThread(_:)``) reads a chunk, waits while the channel is full (the
/// parser is behind), and ends at the end of the input, after a failed read (which the
/// consumer receives after the chunks before it), or once the consumer cancelled the
/// channel. A descriptor is polled before each read, so that a consumer that is done ends
/// a thread waiting on a pipe that sends nothing within a tenth of a second.
enum ReadingThread {
    /// Starts the thread that reads `input`, `chunkSize` bytes at most per read.
    static func start(reading input: XMLInput, chunkSize: Int, into channel: ChunkChannel) {
        let chunkSize = Swift.max(1, chunkSize)
        let read: @Sendable () -> Void = {
            var reader: any XMLInputReader
            do {
                reader = try input.makeReader(stoppingWhen: { channel.isCancelled })
            } catch {
                channel.finish(throwing: error)
                return
            }
            channel.produce {
                var chunk = [UInt8](repeating: 0, count: chunkSize)
                let count = try chunk.withUnsafeMutableBytes { try reader.read(into: $0) }
                guard count > 0 else { return nil }
                chunk.removeSubrange(count...)
                return chunk
            }
        }
        // No thread: read here rather than not at all.
        if !startThread(read) { read() }
    }
}

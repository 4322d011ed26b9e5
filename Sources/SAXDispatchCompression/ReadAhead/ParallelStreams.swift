#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SAXDispatch

/// Decompresses the streams of a multi-stream bzip2 file (as `pbzip2` and Wikipedia's
/// multistream dumps write them) on several threads at once, handing their output to the
/// parse in order.
///
/// A splitting thread reads the compressed input and cuts it where a stream begins: the
/// bytes `BZh1`…`BZh9` followed by a block's magic number (`1AY&SY`), which streams begin
/// on byte boundaries. Each piece (a *segment*: one or more whole streams) is fed, a
/// chunk at a time, to a `DecompressingReader` on a thread of its own, whose output waits
/// in the segment's own bounded queue. At most `threads` segments are decoded ahead of the
/// one the parse reads, so memory stays at a few blocks and a decompressor per thread.
///
/// Those ten bytes may also occur inside a stream's compressed bits. Cutting there leaves
/// the segment before without its stream's end, which its decompressor reports as a
/// truncated stream: a cut in the wrong place is an error, never different bytes. The
/// chance for bytes that nobody crafted is about one in 2^77 per byte.
enum ParallelStreams {
    /// One piece of the input and its decompressed output.
    final class Segment: Sendable {
        /// Compressed chunks, from the splitting thread to the segment's decompressor.
        let input = BlockQueue(capacity: 4, blockSize: DecompressingReader.compressedChunkSize)
        /// Decompressed blocks, from the segment's decompressor to the parse.
        let output = BlockQueue(capacity: 2, blockSize: DecompressingReader.blockSize)

        /// Stops both of its threads: the parse is done with it.
        func close() {
            input.close()
            output.close()
        }
    }

    /// Starts splitting `base` (bzip2 input from its start) into segments decoded on up to
    /// `threads` threads; the parse takes the segments from the queue, in order.
    ///
    /// - Returns: `nil` when no thread could be made, and `base` is left to the caller.
    static func start(_ base: any XMLInputReader, name: String, threads: Int) -> SegmentQueue? {
        let segments = SegmentQueue(capacity: max(1, threads))
        let handoff = ReaderHandoff(base)
        let started = startThread {
            split(handoff.reader, name: name, into: segments)
        }
        return started ? segments : nil
    }

    /// The splitting thread: reads the input, cuts it at stream starts, starts a thread
    /// per segment and feeds it.
    private static func split(_ base: any XMLInputReader, name: String, into segments: SegmentQueue) {
        var base = base
        var pending: [UInt8] = []
        var pendingOffset = 0
        var chunk = [UInt8](repeating: 0, count: DecompressingReader.compressedChunkSize)
        guard var current = startSegment(at: 0, name: name, into: segments) else { return }
        /// Hands `pending[..<count]` to the current segment; false when the parse is done.
        func feed(_ count: Int) -> Bool {
            var from = 0
            while from < count {
                let size = min(count - from, DecompressingReader.compressedChunkSize)
                var block = current.input.emptyBlock()
                block.withUnsafeMutableBytes { destination in
                    pending.withUnsafeBytes { source in
                        destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from..<(from + size)]))
                    }
                }
                guard current.input.put(BlockQueue.Block(bytes: block, count: size)) else { return false }
                from += size
            }
            pending.removeFirst(count)
            pendingOffset += count
            return true
        }
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try base.read(into: $0) }
            } catch {
                guard feed(pending.count) else { return }
                current.input.finish(throwing: error)
                segments.finish()
                return
            }
            if count == 0 {
                guard feed(pending.count) else { return }
                current.input.finish()
                segments.finish()
                return
            }
            pending += chunk[..<count]
            // A stream that begins at the segment's first byte is the segment's own.
            var searchFrom = pendingOffset == current.startOffset ? 1 : 0
            while let cut = streamStart(in: pending, from: searchFrom) {
                guard feed(cut) else { return }
                current.input.finish()
                guard let next = startSegment(at: pendingOffset, name: name, into: segments) else { return }
                current = next
                searchFrom = 1
            }
            // The last bytes may begin a stream start that the next read completes.
            let keep = min(pending.count, streamStartLength - 1)
            guard feed(pending.count - keep) else { return }
        }
    }

    /// `BZh` and a block size digit, then the first block's magic number.
    private static let streamStartLength = 10

    /// Where the first stream start at or after `from` begins, when all of it is in `bytes`.
    private static func streamStart(in bytes: [UInt8], from: Int) -> Int? {
        guard bytes.count >= streamStartLength else { return nil }
        var index = from
        while index + streamStartLength <= bytes.count {
            if bytes[index] == 0x42, bytes[index + 1] == 0x5A, bytes[index + 2] == 0x68,
                (0x31...0x39).contains(bytes[index + 3]), bytes[index + 4] == 0x31, bytes[index + 5] == 0x41,
                bytes[index + 6] == 0x59, bytes[index + 7] == 0x26, bytes[index + 8] == 0x53, bytes[index + 9] == 0x59
            {
                return index
            }
            index += 1
        }
        return nil
    }

    /// A segment starting at compressed byte `offset`, its decompressor running, queued for
    /// the parse (waiting while `threads` segments are ahead of it); `nil` when the parse is done.
    private static func startSegment(at offset: Int, name: String, into segments: SegmentQueue) -> SegmentState? {
        let segment = Segment()
        let started = startThread {
            decode(segment, startingAt: offset, name: name)
        }
        guard started else {
            segment.output.finish(
                throwing: DecompressionError(
                    name: name, format: .bzip2, code: .memoryLimit, message: "no thread to decompress bzip2 input",
                    compressedOffset: offset))
            _ = segments.put(segment)
            segments.finish()
            return nil
        }
        guard segments.put(segment) else {
            segment.close()
            return nil
        }
        return SegmentState(input: segment.input, startOffset: offset)
    }

    /// What the splitting thread keeps of the segment it feeds.
    private struct SegmentState {
        let input: BlockQueue
        let startOffset: Int
    }

    /// A segment's thread: decompresses its chunks into its output.
    private static func decode(_ segment: Segment, startingAt offset: Int, name: String) {
        let reader = DecompressingReader(QueueReader(queue: segment.input), name: name, inBackground: false)
        while true {
            var bytes = segment.output.emptyBlock()
            let count: Int
            do {
                count = try bytes.withUnsafeMutableBytes { try reader.read(into: $0) }
            } catch var error as DecompressionError {
                // The segment's decompressor counts from the segment's start.
                error.compressedOffset = error.compressedOffset.map { $0 + offset }
                segment.input.close()
                segment.output.finish(throwing: error)
                return
            } catch {
                segment.input.close()
                segment.output.finish(throwing: error)
                return
            }
            guard count > 0 else {
                segment.output.finish()
                return
            }
            guard segment.output.put(BlockQueue.Block(bytes: bytes, count: count)) else {
                segment.input.close()
                return
            }
        }
    }

    /// Reads the chunks of a queue, as a segment's compressed input.
    private struct QueueReader: XMLInputReader {
        let queue: BlockQueue
        var block: BlockQueue.Block?
        var offset = 0

        init(queue: BlockQueue) {
            self.queue = queue
        }

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            if block == nil || offset == block?.count {
                if let read = block { queue.recycle(read.bytes) }
                block = try queue.take()
                offset = 0
            }
            guard let current = block else { return 0 }
            let count = min(buffer.count, current.count - offset)
            current.bytes.withUnsafeBytes { bytes in
                UnsafeMutableRawBufferPointer(rebasing: buffer[..<count])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
            }
            offset += count
            return count
        }
    }
}

/// The segments of a parallel decompression, in input order, from the splitting thread to
/// the parse; the splitting thread waits while `capacity` are queued.
///
/// Unchecked `Sendable`: every stored property is guarded by `mutex`.
final class SegmentQueue: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let capacity: Int
    private var segments: [ParallelStreams.Segment] = []
    private var isFinished = false
    private var isClosed = false

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// Queues a segment, waiting while the queue is full; false when the parse is done.
    func put(_ segment: ParallelStreams.Segment) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while segments.count >= capacity && !isClosed {
            pthread_cond_wait(changed, mutex)
        }
        guard !isClosed else { return false }
        segments.append(segment)
        pthread_cond_broadcast(changed)
        return true
    }

    /// No segment follows the queued ones.
    func finish() {
        pthread_mutex_lock(mutex)
        isFinished = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// The next segment, waiting while none is queued; `nil` after the last.
    func take() -> ParallelStreams.Segment? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while segments.isEmpty && !isFinished && !isClosed {
            pthread_cond_wait(changed, mutex)
        }
        guard !segments.isEmpty else { return nil }
        let segment = segments.removeFirst()
        pthread_cond_broadcast(changed)
        return segment
    }

    /// The parse is done: every queued segment's threads stop, and the splitting thread with them.
    func close() {
        pthread_mutex_lock(mutex)
        isClosed = true
        let queued = segments
        segments.removeAll()
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
        for segment in queued { segment.close() }
    }
}

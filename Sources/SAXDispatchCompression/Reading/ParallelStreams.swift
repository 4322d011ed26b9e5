import SAXDispatch

/// Decompresses the blocks of a bzip2 file (one stream as `bzip2` writes, or many as
/// `pbzip2` and Wikipedia's multistream dumps write), or the frames of a zstd file of many
/// (as `pzstd` writes), on several threads at once, handing their output to the parse in
/// order.
///
/// A splitting thread reads the compressed input and cuts it into pieces that decompress
/// on their own (``Bzip2BlockSplitter``): each stream of one block as it is, each block of
/// a longer stream as a stream of its own, so that a single-stream file decompresses in
/// parallel too. Each piece (a *segment*) is fed, a chunk at a time, to a
/// `DecompressingReader` on a thread of its own, whose output waits in the segment's own
/// bounded queue. At most `threads` segments are decoded ahead of the one the parse reads,
/// so memory stays at a few blocks and a decompressor per thread. A cut in the wrong place
/// (the splitter's markers inside a block's data) is an error, never different bytes.
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

    /// The segments, in input order, from the splitting thread to the parse; the splitting
    /// thread waits while `threads` of them are queued.
    typealias Queue = BoundedQueue<Segment>

    /// Starts splitting `base` (bzip2 input from its start) into segments decoded on up to
    /// `threads` threads; the parse takes the segments from the queue, in order.
    ///
    /// - Returns: `nil` when no thread could be made, and `base` is left to the caller.
    static func start(
        _ base: any XMLInputReader, format: CompressionFormat, name: String, threads: Int, minimumPieceBytes: Int
    ) -> Queue? {
        let segments = Queue(capacity: max(1, threads))
        let handoff = ReaderHandoff(base)
        let started = startThread {
            if format == .zstd {
                split(handoff.reader, ZstdFrameSplitter(minimumPieceBytes: minimumPieceBytes), format: format, name: name, into: segments)
            } else {
                split(handoff.reader, Bzip2BlockSplitter(minimumPieceBytes: minimumPieceBytes), format: format, name: name, into: segments)
            }
        }
        return started ? segments : nil
    }

    /// The parse is done: every queued segment's threads stop, and the splitting thread
    /// with them, at its next segment.
    static func stop(_ segments: Queue) {
        for segment in segments.cancel() { segment.close() }
    }

    /// The splitting thread: reads the input, cuts it into pieces (bzip2 streams and blocks
    /// with ``Bzip2BlockSplitter``, zstd frames with ``ZstdFrameSplitter``), starts a thread
    /// per segment and feeds it.
    private static func split(
        _ base: any XMLInputReader, _ splitter: some CompressedPieceSplitter, format: CompressionFormat, name: String,
        into segments: Queue
    ) {
        var base = base
        var chunk = [UInt8](repeating: 0, count: DecompressingReader.compressedChunkSize)
        var splitter = splitter
        var sink = SegmentSink(name: name, format: format, segments: segments)
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try base.read(into: $0) }
            } catch {
                splitter.finish(to: &sink, endingOpenPiece: false)
                sink.fail(error)
                return
            }
            if count == 0 {
                splitter.finish(to: &sink, endingOpenPiece: true)
                segments.finish()
                return
            }
            guard chunk.withUnsafeBytes({ splitter.append(UnsafeRawBufferPointer(rebasing: $0[..<count]), to: &sink) })
            else { return }
        }
    }

    /// Gives the splitter's pieces to segments, a thread each.
    private struct SegmentSink: CompressedPieceSink {
        let name: String
        let format: CompressionFormat
        let segments: Queue
        /// The segment of the open piece, or of the last one once it ended.
        var current: SegmentState?
        var isOpen = false

        init(name: String, format: CompressionFormat, segments: Queue) {
            self.name = name
            self.format = format
            self.segments = segments
        }

        mutating func begin(at offset: Int) -> Bool {
            current = startSegment(at: offset, format: format, name: name, into: segments)
            isOpen = current != nil
            return current != nil
        }

        mutating func add(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard let current, isOpen else { return false }
            var from = 0
            while from < bytes.count {
                let size = min(bytes.count - from, DecompressingReader.compressedChunkSize)
                var block = current.input.emptyBlock()
                block.withUnsafeMutableBytes { destination in
                    destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[from..<(from + size)]))
                }
                guard current.input.put(BlockQueue.Block(bytes: block, count: size)) else { return false }
                from += size
            }
            return true
        }

        mutating func end() {
            current?.input.finish()
            isOpen = false
        }

        /// The base reader failed: its error follows the open piece's bytes, as a sequential
        /// read would meet it, or comes after the last piece in a segment of its own.
        mutating func fail(_ error: any Error) {
            if let current, isOpen {
                current.input.finish(throwing: error)
                isOpen = false
            } else {
                let segment = Segment()
                segment.output.finish(throwing: error)
                _ = segments.put(segment)
            }
            segments.finish()
        }
    }

    /// A segment starting at compressed byte `offset`, its decompressor running, queued for
    /// the parse (waiting while `threads` segments are ahead of it); `nil` when the parse is done.
    private static func startSegment(at offset: Int, format: CompressionFormat, name: String, into segments: Queue) -> SegmentState? {
        let segment = Segment()
        let started = startThread {
            decode(segment, startingAt: offset, name: name)
        }
        guard started else {
            segment.output.finish(
                throwing: DecompressionError(
                    name: name, format: format, code: .memoryLimit, message: "no thread to decompress \(format.name) input",
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
        reader.mapsLargeAllocations = true
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

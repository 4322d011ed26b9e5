import SAXDispatch

/// Reads another reader's bytes decompressed when they begin with the magic bytes of a
/// format the package reads (gzip, bzip2, xz, zstd), and as they are otherwise. Input that
/// ends inside a format's magic bytes (`BZ`, a lone `0x1F`) is a truncated file of that
/// format: no XML document begins so.
///
/// ``SAXDispatch/XMLInput/decompressing(_:inBackground:threads:)`` wraps an input in one; use
/// the reader itself to decompress inside a reader of your own, or to read the
/// decompressed bytes yourself:
///
/// ```swift
/// let reader = DecompressingReader(try XMLInput.file("dump.xml.gz").makeReader(), name: "dump.xml.gz")
/// var buffer = [UInt8](repeating: 0, count: 65536)
/// let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
/// ```
///
/// Every member of a gzip file, every stream of a bzip2 or xz file and every frame of a
/// zstd file is read, one after another, as a single document. Memory stays at the
/// decompressor's own state and one buffer of compressed bytes, however much the input
/// expands: a parse asks for a chunk at a time, and the decompressor writes into the
/// parser's buffer.
///
/// In the background (`inBackground: true`), compressed input is decompressed on a thread
/// of its own, at most ``blocksAhead`` blocks of ``blockSize`` bytes ahead of the reads, so
/// that decompressing and parsing run at once; `base` is then read on that thread, so it
/// must share no unguarded state with the parse's handlers. Input that is not compressed
/// is read as it is, on the caller's thread, either way.
public final class DecompressingReader: XMLInputReader {
    private var base: any XMLInputReader
    private let name: String
    private let inBackground: Bool
    private var phase = Phase.detecting
    /// Compressed bytes read from the base and not yet decoded: `buffer[start..<end]`.
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var baseEnded = false
    /// How many compressed bytes the decompressor consumed: the offset of `buffer[start]` in the input.
    private var offset = 0
    /// Whether the last decode filled its output, so the decompressor may hold more output
    /// that needs no more input.
    private var mayHoldOutput = false
    /// The error that ended the reading, thrown again if the reader is read after it.
    private var failure: (any Error)?

    private enum Phase {
        case detecting
        case passingThrough
        case decoding(any Codec, CompressionFormat)
        case betweenStreams(any Codec, CompressionFormat)
        /// Decompressed on another thread: blocks come through the queue.
        case readingAhead(BlockQueue)
        /// Streams decompressed on several threads: segments come through the queue, and
        /// the blocks of the one being read through its own.
        case readingSegments(ParallelStreams.Queue, ParallelStreams.Segment?)
        /// The reader that would have run on another thread, read here as no thread could be made.
        case delegating(DecompressingReader)
        case finished
    }

    /// The block being read, in the background, and how much of it was read.
    private var block: BlockQueue.Block?
    private var blockOffset = 0

    /// How many decompressed blocks may wait for the parse, in the background.
    public static let blocksAhead = 4
    /// The size of a block decompressed in the background: 256 KiB.
    public static let blockSize = 256 * 1024

    /// How many threads decompress the pieces of a bzip2 file (its streams and blocks) or
    /// of a zstd file of many frames at once, in the background: one per processor but
    /// the parse's, up to 8, where there are four
    /// processors or more; one otherwise, as two bzip2 decompressors on two processors
    /// compete with the parse (and anything else running) for the same cores and caches.
    ///
    /// Asked only when bzip2 or zstd input is decompressed in the background: the C library reads
    /// the count from a file (`/sys/devices/system/cpu/online` on Linux), and a parse of
    /// anything else opens nothing but its input.
    static let defaultDecodingThreads = processorCount() >= 4 ? min(8, processorCount() - 1) : 1

    /// How many threads decompress at once in the background where the format allows;
    /// `nil`: ``defaultDecodingThreads``.
    var decodingThreads: Int?

    /// The compressed size from which bzip2 blocks or zstd frames decompressed in parallel
    /// make a piece (``Bzip2BlockSplitter/minimumPieceBytes``,
    /// ``ZstdFrameSplitter/minimumPieceBytes``); tests make it small.
    var minimumPieceBytes = 128 * 1024

    /// Whether the decompressor maps its large buffers (a segment's, on a thread of its own).
    var mapsLargeAllocations = false

    /// How many compressed bytes a read of the base asks for.
    static let compressedChunkSize = 64 * 1024

    /// Reads `base`, decompressing it if it is compressed.
    ///
    /// - Parameters:
    ///   - base: The reader of the (possibly) compressed bytes, read from its start.
    ///   - name: The input's name, which a ``DecompressionError`` prints.
    ///   - inBackground: Whether compressed input is decompressed on a thread of its own,
    ///     ahead of the reads, rather than inside each read.
    public init(_ base: any XMLInputReader, name: String, inBackground: Bool = false) {
        self.base = base
        self.name = name
        self.inBackground = inBackground
        buffer = .allocate(byteCount: Self.compressedChunkSize, alignment: 1)
    }

    deinit {
        // A decompressing thread still running stops at its next block.
        switch phase {
        case .readingAhead(let queue):
            queue.close()
        case .readingSegments(let segments, let segment):
            ParallelStreams.stop(segments)
            segment?.close()
        default:
            break
        }
        buffer.deallocate()
    }

    /// Reads up to `output.count` decompressed bytes into `output`; 0 at the end.
    ///
    /// - Throws: ``DecompressionError`` when the input is truncated or corrupt, is followed
    ///   by bytes that start no stream, or needs a library or more memory than allowed;
    ///   what the base reader throws, as it is. The bytes decoded before either are
    ///   returned first, and the error is thrown by the next read.
    public func read(into output: UnsafeMutableRawBufferPointer) throws -> Int {
        if let failure { throw failure }
        var produced = 0
        do {
            try fill(output, produced: &produced)
        } catch {
            failure = error
            if produced == 0 { throw error }
        }
        return produced
    }

    /// Decodes into `output` until it is full, the input ends, or more compressed bytes are
    /// needed after some were produced (the parser may parse them while the base waits).
    private func fill(_ output: UnsafeMutableRawBufferPointer, produced: inout Int) throws {
        while produced < output.count {
            switch phase {
            case .detecting:
                try gather(CompressionFormat.magicLength)
                if let format = CompressionFormat(detecting: pending) {
                    phase = inBackground ? startThread(format) : .decoding(try codec(format), format)
                } else if baseEnded, let format = CompressionFormat(beginningOfMagic: pending) {
                    // A file cut off inside its magic bytes: no document starts that way.
                    throw DecompressionError(
                        name: name, format: format, code: .truncated,
                        message: "truncated \(format) input: it ends inside its first bytes", compressedOffset: end - start)
                } else {
                    phase = .passingThrough
                }
            case .passingThrough:
                let room = UnsafeMutableRawBufferPointer(rebasing: output[produced...])
                if start < end {
                    let count = min(room.count, end - start)
                    room.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[start..<(start + count)]))
                    start += count
                    produced += count
                } else if produced > 0 {
                    return
                } else {
                    // Read straight into the parser's buffer: input that is not compressed costs no copy.
                    let count = try base.read(into: room)
                    if count == 0 { phase = .finished }
                    produced += count
                    return
                }
            case .decoding(let codec, let format):
                if start == end && !baseEnded && !mayHoldOutput {
                    if produced > 0 { return }
                    try refill()
                    continue
                }
                let room = UnsafeMutableRawBufferPointer(rebasing: output[produced...])
                let step: CodecStep
                do {
                    step = try codec.decode(UnsafeRawBufferPointer(rebasing: buffer[start..<end]), into: room, atEnd: baseEnded)
                } catch {
                    produced += error.produced
                    throw DecompressionError(
                        name: name, format: format, code: error.code, message: error.message,
                        compressedOffset: offset + error.consumed)
                }
                start += step.consumed
                offset += step.consumed
                produced += step.produced
                mayHoldOutput = step.produced == room.count
                if step.endedStream {
                    phase = .betweenStreams(codec, format)
                } else if step.consumed == 0 && step.produced == 0 {
                    guard !baseEnded else {
                        throw DecompressionError(
                            name: name, format: format, code: .truncated,
                            message: "truncated \(format) input: it ends inside a \(format.streamName)",
                            compressedOffset: offset + (end - start))
                    }
                    // The decompressor wants more than the bytes at hand before it can go on.
                    if produced > 0 { return }
                    guard try refill() else {
                        throw DecompressionError(
                            name: name, format: format, code: .corrupt,
                            message: "corrupt \(format) input: the decompressor cannot go on", compressedOffset: offset)
                    }
                }
            case .betweenStreams(let codec, let format):
                try gather(format.checksMagicBetweenStreams ? CompressionFormat.magicLength : 1)
                if start == end {
                    phase = .finished
                } else if !format.checksMagicBetweenStreams || CompressionFormat(detecting: pending) == format {
                    do {
                        try codec.restart()
                    } catch {
                        throw DecompressionError(
                            name: name, format: format, code: error.code, message: error.message, compressedOffset: offset)
                    }
                    phase = .decoding(codec, format)
                } else {
                    throw DecompressionError(
                        name: name, format: format, code: .trailingData,
                        message: "trailing data after a \(format) \(format.streamName): its bytes start no other",
                        compressedOffset: offset)
                }
            case .readingAhead(let queue):
                if block == nil || blockOffset == block?.count {
                    // Hand over what is here before waiting for the decompressing thread.
                    if produced > 0 { return }
                    if let read = block { queue.recycle(read.bytes) }
                    block = nil
                    guard let next = try queue.take() else {
                        phase = .finished
                        return
                    }
                    block = next
                    blockOffset = 0
                }
                copyFromBlock(into: output, produced: &produced)
            case .readingSegments(let segments, let segment):
                if block == nil || blockOffset == block?.count {
                    if produced > 0 { return }
                    if let read = block { segment?.output.recycle(read.bytes) }
                    block = nil
                    guard let segment else {
                        guard let next = try segments.take() else {
                            phase = .finished
                            return
                        }
                        phase = .readingSegments(segments, next)
                        continue
                    }
                    guard let next = try segment.output.take() else {
                        phase = .readingSegments(segments, nil)
                        continue
                    }
                    block = next
                    blockOffset = 0
                }
                copyFromBlock(into: output, produced: &produced)
            case .delegating(let reader):
                let count = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: output[produced...]))
                if count == 0 { phase = .finished }
                produced += count
                return
            case .finished:
                return
            }
        }
    }

    /// How many more decompressed bytes ``failure(explaining:)`` decodes, at most, to see
    /// whether the input is damaged: more than an xz LZMA2 chunk or a bzip2 block holds,
    /// so that damage in the block the parse failed in is found.
    public static let verificationWindow = 4 << 20

    /// The decompressor's error when the bytes the parse failed on are damaged, or nil when
    /// the parse error stands.
    ///
    /// Every format checks its data only at the end of a block, member or frame (xz a
    /// block's check, bzip2 a block's CRC, gzip a member's CRC-32): damaged compressed
    /// bytes can decode to garbage that reaches the parser first, which would report it
    /// as an XML error (`invalid token`). So when a parse fails, the reader decodes on, its
    /// output discarded, until the decompressor fails, the input ends, or
    /// ``verificationWindow`` more bytes came out whole; damage met on the way (a
    /// ``DecompressionError`` whose code is ``DecompressionError/Code/corrupt``), with its
    /// compressed offset, is the parse's error instead. An input that merely ends early, or
    /// another failure of the decompressor further on, leaves the parse error as it is: the
    /// bytes it failed on decoded whole. Memory stays at one 64 KiB buffer; input that is not
    /// compressed is never read on. On a slow stream the parse error waits for that input.
    public func failure(explaining parseError: XMLParseError) -> (any Error)? {
        if let failure { return Self.damage(failure) }
        switch phase {
        case .detecting, .passingThrough, .finished: return nil
        default: break
        }
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { scratch.deallocate() }
        var decoded = 0
        while decoded < Self.verificationWindow {
            do {
                let count = try read(into: scratch)
                if count == 0 { return nil }
                decoded += count
            } catch {
                return Self.damage(error)
            }
        }
        return nil
    }

    /// `error` when it says the compressed bytes are damaged.
    private static func damage(_ error: any Error) -> DecompressionError? {
        guard let error = error as? DecompressionError, error.code == .corrupt else { return nil }
        return error
    }

    /// Copies what is left of the current block, as much as fits.
    private func copyFromBlock(into output: UnsafeMutableRawBufferPointer, produced: inout Int) {
        guard let current = block else { return }
        let count = min(output.count - produced, current.count - blockOffset)
        current.bytes.withUnsafeBytes { bytes in
            UnsafeMutableRawBufferPointer(rebasing: output[produced..<(produced + count)])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[blockOffset..<(blockOffset + count)]))
        }
        blockOffset += count
        produced += count
    }

    /// Moves the base reader and the bytes read from it to threads of their own: several
    /// for the streams of a bzip2 file, one otherwise; here, the blocks they decompressed
    /// are read.
    private func startThread(_ format: CompressionFormat) -> Phase {
        let rest = PrefixedReader(prefix: Array(pending), base: base)
        base = PrefixedReader(prefix: [], base: nil)
        start = end
        if format == .bzip2 || format == .zstd, case let threads = decodingThreads ?? Self.defaultDecodingThreads, threads > 1,
            let segments = ParallelStreams.start(
                rest, format: format, name: name, threads: threads, minimumPieceBytes: minimumPieceBytes)
        {
            return .readingSegments(segments, nil)
        }
        let worker = DecompressingReader(rest, name: name, inBackground: false)
        let queue = BlockQueue(capacity: Self.blocksAhead, blockSize: Self.blockSize)
        return DecompressionThread.start(worker, into: queue) ? .readingAhead(queue) : .delegating(worker)
    }

    /// The compressed bytes read and not yet decoded.
    private var pending: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[start..<end])
    }

    private func codec(_ format: CompressionFormat) throws -> any Codec {
        do {
            return try format.makeCodec(mapsLargeAllocations: mapsLargeAllocations)
        } catch {
            throw DecompressionError(name: name, format: format, code: error.code, message: error.message, compressedOffset: nil)
        }
    }

    /// Reads the base until `count` bytes are pending or it ends.
    private func gather(_ count: Int) throws {
        while end - start < count && !baseEnded {
            try refill()
        }
    }

    /// Moves the pending bytes to the front of the buffer and reads more after them.
    ///
    /// - Returns: Whether it read or found the end: `false` when the buffer is full.
    @discardableResult
    private func refill() throws -> Bool {
        if start > 0 {
            let pendingCount = end - start
            if pendingCount > 0, let front = buffer.baseAddress {
                front.copyMemory(from: front + start, byteCount: pendingCount)
            }
            start = 0
            end = pendingCount
        }
        guard end < buffer.count else { return false }
        let count = try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
        if count == 0 { baseEnded = true }
        end += count
        return true
    }
}

/// Bytes already read from a reader, then the rest of it.
private struct PrefixedReader: XMLInputReader {
    var prefix: ArraySlice<UInt8>
    var base: (any XMLInputReader)?

    init(prefix: [UInt8], base: (any XMLInputReader)?) {
        self.prefix = prefix[...]
        self.base = base
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard prefix.isEmpty else {
            let count = min(buffer.count, prefix.count)
            buffer.copyBytes(from: prefix.prefix(count))
            prefix = prefix.dropFirst(count)
            return count
        }
        return try base?.read(into: buffer) ?? 0
    }
}

extension CompressionFormat {
    /// What one self-contained part of the format is called in messages.
    var streamName: String {
        switch self {
        case .gzip: "member"
        case .zstd: "frame"
        default: "stream"
        }
    }
}

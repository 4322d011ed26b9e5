#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
private import CBzip2

/// Decompresses bzip2 streams with libbz2, which checks each block's and stream's CRC.
final class Bzip2Codec: Codec {
    private var stream = bz_stream()
    private var isOpen = false
    /// Whether libbz2's block buffers (3.6 MB for a 900k block) are mapped and unmapped
    /// rather than taken from malloc (see ``init(mapsLargeAllocations:)``).
    private let mapsLargeAllocations: Bool

    /// - Parameter mapsLargeAllocations: Map the block buffers of each stream and unmap
    ///   them at its end. A decompressor on a short-lived thread (one per block, in
    ///   parallel) would otherwise leave its buffer in the malloc arena of its thread, one
    ///   arena per thread up to glibc's limit, and the process would keep them all.
    init(mapsLargeAllocations: Bool = false) throws(CodecFailure) {
        self.mapsLargeAllocations = mapsLargeAllocations
        try open()
    }

    deinit {
        if isOpen { BZ2_bzDecompressEnd(&stream) }
    }

    private func open() throws(CodecFailure) {
        stream = bz_stream()
        if mapsLargeAllocations {
            stream.bzalloc = bzip2Allocate
            stream.bzfree = bzip2Free
        }
        // small: 0 (the faster decoder, about 3.7 MB for a 900k block); verbosity 0.
        guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else {
            throw CodecFailure(code: .memoryLimit, message: "libbz2 could not set up a bzip2 decompressor")
        }
        isOpen = true
    }

    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, atEnd: Bool)
        throws(CodecFailure) -> CodecStep
    {
        // libbz2 counts in 32-bit integers: hand it at most 1 GiB a call.
        let inputCount = min(input.count, 1 << 30)
        let outputCount = min(output.count, 1 << 30)
        stream.next_in = UnsafeMutablePointer(
            mutating: input.baseAddress?.assumingMemoryBound(to: CChar.self))
        stream.avail_in = UInt32(inputCount)
        stream.next_out = output.baseAddress?.assumingMemoryBound(to: CChar.self)
        stream.avail_out = UInt32(outputCount)
        let status = BZ2_bzDecompress(&stream)
        let consumed = inputCount - Int(stream.avail_in)
        let produced = outputCount - Int(stream.avail_out)
        stream.next_in = nil
        stream.next_out = nil
        switch status {
        case BZ_OK:
            return CodecStep(consumed: consumed, produced: produced, endedStream: false)
        case BZ_STREAM_END:
            return CodecStep(consumed: consumed, produced: produced, endedStream: true)
        case BZ_MEM_ERROR:
            throw CodecFailure(code: .memoryLimit, message: "out of memory decompressing bzip2 input", consumed: consumed, produced: produced)
        case BZ_DATA_ERROR_MAGIC:
            throw CodecFailure(code: .corrupt, message: "corrupt bzip2 input: bad stream header", consumed: consumed, produced: produced)
        default:
            throw CodecFailure(code: .corrupt, message: "corrupt bzip2 input: data integrity error", consumed: consumed, produced: produced)
        }
    }

    func restart() throws(CodecFailure) {
        // libbz2 has no reset: a finished stream's state is ended and a new one begun.
        if isOpen { BZ2_bzDecompressEnd(&stream) }
        isOpen = false
        try open()
    }
}

/// The allocator of a ``Bzip2Codec`` that maps its large buffers: each allocation carries
/// 16 bytes in front that hold its mapped size, or 0 for one from malloc.
private let bzip2Allocate: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32) -> UnsafeMutableRawPointer? = {
    _, count, size in
    let bytes = Int(count) * Int(size) + 16
    if bytes < 1 << 20 {
        guard let pointer = malloc(bytes) else { return nil }
        pointer.storeBytes(of: 0, as: Int.self)
        return pointer + 16
    }
    guard let pointer = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
        pointer != MAP_FAILED
    else { return nil }
    pointer.storeBytes(of: bytes, as: Int.self)
    return pointer + 16
}

private let bzip2Free: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, pointer in
    guard let pointer else { return }
    let start = pointer - 16
    let mapped = start.load(as: Int.self)
    if mapped > 0 {
        munmap(start, mapped)
    } else {
        free(start)
    }
}

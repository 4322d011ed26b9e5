private import CBzip2

/// Decompresses bzip2 streams with libbz2, which checks each block's and stream's CRC.
final class Bzip2Codec: Codec {
    private var stream = bz_stream()
    private var isOpen = false

    init() throws(CodecFailure) {
        try open()
    }

    deinit {
        if isOpen { BZ2_bzDecompressEnd(&stream) }
    }

    private func open() throws(CodecFailure) {
        stream = bz_stream()
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

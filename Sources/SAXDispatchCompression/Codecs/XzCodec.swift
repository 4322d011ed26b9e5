private import CLzma

/// Decompresses xz streams with liblzma, which checks each block's integrity check and
/// reads concatenated streams and the padding between them itself.
final class XzCodec: Codec {
    private var stream = saxdispatch_lzma_stream_init()

    /// The most memory liblzma may use to decode: enough for any preset of `xz` (up to
    /// `-9e`, a 64 MiB dictionary); a larger dictionary in a stream's header is an error,
    /// never an allocation the input chose.
    static let memoryLimit: UInt64 = 256 << 20

    init() throws(CodecFailure) {
        try open()
    }

    deinit {
        lzma_end(&stream)
    }

    private func open() throws(CodecFailure) {
        guard lzma_stream_decoder(&stream, Self.memoryLimit, saxdispatch_lzma_concatenated()) == LZMA_OK else {
            throw CodecFailure(code: .memoryLimit, message: "liblzma could not set up an xz decompressor")
        }
    }

    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, atEnd: Bool)
        throws(CodecFailure) -> CodecStep
    {
        stream.next_in = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.avail_in = input.count
        stream.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.avail_out = output.count
        let status = lzma_code(&stream, atEnd ? LZMA_FINISH : LZMA_RUN)
        let consumed = input.count - stream.avail_in
        let produced = output.count - stream.avail_out
        stream.next_in = nil
        stream.next_out = nil
        switch status {
        case LZMA_OK:
            return CodecStep(consumed: consumed, produced: produced, endedStream: false)
        case LZMA_STREAM_END:
            return CodecStep(consumed: consumed, produced: produced, endedStream: true)
        case LZMA_BUF_ERROR:
            // No progress possible: more input would help, unless there is none (truncated),
            // which the reader decides.
            return CodecStep(consumed: consumed, produced: produced, endedStream: false)
        case LZMA_MEMLIMIT_ERROR:
            throw CodecFailure(
                code: .memoryLimit,
                message: "xz input needs more than \(Self.memoryLimit >> 20) MiB of memory to decompress",
                consumed: consumed, produced: produced)
        case LZMA_MEM_ERROR:
            throw CodecFailure(code: .memoryLimit, message: "out of memory decompressing xz input", consumed: consumed, produced: produced)
        case LZMA_FORMAT_ERROR:
            throw CodecFailure(code: .corrupt, message: "corrupt xz input: not an xz stream", consumed: consumed, produced: produced)
        case LZMA_OPTIONS_ERROR:
            throw CodecFailure(code: .corrupt, message: "corrupt xz input: unsupported options", consumed: consumed, produced: produced)
        default:
            throw CodecFailure(code: .corrupt, message: "corrupt xz input: data is corrupt", consumed: consumed, produced: produced)
        }
    }

    func restart() throws(CodecFailure) {
        lzma_end(&stream)
        stream = saxdispatch_lzma_stream_init()
        try open()
    }
}

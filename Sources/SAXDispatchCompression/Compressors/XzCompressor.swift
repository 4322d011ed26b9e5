private import CLzma

/// Compresses one xz stream with liblzma at a preset level, with a CRC-64 check.
final class XzCompressor: Compressor {
    private var stream = saxdispatch_lzma_stream_init()
    private var buffer = [UInt8](repeating: 0, count: compressorOutputSize)

    init(level: Int) throws(CompressorFailure) {
        guard lzma_easy_encoder(&stream, UInt32(level), LZMA_CHECK_CRC64) == LZMA_OK else {
            throw CompressorFailure(message: "liblzma could not set up an xz compressor")
        }
    }

    deinit {
        lzma_end(&stream)
    }

    func compress(
        _ input: UnsafeRawBufferPointer, finishing: Bool, into output: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        stream.next_in = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.avail_in = input.count
        var status = LZMA_OK
        repeat {
            let produced = try buffer.withUnsafeMutableBytes { room in
                stream.next_out = room.baseAddress?.assumingMemoryBound(to: UInt8.self)
                stream.avail_out = room.count
                status = lzma_code(&stream, finishing ? LZMA_FINISH : LZMA_RUN)
                guard status == LZMA_OK || status == LZMA_STREAM_END || status == LZMA_BUF_ERROR else {
                    throw CompressorFailure(message: "liblzma failed to compress (\(status.rawValue))")
                }
                return room.count - stream.avail_out
            }
            if produced > 0 { try buffer.withUnsafeBytes { try output(UnsafeRawBufferPointer(rebasing: $0.prefix(produced))) } }
        } while finishing ? status != LZMA_STREAM_END : stream.avail_in > 0 || stream.avail_out == 0
        stream.next_in = nil
        stream.next_out = nil
    }
}

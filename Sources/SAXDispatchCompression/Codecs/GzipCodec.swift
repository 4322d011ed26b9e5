private import CZlib

/// Inflates gzip members with zlib; zlib checks each member's CRC-32 and length.
final class GzipCodec: Codec {
    private var stream = z_stream()

    init() throws(CodecFailure) {
        guard saxdispatch_inflate_init_gzip(&stream) == Z_OK else {
            throw CodecFailure(code: .memoryLimit, message: "zlib could not set up a gzip decompressor")
        }
    }

    deinit {
        inflateEnd(&stream)
    }

    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, atEnd: Bool)
        throws(CodecFailure) -> CodecStep
    {
        // zlib counts in 32-bit integers: hand it at most 1 GiB a call.
        let inputCount = min(input.count, 1 << 30)
        let outputCount = min(output.count, 1 << 30)
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(inputCount)
        stream.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(outputCount)
        let status = inflate(&stream, Z_NO_FLUSH)
        let consumed = inputCount - Int(stream.avail_in)
        let produced = outputCount - Int(stream.avail_out)
        stream.next_in = nil
        stream.next_out = nil
        switch status {
        case Z_OK, Z_BUF_ERROR:
            return CodecStep(consumed: consumed, produced: produced, endedStream: false)
        case Z_STREAM_END:
            return CodecStep(consumed: consumed, produced: produced, endedStream: true)
        case Z_MEM_ERROR:
            throw CodecFailure(code: .memoryLimit, message: "out of memory decompressing gzip input", consumed: consumed, produced: produced)
        default:
            let reason = stream.msg.map { String(cString: $0) } ?? "invalid data"
            throw CodecFailure(code: .corrupt, message: "corrupt gzip input: \(reason)", consumed: consumed, produced: produced)
        }
    }

    func restart() throws(CodecFailure) {
        guard inflateReset(&stream) == Z_OK else {
            throw CodecFailure(code: .corrupt, message: "zlib could not start the next gzip member")
        }
    }
}

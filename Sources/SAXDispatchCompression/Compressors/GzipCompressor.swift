private import CZlib

/// Deflates one gzip member with zlib, with its header, CRC-32 and length.
final class GzipCompressor: Compressor {
    private var stream = z_stream()
    private var buffer = [UInt8](repeating: 0, count: compressorOutputSize)

    init(level: Int) throws(CompressorFailure) {
        guard saxdispatch_deflate_init_gzip(&stream, Int32(level)) == Z_OK else {
            throw CompressorFailure(message: "zlib could not set up a gzip compressor")
        }
    }

    deinit {
        deflateEnd(&stream)
    }

    func compress(
        _ input: UnsafeRawBufferPointer, finishing: Bool, into output: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var remaining = input
        repeat {
            // zlib counts in 32-bit integers: hand it at most 1 GiB a call.
            let piece = UnsafeRawBufferPointer(rebasing: remaining.prefix(1 << 30))
            let isLast = piece.count == remaining.count
            stream.next_in = UnsafeMutablePointer(mutating: piece.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(piece.count)
            var status = Z_OK
            repeat {
                let produced = try buffer.withUnsafeMutableBytes { room in
                    stream.next_out = room.baseAddress?.assumingMemoryBound(to: Bytef.self)
                    stream.avail_out = uInt(room.count)
                    status = deflate(&stream, finishing && isLast ? Z_FINISH : Z_NO_FLUSH)
                    guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                        throw CompressorFailure(message: "zlib failed to compress (\(status))")
                    }
                    return room.count - Int(stream.avail_out)
                }
                if produced > 0 { try buffer.withUnsafeBytes { try output(UnsafeRawBufferPointer(rebasing: $0.prefix(produced))) } }
                // More output is pending while zlib filled the buffer; at the end, until the stream ends.
            } while stream.avail_out == 0 || (finishing && isLast && status != Z_STREAM_END)
            remaining = UnsafeRawBufferPointer(rebasing: remaining.dropFirst(piece.count))
        } while !remaining.isEmpty
        stream.next_in = nil
        stream.next_out = nil
    }
}

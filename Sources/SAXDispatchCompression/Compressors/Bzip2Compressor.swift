private import CBzip2

/// Compresses one bzip2 stream with libbz2; `level` is the block size in 100 kB.
final class Bzip2Compressor: Compressor {
    private var stream = bz_stream()
    private var buffer = [UInt8](repeating: 0, count: compressorOutputSize)

    init(level: Int) throws(CompressorFailure) {
        guard BZ2_bzCompressInit(&stream, Int32(level), 0, 0) == BZ_OK else {
            throw CompressorFailure(message: "libbz2 could not set up a bzip2 compressor")
        }
    }

    deinit {
        BZ2_bzCompressEnd(&stream)
    }

    func compress(
        _ input: UnsafeRawBufferPointer, finishing: Bool, into output: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var remaining = input
        repeat {
            let piece = UnsafeRawBufferPointer(rebasing: remaining.prefix(1 << 30))
            let isLast = piece.count == remaining.count
            let finishes = finishing && isLast
            stream.next_in = UnsafeMutablePointer(mutating: piece.baseAddress?.assumingMemoryBound(to: CChar.self))
            stream.avail_in = UInt32(piece.count)
            var status = BZ_RUN_OK
            repeat {
                let produced = try buffer.withUnsafeMutableBytes { room in
                    stream.next_out = room.baseAddress?.assumingMemoryBound(to: CChar.self)
                    stream.avail_out = UInt32(room.count)
                    status = BZ2_bzCompress(&stream, finishes ? BZ_FINISH : BZ_RUN)
                    guard status == BZ_RUN_OK || status == BZ_FINISH_OK || status == BZ_STREAM_END else {
                        throw CompressorFailure(message: "libbz2 failed to compress (\(status))")
                    }
                    return room.count - Int(stream.avail_out)
                }
                if produced > 0 { try buffer.withUnsafeBytes { try output(UnsafeRawBufferPointer(rebasing: $0.prefix(produced))) } }
            } while finishes ? status != BZ_STREAM_END : stream.avail_in > 0
            remaining = UnsafeRawBufferPointer(rebasing: remaining.dropFirst(piece.count))
        } while !remaining.isEmpty
        stream.next_in = nil
        stream.next_out = nil
    }
}

private import CZstdLoader

/// Compresses one Zstandard frame with libzstd, loaded at run time.
final class ZstdCompressor: Compressor {
    private let context: UnsafeMutableRawPointer
    private var buffer = [UInt8](repeating: 0, count: compressorOutputSize)

    init(level: Int) throws(CompressorFailure) {
        guard saxdispatch_zstd_load_compressor() != 0 else {
            throw CompressorFailure(
                message: "zstd output needs libzstd (the libzstd1 package, or the library's path in SAXDISPATCH_LIBZSTD)")
        }
        guard let context = saxdispatch_zstd_create_compressor(Int32(level)) else {
            throw CompressorFailure(message: "libzstd could not set up a zstd compressor")
        }
        self.context = context
    }

    deinit {
        saxdispatch_zstd_free_compressor(context)
    }

    func compress(
        _ input: UnsafeRawBufferPointer, finishing: Bool, into output: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var source = saxdispatch_zstd_input(src: input.baseAddress, size: input.count, pos: 0)
        var pending = 0
        repeat {
            let produced = try buffer.withUnsafeMutableBytes { room in
                var destination = saxdispatch_zstd_output(dst: room.baseAddress, size: room.count, pos: 0)
                let result = saxdispatch_zstd_compress(context, &destination, &source, finishing ? 1 : 0)
                if saxdispatch_zstd_is_error(result) != 0 {
                    let reason = saxdispatch_zstd_error_name(result).map { String(cString: $0) } ?? "unknown error"
                    throw CompressorFailure(message: "libzstd failed to compress: \(reason)")
                }
                pending = result
                return destination.pos
            }
            if produced > 0 { try buffer.withUnsafeBytes { try output(UnsafeRawBufferPointer(rebasing: $0.prefix(produced))) } }
            // Without finishing, the call returns once the input is consumed; finishing, once flushed.
        } while finishing ? pending != 0 : source.pos < source.size
    }
}

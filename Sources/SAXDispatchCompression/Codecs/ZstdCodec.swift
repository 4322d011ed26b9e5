private import CZstdLoader

/// Decompresses Zstandard frames with libzstd, loaded at run time; one stream object reads
/// every frame of a file, skippable frames included.
final class ZstdCodec: Codec {
    private let stream: UnsafeMutableRawPointer

    init() throws(CodecFailure) {
        guard saxdispatch_zstd_load() != 0 else {
            throw CodecFailure(
                code: .libraryUnavailable,
                message: "zstd input needs libzstd (the libzstd1 package, or the library's path in SAXDISPATCH_LIBZSTD)")
        }
        guard let stream = saxdispatch_zstd_create() else {
            throw CodecFailure(code: .memoryLimit, message: "libzstd could not set up a zstd decompressor")
        }
        self.stream = stream
    }

    deinit {
        saxdispatch_zstd_free(stream)
    }

    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, atEnd: Bool)
        throws(CodecFailure) -> CodecStep
    {
        var source = saxdispatch_zstd_input(src: input.baseAddress, size: input.count, pos: 0)
        var destination = saxdispatch_zstd_output(dst: output.baseAddress, size: output.count, pos: 0)
        let result = saxdispatch_zstd_decompress(stream, &destination, &source)
        if saxdispatch_zstd_is_error(result) != 0 {
            let reason = saxdispatch_zstd_error_name(result).map { String(cString: $0) } ?? "invalid data"
            // libzstd's window limit (128 MiB unless raised) refuses frames that ask for more.
            if reason.contains("memory") || reason.contains("indow") {
                throw CodecFailure(code: .memoryLimit, message: "zstd input cannot be decompressed: \(reason)", consumed: source.pos, produced: destination.pos)
            }
            throw CodecFailure(code: .corrupt, message: "corrupt zstd input: \(reason)", consumed: source.pos, produced: destination.pos)
        }
        // 0: a frame is complete and all of it flushed.
        return CodecStep(consumed: source.pos, produced: destination.pos, endedStream: result == 0)
    }

    func restart() {
        // The stream object begins the next frame by itself.
    }
}

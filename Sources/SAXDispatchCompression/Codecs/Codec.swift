/// One stream decompressor over a C library's state: the only kind of type that touches
/// zlib, libbz2, liblzma or libzstd. A `DecompressingReader` drives it; a codec knows
/// nothing of inputs, names or offsets.
///
/// A codec is a class because it owns C state, freed in `deinit`, that must not be copied.
protocol Codec: AnyObject {
    /// Decodes from the start of `input` into the start of `output`.
    ///
    /// - Parameter atEnd: Whether `input` is all that is left of the input, so that a
    ///   codec that must be told the input is finishing (xz) can finish.
    /// - Returns: How much it consumed and produced, and whether a stream (a gzip member,
    ///   a bzip2 stream, a zstd frame, the last xz stream) ended with the last byte
    ///   consumed. Neither consuming nor producing is not an error: the reader decides
    ///   whether more input would help or the input is truncated.
    /// - Throws: `CodecFailure` when the bytes are not valid, with how much was consumed and produced.
    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, atEnd: Bool)
        throws(CodecFailure) -> CodecStep

    /// Prepares to decode the next stream of a concatenation, after one ended.
    func restart() throws(CodecFailure)
}

/// What one call of ``Codec/decode(_:into:atEnd:)`` did.
struct CodecStep {
    var consumed: Int
    var produced: Int
    var endedStream: Bool
}

/// Why a codec could not go on, and how many bytes it had consumed and produced in that
/// call: what it produced before the failure is good, and is parsed before the error.
struct CodecFailure: Error {
    var code: DecompressionError.Code
    var message: String
    var consumed = 0
    var produced = 0
}

extension CompressionFormat {
    /// A new codec for a stream of this format.
    ///
    /// - Throws: `CodecFailure` when the library cannot be loaded or set up.
    /// - Parameter mapsLargeAllocations: For a decompressor on a short-lived thread: see
    ///   ``Bzip2Codec/init(mapsLargeAllocations:)``.
    func makeCodec(mapsLargeAllocations: Bool = false) throws(CodecFailure) -> any Codec {
        switch self {
        case .gzip: return try GzipCodec()
        case .bzip2: return try Bzip2Codec(mapsLargeAllocations: mapsLargeAllocations)
        case .xz: return try XzCodec()
        case .zstd: return try ZstdCodec()
        default: throw CodecFailure(code: .libraryUnavailable, message: "\(self) input cannot be decompressed")
        }
    }

    /// Whether bytes after a finished stream of this format must begin with its magic
    /// bytes to start another stream. xz reads its own concatenations (and the padding
    /// between them); for the others, anything else is trailing data.
    var checksMagicBetweenStreams: Bool {
        self != .xz
    }
}

/// One stream compressor over a C library's state: the writing side's twin of `Codec`.
/// A `CompressingWriter` drives it; it knows nothing of outputs or names.
protocol Compressor: AnyObject {
    /// Compresses all of `input`, handing the compressed bytes to `output` as they come;
    /// with `finishing`, ends the stream after it (a trailer, a checksum), so that nothing
    /// is held back.
    ///
    /// - Throws: A message when the library fails, or what `output` throws, as it is.
    func compress(
        _ input: UnsafeRawBufferPointer, finishing: Bool, into output: (UnsafeRawBufferPointer) throws -> Void
    ) throws
}

/// Why a compressor failed, for the writer to name the output and format.
struct CompressorFailure: Error {
    var message: String
}

extension CompressionFormat {
    /// The compression levels the format has, and the one used when none is given.
    var levels: (range: ClosedRange<Int>, default: Int)? {
        switch self {
        case .gzip: (1...9, 6)
        case .bzip2: (1...9, 9)
        case .xz: (0...9, 6)
        case .zstd: (1...19, 3)
        default: nil
        }
    }

    /// A new compressor for a stream of this format at `level`.
    func makeCompressor(level: Int) throws(CompressorFailure) -> any Compressor {
        switch self {
        case .gzip: return try GzipCompressor(level: level)
        case .bzip2: return try Bzip2Compressor(level: level)
        case .xz: return try XzCompressor(level: level)
        case .zstd: return try ZstdCompressor(level: level)
        default: throw CompressorFailure(message: "\(self) output is not written by this package")
        }
    }
}

/// The size of the buffer each compressor's output goes through.
let compressorOutputSize = 64 * 1024

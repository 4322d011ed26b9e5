/// Output that could not be compressed: a level the format does not have, a library that
/// is missing (libzstd is loaded at run time) or out of memory.
///
/// Making the `XMLWriter` throws it when the compressor cannot be set up;
/// a write or `XMLWriter.finish()` throws it as it is when compressing fails.
public struct CompressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name of the output, as the writer's errors give it.
    public var name: String
    /// The format being written.
    public var format: CompressionFormat
    /// What went wrong, in words.
    public var message: String

    /// An error as given.
    public init(name: String, format: CompressionFormat, message: String) {
        self.name = name
        self.format = format
        self.message = message
    }

    /// `NAME: error: MESSAGE`.
    public var description: String { "\(name): error: \(message)" }
}

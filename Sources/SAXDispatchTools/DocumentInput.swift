import SAXDispatch

/// Where a command's document comes from and how it reaches the parser: a file, or
/// standard input for `-`, fed in pieces of a set size, with an optional progress meter.
///
/// ```swift
/// let parser = PushParser(dispatcher, source: "map.osm")
/// try DocumentInput(path: "map.osm").feed(parser)
/// try parser.finish()
/// ```
public struct DocumentInput {
    /// The file to read; `-` reads standard input.
    public var path: String
    /// How many bytes are fed to the parser at a time.
    public var chunkSize: Int
    /// Shown while reading, if given; its total is set from the file's size when known.
    public var progress: ProgressMeter?

    /// The piece size when none is asked for: 64 KiB.
    public static let defaultChunkSize = 1 << 16

    /// - Parameters:
    ///   - path: The file to read; `-` reads standard input.
    ///   - chunkSize: Bytes per piece (`nil`: 64 KiB); at least 1.
    ///   - progress: A meter to update after each piece.
    public init(path: String, chunkSize: Int? = nil, progress: ProgressMeter? = nil) {
        self.path = path
        self.chunkSize = max(1, chunkSize ?? Self.defaultChunkSize)
        self.progress = progress
    }

    /// Feeds the whole input to `parser`, without finishing it, updating the meter after
    /// each piece; the meter's line is erased when this returns or throws.
    ///
    /// - Parameter count: What the meter shows next to the bytes (records, elements), read
    ///   after each piece.
    /// - Returns: The number of bytes read.
    /// - Throws: ``XMLInputError`` when the input cannot be opened or read, or what the
    ///   parser throws (``XMLParseError``, ``HandlerError``).
    @discardableResult
    public func feed(_ parser: PushParser, count: () -> Int = { 0 }) throws -> Int {
        var bytes = 0
        try FileChunks.withDescriptor(path: path) { descriptor in
            progress?.totalBytes = FileChunks.size(ofDescriptor: descriptor)
            defer { progress?.finish() }
            try FileChunks.forEach(descriptor: descriptor, path: path, chunkSize: chunkSize) { chunk in
                try parser.feed(chunk)
                bytes += chunk.count
                progress?.update(bytes: bytes, count: count())
            }
        }
        return bytes
    }
}

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
        try FileChunks.withDescriptor(path: path) { descriptor in
            try feed(parser, totalBytes: FileChunks.size(ofDescriptor: descriptor), count: count) { body in
                try FileChunks.forEach(descriptor: descriptor, path: path, chunkSize: chunkSize, body)
            }
        }
    }

    /// Feeds the pieces `pieces` produces (a generated document, say) to `parser` as
    /// ``feed(_:count:)`` feeds a file's, with the same progress display.
    ///
    /// - Parameters:
    ///   - totalBytes: The input's size when known, for the meter's bar and time left.
    ///   - count: What the meter shows next to the bytes, read after each piece.
    ///   - pieces: Calls its argument with each piece, in order.
    /// - Returns: The number of bytes fed.
    /// - Throws: What `pieces` or the parser throws.
    @discardableResult
    public func feed(
        _ parser: PushParser, totalBytes: Int?, count: () -> Int,
        pieces: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws -> Int {
        progress?.totalBytes = totalBytes
        defer { progress?.finish() }
        var bytes = 0
        try withoutActuallyEscaping(count) { count in
            try pieces { piece in
                try parser.feed(piece)
                bytes += piece.count
                progress?.update(bytes: bytes, count: count())
            }
        }
        return bytes
    }
}

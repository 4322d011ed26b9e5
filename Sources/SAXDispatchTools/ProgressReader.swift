import SAXDispatch
import SAXDispatchCompression

/// Reads another input's bytes and counts each read in a ``ReadProgress``: how the
/// commands measure how much of a file or standard input was read, before it is
/// decompressed, while the library reads it.
///
/// It may run on the thread that decompresses the input, so it only counts; the meter is
/// drawn on the parse's thread (see ``ReadProgress/reading(_:)``).
public struct ProgressReader: XMLInputReader {
    private var base: any XMLInputReader
    private let progress: ReadProgress

    /// Reads `base`, counting in `progress`.
    public init(_ base: any XMLInputReader, progress: ReadProgress) {
        self.base = base
        self.progress = progress
    }

    /// Reads from the base reader and counts the bytes read.
    ///
    /// - Throws: What the base reader throws (``XMLInputError`` for a file).
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        progress.count(count)
        return count
    }

    /// What the base reader says about a parse error (``XMLInputReader/failure(explaining:)``).
    public mutating func failure(explaining parseError: XMLParseError) -> (any Error)? {
        base.failure(explaining: parseError)
    }
}

/// Reads the document (decompressed) and updates the meter after each read, on the
/// parse's thread.
private struct MeterReader: XMLInputReader {
    var base: any XMLInputReader
    let progress: ReadProgress

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        progress.countDocumentBytes(count)
        progress.report()
        return count
    }

    mutating func failure(explaining parseError: XMLParseError) -> (any Error)? {
        base.failure(explaining: parseError)
    }
}

/// How much of its input one parse has read, shown on a progress meter (when there is
/// one) next to a count of what the command produces.
///
/// ```swift
/// let progress = ReadProgress(meter: meter) { elements }
/// defer { progress.finish() }
/// try dispatcher.parse(progress.reading(.file("map.osm")))
/// ```
///
/// A progress belongs to one parse. The bytes are counted where the input is read, which
/// for compressed input is the thread that decompresses it, under a lock; the meter and
/// the count closure (which reads the handlers' state) are used only on the thread that
/// runs the parse, inside its reads. The input it makes must be `Sendable` all the same,
/// which is why it is marked so unchecked: do not hand ``reading(_:)``'s input to another
/// task.
public final class ReadProgress: @unchecked Sendable {
    /// The bytes read, counted on the thread that reads the input.
    private let counted = LockedValue(0)
    /// The document's bytes, decompressed; only the parse's thread touches them.
    private var documentBytes = 0
    private let meter: (any ProgressDisplay)?
    private let count: () -> Int

    /// - Parameters:
    ///   - meter: The meter to update after each read, if any.
    ///   - count: What the meter shows next to the bytes (records, elements), read after each read.
    public init(meter: (any ProgressDisplay)?, count: @escaping () -> Int = { 0 }) {
        self.meter = meter
        self.count = count
    }

    /// The bytes read so far: of the input as it is stored, compressed or not.
    public var bytes: Int {
        counted.withLock { $0 }
    }

    /// The document's bytes read so far, decompressed: read on the thread that reads
    /// ``reading(_:)``'s input.
    public var decompressedBytes: Int { documentBytes }

    /// `input` decompressed when it is compressed (gzip, bzip2, xz, zstd), with its name
    /// and options; its reads, before decompression, counted here, and the
    /// meter updated after each read of the parse.
    public func reading(_ input: XMLInput) -> XMLInput {
        let counting = input.readingThrough { [self] in ProgressReader($0, progress: self) }
        return XMLInput.decompressing(counting, threads: Self.decompressionThreads)
            .readingThrough { [self] in MeterReader(base: $0, progress: self) }
    }

    /// How many threads decompress the blocks of one bzip2 input at once; `nil` for the
    /// library's default (one per processor but the parse's, given four or more). A run
    /// of several files at once sets 1, so that its jobs share the processors rather
    /// than each taking all of them.
    public static var decompressionThreads: Int? {
        get { decompressionThreadsSetting.withLock { $0 } }
        set { decompressionThreadsSetting.withLock { $0 = newValue } }
    }
    private static let decompressionThreadsSetting = LockedValue<Int?>(nil)

    /// The threads for one input's bzip2 blocks when `inputsAtOnce` inputs share
    /// `processors`: the library's rule for a whole machine applied to the input's share
    /// (several threads from four processors on, one fewer than the share, at most 8).
    public static func decompressionThreads(processors: Int, inputsAtOnce: Int) -> Int {
        let share = processors / max(1, inputsAtOnce)
        return share >= 4 ? min(8, share - 1) : 1
    }

    /// Records `count` more bytes read, from any thread; the meter shows them at the next update.
    public func count(_ count: Int) {
        counted.withLock { $0 += count }
    }

    /// Records `count` more bytes read and updates the meter, on the parse's thread.
    public func advance(by count: Int) {
        self.count(count)
        countDocumentBytes(count)
        report()
    }

    /// Records `count` more bytes of the document as the parser reads it, decompressed,
    /// on the parse's thread.
    func countDocumentBytes(_ count: Int) {
        documentBytes += count
    }

    /// Updates the meter with the bytes counted so far, on the parse's thread.
    public func report() {
        meter?.update(bytes: bytes, documentBytes: documentBytes, count: count())
    }

    /// Shows the final figures and erases the meter's line at the end of the parse,
    /// whether it completed or failed.
    public func finish() {
        meter?.finish(bytes: bytes, documentBytes: documentBytes, count: count())
    }
}

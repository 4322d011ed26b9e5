import SAXDispatch

/// Reads another input's bytes and reports each read to a ``ReadProgress``: how the
/// commands show a progress meter while the library reads a file or standard input
/// straight into the parser's buffer.
public struct ProgressReader: XMLInputReader {
    private var base: any XMLInputReader
    private let progress: ReadProgress

    /// Reads `base`, reporting to `progress`.
    public init(_ base: any XMLInputReader, progress: ReadProgress) {
        self.base = base
        self.progress = progress
    }

    /// Reads from the base reader and reports the bytes read.
    ///
    /// - Throws: What the base reader throws (``XMLInputError`` for a file).
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        progress.advance(by: count)
        return count
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
/// A progress belongs to one parse, run on the thread that made it: a parse calls its
/// input's readers inside the parse call, so the meter and the count closure (which
/// reads the handlers' state) are never used from two threads at once. The input it
/// makes must be `Sendable` all the same, which is why it is marked so unchecked: do not
/// hand ``reading(_:)``'s input to another task.
public final class ReadProgress: @unchecked Sendable {
    /// The bytes read so far.
    public private(set) var bytes = 0
    private let meter: ProgressMeter?
    private let count: () -> Int

    /// - Parameters:
    ///   - meter: The meter to update after each read, if any.
    ///   - count: What the meter shows next to the bytes (records, elements), read after each read.
    public init(meter: ProgressMeter?, count: @escaping () -> Int = { 0 }) {
        self.meter = meter
        self.count = count
    }

    /// `input` read through a ``ProgressReader`` that reports here, with its name and chunk size.
    public func reading(_ input: XMLInput) -> XMLInput {
        var reading = XMLInput.reader(name: input.name) { [self] in ProgressReader(try input.makeReader(), progress: self) }
        reading.chunkSize = input.chunkSize
        reading.encoding = input.encoding
        reading.readsConcatenatedDocuments = input.readsConcatenatedDocuments
        return reading
    }

    /// Records `count` more bytes read and updates the meter.
    public func advance(by count: Int) {
        bytes += count
        meter?.update(bytes: bytes, count: self.count())
    }

    /// Shows the final figures and erases the meter's line at the end of the parse,
    /// whether it completed or failed.
    public func finish() {
        meter?.finish(bytes: bytes, count: count())
    }
}

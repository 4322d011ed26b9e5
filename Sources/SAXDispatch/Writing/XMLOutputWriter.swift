/// A destination for the bytes ``XMLWriter`` writes, for outputs that ``XMLOutput`` does
/// not name itself: a socket, a compressor, a buffer of your own.
///
/// Wrap one in an output with ``XMLOutput/writer(name:_:)``:
///
/// ```swift
/// final class Collected: XMLOutputWriter {
///     var bytes: [UInt8] = []
///     func write(_ buffer: UnsafeRawBufferPointer) throws { bytes += buffer }
/// }
/// let collected = Collected()
/// let writer = try XMLWriter(to: .writer(name: "memory") { collected })
/// ```
///
/// The writer hands over what it has gathered (about ``XMLOutput/chunkSize`` bytes at a
/// time), then ``close()`` once, when the document is finished.
public protocol XMLOutputWriter {
    /// Writes all of `bytes`, or throws.
    ///
    /// - Throws: Whatever makes the output unwritable; the writer rethrows it as it is and
    ///   takes no more calls.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws

    /// Called once after the last write, when the document is finished: flush, end a
    /// compressed stream, close what was opened. Does nothing unless implemented.
    ///
    /// - Throws: Whatever keeps the output from being complete; ``XMLWriter/finish()``
    ///   rethrows it as it is.
    mutating func close() throws
}

extension XMLOutputWriter {
    /// Nothing to close.
    ///
    /// - Throws: Never.
    public mutating func close() throws {}
}

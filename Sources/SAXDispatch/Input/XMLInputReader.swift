/// A source of document bytes that the parser pulls from, for inputs that ``XMLInput``
/// does not name itself: a socket, a decompressor, a reader that reports progress.
///
/// Wrap one in an input with ``XMLInput/reader(name:_:)``; every verb that takes an
/// ``XMLInput`` then reads it, with no overload of its own:
///
/// ```swift
/// struct Countdown: XMLInputReader {
///     var bytes = Array("<r><a/><b/></r>".utf8)[...]
///
///     mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
///         let count = min(buffer.count, bytes.count)
///         buffer.copyBytes(from: bytes.prefix(count))
///         bytes = bytes.dropFirst(count)
///         return count
///     }
/// }
///
/// try dispatcher.parse(.reader(name: "countdown") { Countdown() })
/// ```
///
/// The parser asks for ``XMLInput/chunkSize`` bytes at a time, in a buffer of expat's
/// own (a file's bytes are read once, into the memory expat parses), and asks again
/// after a short read until the chunk is full or the reader reports its end.
public protocol XMLInputReader {
    /// Reads up to `buffer.count` bytes into the start of `buffer` and says how many it
    /// read: at least 1, or 0 at the end of the input (and only there). Fewer than asked
    /// are fine; the parser asks again.
    ///
    /// - Throws: Whatever makes the input unreadable. The parse delivers the events of
    ///   the bytes read before, then rethrows the error as it is (a file's reads throw
    ///   ``XMLInputError``).
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

    /// An error that says better than `parseError` why the parse of this reader's bytes
    /// failed, or nil (the default): asked once, when the parse ends with an
    /// ``XMLParseError``, before it is thrown. A decompressor that checks its data only
    /// at the end of a block (`DecompressingReader` for xz) may have handed on damaged
    /// bytes that expat then rejected; it answers with its own error when the rest of the
    /// block shows the damage. A reader that wraps another forwards the question to it.
    ///
    /// What it returns is thrown instead of `parseError`, after the same events.
    mutating func failure(explaining parseError: XMLParseError) -> (any Error)?
}

extension XMLInputReader {
    /// No explanation: the parse error stands.
    public mutating func failure(explaining parseError: XMLParseError) -> (any Error)? { nil }
}

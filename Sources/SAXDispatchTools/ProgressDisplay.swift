/// What a parse reports its progress to: the one-file ``ProgressMeter``, or one file's
/// share of a ``BatchProgress`` when many files are read at once.
///
/// A parse calls it on its own thread, inside its reads (see ``ReadProgress``).
public protocol ProgressDisplay: AnyObject {
    /// Records progress: `bytes` of the input as stored (compressed or not) read so far,
    /// `documentBytes` of the document they decompressed to, and `count` of what the
    /// command produces (records, elements).
    func update(bytes: Int, documentBytes: Int, count: Int)
    /// Records the final figures at the end of the parse, whether it completed or failed.
    func finish(bytes: Int, documentBytes: Int, count: Int)
    /// Erases the line, so other text can be printed to the same stream.
    func clear()
}

extension ProgressMeter: ProgressDisplay {
    /// Records progress; one file's meter shows the bytes as stored, against the file's
    /// size, and what they decompressed to per second when the file is compressed.
    public func update(bytes: Int, documentBytes: Int, count: Int) {
        update(bytes: bytes, documentBytes: documentBytes, count: count, always: false)
    }

    /// Draws the final figures and erases the line.
    public func finish(bytes: Int, documentBytes: Int, count: Int) {
        update(bytes: bytes, documentBytes: documentBytes, count: count, always: true)
        clear()
    }
}

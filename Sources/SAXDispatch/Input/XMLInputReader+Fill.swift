/// What ``XMLInputReader/fill(_:count:)`` read: how many bytes, and the error that ended
/// the read early, if one did. The bytes before an error are good: the parser parses them
/// before it reports the error, so that nothing the input held before it is lost.
struct InputRead {
    var count: Int
    var failure: (any Error)?
}

extension XMLInputReader {
    /// Reads up to `count` bytes into `buffer`, asking again after short reads; fewer only
    /// at the end of the input or when a read throws, which the result holds.
    mutating func fill(_ buffer: UnsafeMutableRawPointer?, count: Int) -> InputRead {
        guard let buffer else { return InputRead(count: 0) }
        var filled = 0
        while filled < count {
            let read: Int
            do {
                read = try self.read(into: UnsafeMutableRawBufferPointer(start: buffer + filled, count: count - filled))
            } catch {
                return InputRead(count: filled, failure: error)
            }
            precondition(read >= 0 && read <= count - filled, "XMLInputReader.read(into:) returned \(read) for a buffer of \(count - filled) bytes")
            if read == 0 { break }
            filled += read
        }
        return InputRead(count: filled)
    }
}

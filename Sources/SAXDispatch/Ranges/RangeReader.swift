/// Reads a range's own document (``XMLInput/range(_:of:)``): the range's context, then the
/// range's bytes from a reader of the whole document, then its closing tags.
///
/// What must stay true: the bytes before the range are passed over (by seeking a file,
/// by reading anything else), never parsed; the range's bytes are exactly those from its
/// start to its end, or to the document's end.
struct RangeReader: XMLInputReader {
    private var base: any XMLInputReader
    private let context: [UInt8]
    private let closing: [UInt8]
    private var contextSent = 0
    private var closingSent = 0
    /// The document's bytes before the range, not yet passed over.
    private var before: Int
    /// The range's bytes not yet read, or `nil` for a range that ends with the document.
    private var remaining: Int?

    init(base: any XMLInputReader, range: XMLDocumentRange) {
        self.base = base
        context = range.context
        closing = range.closing
        before = range.start
        remaining = range.end.map { $0 - range.start }
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if contextSent < context.count { return copy(context, sent: &contextSent, into: buffer) }
        if before > 0 { try passOverBytesBefore() }
        if remaining.map({ $0 > 0 }) ?? true {
            let wanted = min(buffer.count, remaining ?? buffer.count)
            let count = try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]))
            if count > 0 {
                remaining = remaining.map { $0 - count }
                return count
            }
            // The document ended before the range did: its parse says what is missing.
            remaining = 0
        }
        return copy(closing, sent: &closingSent, into: buffer)
    }

    mutating func failure(explaining parseError: XMLParseError) -> (any Error)? {
        base.failure(explaining: parseError)
    }

    private mutating func passOverBytesBefore() throws {
        if let file = base as? DescriptorReader, file.skip(before) {
            before = 0
            return
        }
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        while before > 0 {
            let count = try scratch.withUnsafeMutableBytes { scratch in
                try base.read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[..<min(scratch.count, before)]))
            }
            if count == 0 { break }
            before -= count
        }
        before = 0
    }

    private func copy(_ bytes: [UInt8], sent: inout Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, bytes.count - sent)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[sent..<(sent + count)]))
        }
        sent += count
        return count
    }
}

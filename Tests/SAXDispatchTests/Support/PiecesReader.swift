import SAXDispatch

/// Bytes in memory, read at most `pieceSize` at a time; throws `failure.error` once
/// `failure.after` bytes were read, if given.
struct PiecesReader: XMLInputReader {
    let bytes: [UInt8]
    let pieceSize: Int
    var failure: (after: Int, error: any Error)?
    private(set) var offset = 0

    init(_ bytes: [UInt8], pieceSize: Int, failure: (after: Int, error: any Error)? = nil) {
        self.bytes = bytes
        self.pieceSize = max(1, pieceSize)
        self.failure = failure
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var end = bytes.count
        if let failure {
            if offset >= failure.after { throw failure.error }
            end = min(end, failure.after)
        }
        let count = min(buffer.count, pieceSize, end - offset)
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
        }
        offset += count
        return count
    }
}

extension XMLInput {
    /// `bytes` read by a custom reader and parsed `size` bytes at a time, as if fed in
    /// pieces of that size.
    static func pieces(_ bytes: [UInt8], of size: Int, name: String = "<pieces>") -> XMLInput {
        var input = XMLInput.reader(name: name) { PiecesReader(bytes, pieceSize: size) }
        input.chunkSize = size
        return input
    }

    /// The UTF-8 bytes of `text`, read and parsed `size` bytes at a time.
    static func pieces(_ text: String, of size: Int, name: String = "<pieces>") -> XMLInput {
        pieces(Array(text.utf8), of: size, name: name)
    }
}

extension XMLInput {
    /// `bytes` named `name`, read `pieceSize` bytes at a time.
    static func pieces(_ bytes: [UInt8], of pieceSize: Int, named name: String) -> XMLInput {
        .reader(name: name) { PiecesReader(bytes, pieceSize: pieceSize) }
    }

    /// The input a parallel read of `bytes` on `workers` workers is given in the tests: whole
    /// for 2 workers, in small pieces for more (37 and 5 bytes, larger ones for documents
    /// over 16 KiB), so that the reader sees one read and many (where cuts are found ahead
    /// rather than framed).
    static func forWorkers(_ workers: Int, _ bytes: [UInt8], named name: String) -> XMLInput {
        let small = bytes.count <= 16 << 10
        switch workers {
        case ...2: return .bytes(bytes).named(name)
        case 3: return .pieces(bytes, of: small ? 37 : 4093, named: name)
        default: return .pieces(bytes, of: small ? 5 : 1021, named: name)
        }
    }
}

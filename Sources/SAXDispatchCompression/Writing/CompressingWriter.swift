import SAXDispatch

/// An ``SAXDispatch/XMLOutputWriter`` that compresses what it is handed and writes the
/// compressed bytes to another: the stream ends, and the other is closed, at ``close()``.
final class CompressingWriter: XMLOutputWriter {
    private var base: any XMLOutputWriter
    private let compressor: any Compressor
    private let name: String
    private let format: CompressionFormat

    init(base: any XMLOutputWriter, format: CompressionFormat, level: Int, name: String) throws {
        do {
            compressor = try format.makeCompressor(level: level)
        } catch {
            throw CompressionError(name: name, format: format, message: error.message)
        }
        self.base = base
        self.name = name
        self.format = format
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try compress(bytes, finishing: false)
    }

    func close() throws {
        try compress(UnsafeRawBufferPointer(start: nil, count: 0), finishing: true)
        try base.close()
    }

    private func compress(_ bytes: UnsafeRawBufferPointer, finishing: Bool) throws {
        do {
            try compressor.compress(bytes, finishing: finishing) { try base.write($0) }
        } catch let failure as CompressorFailure {
            throw CompressionError(name: name, format: format, message: failure.message)
        }
    }
}

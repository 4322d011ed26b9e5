/// Reads an ``XMLInput`` a chunk at a time for an asynchronous parse or a stream's
/// iteration: opens it at the first read, and drops its reader (closing a file) at the
/// end, after a failure, or when the pass is dropped.
///
/// Reads are ordinary blocking reads of one chunk.
final class InputReading {
    private let input: XMLInput
    private let chunkSize: Int
    private var reader: (any XMLInputReader)?
    private var buffer: [UInt8] = []
    private var isDone = false
    /// A read failure after the bytes handed on before it, for the next call to throw.
    private var pendingFailure: (any Error)?

    init(_ input: XMLInput, chunkSize: Int) {
        self.input = input
        self.chunkSize = max(1, chunkSize)
    }

    /// Hands the next chunk to `body`, or returns false at the end of the input. A read
    /// failure ends the pass; the bytes read before it come first, as a shorter chunk,
    /// and the next call throws it.
    ///
    /// - Throws: ``XMLInputError`` when the input cannot be opened or read, what a
    ///   custom reader throws, or `CancellationError` when the task is cancelled.
    func next(_ body: (UnsafeRawBufferPointer) -> Void) throws -> Bool {
        try Task.checkCancellation()
        if let failure = pendingFailure {
            pendingFailure = nil
            throw failure
        }
        guard !isDone else { return false }
        if reader == nil {
            do {
                reader = try input.makeReader()
            } catch {
                isDone = true
                throw error
            }
            buffer = [UInt8](repeating: 0, count: chunkSize)
        }
        let chunkSize = chunkSize
        let read = buffer.withUnsafeMutableBytes { reader!.fill($0.baseAddress, count: chunkSize) }
        if read.failure != nil || read.count < chunkSize {
            isDone = true
            reader = nil
        }
        if let failure = read.failure {
            guard read.count > 0 else { throw failure }
            pendingFailure = failure
        }
        guard read.count > 0 else { return false }
        buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<read.count])) }
        return true
    }
}

/// Checks for cancellation before each read of its base: an asynchronous parse of a
/// synchronous input ends between chunks when its task is cancelled.
struct CancellableReader: XMLInputReader {
    var base: any XMLInputReader

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try Task.checkCancellation()
        return try base.read(into: buffer)
    }

    mutating func failure(explaining parseError: XMLParseError) -> (any Error)? {
        base.failure(explaining: parseError)
    }
}

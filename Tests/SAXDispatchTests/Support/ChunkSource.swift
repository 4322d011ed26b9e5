import SAXDispatch

/// A value shared between a test and the handlers or sources it builds; tests use it
/// from one task at a time.
final class Shared<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A document as an asynchronous sequence of byte chunks that counts how many chunks
/// were asked for, and can throw after a number of them.
struct ChunkSource: AsyncSequence, Sendable {
    let chunks: [[UInt8]]
    let pulls: Shared<Int>
    var failure: (after: Int, error: any Error)?

    init(_ document: [UInt8], chunkSize: Int, pulls: Shared<Int> = Shared(0), failure: (after: Int, error: any Error)? = nil) {
        chunks = stride(from: 0, to: document.count, by: Swift.max(1, chunkSize)).map {
            Array(document[$0..<Swift.min(document.count, $0 + Swift.max(1, chunkSize))])
        }
        self.pulls = pulls
        self.failure = failure
    }

    init(_ document: String, chunkSize: Int, pulls: Shared<Int> = Shared(0)) {
        self.init(Array(document.utf8), chunkSize: chunkSize, pulls: pulls)
    }

    func makeAsyncIterator() -> Iterator { Iterator(source: self) }

    struct Iterator: AsyncIteratorProtocol {
        let source: ChunkSource
        var index = 0

        mutating func next() async throws -> [UInt8]? {
            source.pulls.value += 1
            if let failure = source.failure, index == failure.after { throw failure.error }
            guard index < source.chunks.count else { return nil }
            defer { index += 1 }
            return source.chunks[index]
        }
    }
}

/// An error a source throws in tests.
struct SourceFailure: Error, Equatable {}

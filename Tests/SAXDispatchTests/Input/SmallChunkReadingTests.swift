@testable import SAXDispatch
import Testing

/// An input read in pieces smaller than a kilobyte (`saxdispatch --chunk-size 1`) is fed
/// the way fed bytes are: the holdback gathers pieces that cannot complete a token, and a
/// read takes what the source has, so neither expat calls nor reads grow with the pieces.
@Suite("Inputs read in small pieces")
struct SmallChunkReadingTests {
    /// A reader over bytes in memory that counts how often it is asked.
    struct CountingReader: XMLInputReader {
        let bytes: [UInt8]
        var offset = 0
        let reads: Counter

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            reads.value += 1
            let count = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: buffer[..<count])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
            }
            offset += count
            return count
        }
    }

    final class Counter: @unchecked Sendable {
        var value = 0
    }

    @Test("a text node of 200 KB read a byte at a time: few expat calls, few reads, the same text", arguments: [1, 3, 512])
    func oneByteAtATime(chunkSize: Int) throws {
        let text = String(repeating: "t", count: 200_000)
        let bytes = Array("<r>\(text)</r>".utf8)
        let reads = Counter()
        var input = XMLInput.reader(name: "big.xml") { CountingReader(bytes: bytes, reads: reads) }
        input.chunkSize = chunkSize
        var received = ""
        var pieces = 0
        var dispatcher = Dispatcher()
        dispatcher.onEnd("r") { _, whole in received = whole }
        dispatcher.onText("r") { _, _ in pieces += 1 }
        let parser = PushParser(dispatcher)
        #expect(try parser.parse(input) == .completed)
        #expect(received == text)
        #expect(parser.driver.holdback.parseCallCount < 2_000, "expat calls: \(parser.driver.holdback.parseCallCount)")
        #expect(reads.value <= bytes.count / XMLInput.defaultChunkSize + 3, "reads: \(reads.value)")
        #expect(pieces > 0)
    }
}

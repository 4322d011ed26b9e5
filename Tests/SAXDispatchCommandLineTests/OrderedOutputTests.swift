import Foundation
import SAXDispatchTools
import Testing

/// The ordering the many-file commands rely on: the head file streams, the others wait,
/// in memory up to a limit and in a temporary file past it.
@Suite("Many files: ordered output and the progress line")
struct OrderedOutputTests {
    /// What the output wrote, in order, by stream.
    final class Written: @unchecked Sendable {
        private let lock = NSLock()
        private var log: [String] = []

        func append(_ stream: OrderedOutput.Stream, _ bytes: UnsafeRawBufferPointer) {
            let text = String(decoding: bytes, as: UTF8.self)
            lock.withLock { log.append((stream == .output ? "out:" : "err:") + text) }
        }

        var text: [String] { lock.withLock { log } }
    }

    @Test("the head writes through; later files wait for it, standard output first")
    func headStreams() {
        let written = Written()
        let output = OrderedOutput { written.append($0, $1) }
        output.channel(2).write("two\n", to: .output)
        output.channel(1).write("one\n", to: .output)
        output.channel(1).write("one failed\n", to: .error)
        output.channel(0).write("zero\n", to: .output)
        #expect(written.text == ["out:zero\n"])
        output.finish(0)
        #expect(written.text == ["out:zero\n", "out:one\n", "err:one failed\n"])
        output.channel(1).write("one again\n", to: .output)
        #expect(written.text.last == "out:one again\n")
        output.finish(1)
        #expect(written.text.suffix(1) == ["out:two\n"])
        output.finish(2)
        output.channel(3).write("three\n", to: .output)
        #expect(written.text.last == "out:three\n")
    }

    @Test("past the memory limit, a waiting file's output goes to a temporary file and comes back whole, in order")
    func spills() {
        let written = Written()
        let output = OrderedOutput(memoryLimit: 1000) { written.append($0, $1) }
        let lines = (0..<2_000).map { "row \($0)\n" }
        for line in lines { output.channel(1).write(line, to: .output) }
        output.channel(1).write("done\n", to: .error)
        #expect(written.text.isEmpty)
        output.finish(0)
        let replayed = written.text
        #expect(replayed.filter { $0.hasPrefix("out:") }.map { $0.dropFirst(4) }.joined() == lines.joined())
        #expect(replayed.last == "err:done\n")
    }

    @Test("the line of many files: files done, bytes of all, decompressed throughput")
    func batchLine() {
        let line = BatchProgress.line(
            filesDone: 3, files: 8, bytes: 76_000_000, total: 200_000_000, documentBytes: 800_000_000, count: 912_004,
            unit: .records, elapsed: .seconds(2))
        #expect(
            line
                == "[====>       ]   38%  3 / 8 files  76.0 / 200.0 MB  38.0 MB/s  (400.0 MB/s decompressed)  912,004 records  0:02 elapsed, 0:03 left"
        )
        let plain = BatchProgress.line(
            filesDone: 0, files: 2, bytes: 5_000_000, total: nil, documentBytes: 5_000_000, count: 1, unit: .elements,
            elapsed: .seconds(1))
        #expect(plain == "0 / 2 files  5.0 MB  5.0 MB/s  1 element  0:01 elapsed")
    }
}

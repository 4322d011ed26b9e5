// A per-byte asynchronous source (the shape of `URLSession.AsyncBytes`: an AsyncSequence
// of UInt8, one byte per `next()`) against the same bytes as 64 KiB chunks, on the same
// 10 MiB zoo-like document, through `Dispatcher.parse(AsyncXMLInput)`.
//
//     swift build -c release --product async-bytes && .build/release/async-bytes [rounds]
import Foundation
import SAXDispatch

/// One byte per `next()`, like a network response's bytes.
struct ByteByByte: AsyncSequence, Sendable {
    let bytes: [UInt8]
    struct AsyncIterator: AsyncIteratorProtocol {
        let bytes: [UInt8]
        var index = 0
        mutating func next() async -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes) }
}

/// The same bytes as 64 KiB chunks.
struct Chunks: AsyncSequence, Sendable {
    let bytes: [UInt8]
    struct AsyncIterator: AsyncIteratorProtocol {
        let bytes: [UInt8]
        var offset = 0
        mutating func next() async -> ArraySlice<UInt8>? {
            guard offset < bytes.count else { return nil }
            let end = Swift.min(offset + 65536, bytes.count)
            defer { offset = end }
            return bytes[offset..<end]
        }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes) }
}

func document(size: Int) -> [UInt8] {
    var text = "<zoo><animals>\n"
    var index = 0
    while text.utf8.count < size - 200 {
        text += "<animal><kind>k\(index % 13)</kind><nested_nonsense><name>name \(index) &amp; co</name></nested_nonsense><junk><blob a=\"1\">decoy \(index)</blob></junk></animal>\n"
        index += 1
    }
    text += "</animals></zoo>\n"
    return Array(text.utf8)
}

final class Count: @unchecked Sendable { var value = 0 }

func parse(_ input: AsyncXMLInput) async throws -> (seconds: Double, bytes: Int) {
    let count = Count()
    var dispatcher = Dispatcher()
    dispatcher.onEnd("animal/nested_nonsense/name") { _, text in count.value += text.utf8.count }
    let start = ContinuousClock.now
    try await dispatcher.parse(input)
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (seconds, count.value)
}

let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 5 : 5
let bytes = document(size: 10 << 20)
var chunkTimes: [Double] = []
var byteTimes: [Double] = []
var streamTimes: [Double] = []
for _ in 0..<rounds {
    let chunked = try await parse(.chunks(Chunks(bytes: bytes)))
    let perByte = try await parse(.bytes(ByteByByte(bytes: bytes)))
    precondition(chunked.bytes == perByte.bytes, "the sources disagree")
    chunkTimes.append(chunked.seconds)
    byteTimes.append(perByte.seconds)
    if CommandLine.arguments.contains("--async-stream") {
        let stream = AsyncStream<UInt8> { continuation in
            for byte in bytes { continuation.yield(byte) }
            continuation.finish()
        }
        let streamed = try await parse(.bytes(stream))
        streamTimes.append(streamed.seconds)
    }
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let mib = Double(bytes.count) / Double(1 << 20)
print(String(format: "document: %.1f MiB, %d rounds (median)", mib, rounds))
print(String(format: "chunks (64 KiB):           %.3f s  %.0f MiB/s", median(chunkTimes), mib / median(chunkTimes)))
print(String(format: "bytes (struct, per byte):  %.3f s  %.0f MiB/s  ratio %.2fx", median(byteTimes), mib / median(byteTimes), median(byteTimes) / median(chunkTimes)))
if !streamTimes.isEmpty {
    print(String(format: "AsyncStream<UInt8>:        %.3f s  %.0f MiB/s  ratio %.2fx", median(streamTimes), mib / median(streamTimes), median(streamTimes) / median(chunkTimes)))
}

import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// Records delivered as they complete: each record of the sequential result exactly once,
/// numbered in document order, by the worker that read it, ranges side by side; never a
/// record the sequential parse would not deliver. (The W3C suite, the fixtures, the
/// adversarial corpus and the fooling documents are read in completion order too, by
/// ``ParallelRecordTests``.)
@Suite("Parallel records in completion order: numbered, on the workers, side by side")
struct ParallelCompletionOrderTests {
    /// The delivering thread, to tell the calling thread from the workers.
    static func threadID() -> pthread_t { pthread_self() }

    static let nodes: String = {
        var text = "<osm>\n"
        for index in 0..<2000 { text += "  <node id='\(index)'><tag k='a' v='\(index)'/></node>\n" }
        return text + "</osm>\n"
    }()

    @Test("every record once, numbered as the sequential parse orders them, delivered on the workers")
    func numbered() throws {
        let record = XMLRecord("node", .text("@id")) { Int($0) ?? -1 }
        let caller = Self.threadID()
        let delivered = LockedValue<[(number: Int, id: Int, onCaller: Bool)]>([])
        let summary = try record.forEachAsCompleted(in: .string(Self.nodes), workers: 3, rangeBytes: 2048) { number, id in
            let onCaller = pthread_equal(Self.threadID(), caller) != 0
            delivered.withLock { $0.append((number, id, onCaller)) }
        }
        let all = delivered.withLock { $0 }.sorted { $0.number < $1.number }
        #expect(all.map(\.number) == Array(0..<2000))
        #expect(all.allSatisfy { $0.id == $0.number })
        #expect(all.allSatisfy { !$0.onCaller })
        #expect(summary.delivered == 2000)
        #expect(summary.sequentialFrom == nil)
        #expect(summary.rangesReadInParallel > 20)
    }

    @Test("ranges are delivered side by side: a body held in the first range sees a later range delivered")
    func sideBySide() throws {
        let record = XMLRecord("node", .text("@id")) { Int($0) ?? -1 }
        let laterDelivered = DispatchSemaphore(value: 0)
        let sawLater = LockedValue(false)
        let firstRangeEnd = LockedValue<Int?>(nil)
        try record.forEachAsCompleted(in: .string(Self.nodes), workers: 2, rangeBytes: 4096) { number, _ in
            if number == 0 {
                // Held until a worker delivers a record of another range (or ten seconds pass).
                let signalled = laterDelivered.wait(timeout: .now() + 10) == .success
                sawLater.withLock { $0 = signalled }
            } else if number > 200 {
                if firstRangeEnd.withLock({ $0 == nil }) {
                    firstRangeEnd.withLock { $0 = number }
                    laterDelivered.signal()
                }
            }
        }
        #expect(sawLater.withLock { $0 })
    }

    @Test("a document that falls back mid-way: the sequential rest is numbered on from the ranges, on the calling thread")
    func fallback() throws {
        // Records read by ranges, then a record larger than a parallel read holds without
        // a boundary (16 MiB): the rest is read sequentially from its start.
        let text = "<r>" + (0..<300).map { "<page id='\($0)'/>" }.joined()
            + "<page id='large'>\(String(repeating: "x", count: 17 << 20))</page>"
            + (300..<600).map { "<page id='\($0)'/>" }.joined() + "</r>"
        let record = XMLRecord("page", .text("@id")) { $0 }
        let sequential = try record.all(in: .string(text))
        #expect(sequential.count == 601)
        let caller = Self.threadID()
        let delivered = LockedValue<[(number: Int, id: String, onCaller: Bool)]>([])
        let summary = try record.forEachAsCompleted(in: .string(text), workers: 2, rangeBytes: 200) { number, id in
            let onCaller = pthread_equal(Self.threadID(), caller) != 0
            delivered.withLock { $0.append((number, id, onCaller)) }
        }
        let all = delivered.withLock { $0 }.sorted { $0.number < $1.number }
        #expect(all.map(\.number) == Array(sequential.indices))
        #expect(all.map(\.id) == sequential)
        let from = try #require(summary.sequentialFrom)
        #expect(summary.rangesReadInParallel > 5)
        #expect(from > 0)
        // The records the sequential rest delivered are the last ones, on the calling thread.
        let onCaller = all.filter(\.onCaller)
        #expect(!onCaller.isEmpty)
        #expect(onCaller.map(\.number) == Array(all.count - onCaller.count..<all.count))
    }

    @Test("a malformed document: every record before the error, none after it, then the sequential error")
    func malformed() {
        let text = "<r>" + (0..<300).map { "<page id='\($0)'/>" }.joined() + "<page id='x'><b></page>"
            + (0..<300).map { "<page id='after\($0)'/>" }.joined() + "</r>"
        let record = XMLRecord("page", .text("@id")) { $0 }
        let sequentialError = #expect(throws: XMLParseError.self) { try record.forEach(in: .string(text)) { _ in } }
        for rangeBytes in [1, 64, 1000] {
            let delivered = LockedValue<[(Int, String)]>([])
            let error = #expect(throws: XMLParseError.self) {
                try record.forEachAsCompleted(in: .string(text), workers: 3, rangeBytes: rangeBytes) { number, id in
                    delivered.withLock { $0.append((number, id)) }
                }
            }
            let all = delivered.withLock { $0 }.sorted { $0.0 < $1.0 }
            #expect(all.map(\.1) == (0..<300).map(String.init))
            #expect(all.map(\.0) == Array(0..<300))
            #expect(error?.description == sequentialError?.description)
        }
    }

    @Test("a body that throws ends the read with its error; no worker delivers once forEachAsCompleted returns")
    func bodyThrows() {
        struct Enough: Error, Equatable { let number: Int }
        let record = XMLRecord("node", .text("@id")) { Int($0) ?? -1 }
        let calls = LockedValue(0)
        #expect(throws: Enough(number: 700)) {
            try record.forEachAsCompleted(in: .string(Self.nodes), workers: 3, rangeBytes: 1024) { number, _ in
                calls.withLock { $0 += 1 }
                if number == 700 { throw Enough(number: number) }
            }
        }
        let afterReturn = calls.withLock { $0 }
        usleep(200_000)
        #expect(calls.withLock { $0 } == afterReturn)
        #expect(afterReturn > 0)
    }

    @Test("one worker: the calling thread delivers in order, numbered")
    func oneWorker() throws {
        let record = XMLRecord("node", .text("@id")) { Int($0) ?? -1 }
        let delivered = LockedValue<[(Int, Int)]>([])
        let summary = try record.forEachAsCompleted(in: .string(Self.nodes), workers: 1) { number, id in
            delivered.withLock { $0.append((number, id)) }
        }
        #expect(delivered.withLock { $0 }.map(\.0) == Array(0..<2000))
        #expect(delivered.withLock { $0 }.map(\.1) == Array(0..<2000))
        #expect(summary.rangesReadInParallel == 0)
    }

    private struct Node: Decodable, Equatable, Sendable {
        let id: Int
        let tag: Tag
        struct Tag: Decodable, Equatable, Sendable {
            let k: String
            let v: String
        }
    }

    @Test("Decodable values as they complete: every value once, numbered in document order, on the workers")
    func decodable() throws {
        let decoder = XMLRecordDecoder()
        var sequential: [Node] = []
        try decoder.forEach(Node.self, at: "/osm/node", in: .string(Self.nodes)) { sequential.append($0) }
        let caller = Self.threadID()
        let delivered = LockedValue<[(number: Int, node: Node, onCaller: Bool)]>([])
        let count = try decoder.forEachAsCompleted(Node.self, at: "/osm/node", in: .string(Self.nodes), workers: 3, rangeBytes: 2048) {
            number, node in
            let onCaller = pthread_equal(Self.threadID(), caller) != 0
            delivered.withLock { $0.append((number, node, onCaller)) }
        }
        let all = delivered.withLock { $0 }.sorted { $0.number < $1.number }
        #expect(count == 2000)
        #expect(all.map(\.number) == Array(0..<2000))
        #expect(all.map(\.node) == sequential)
        #expect(all.allSatisfy { !$0.onCaller })

        // A value that does not decode: the values before it, then the sequential error.
        let broken = Self.nodes.replacingOccurrences(of: "<node id='1500'>", with: "<node id='x'>")
        let sequentialError = #expect(throws: (any Error).self) {
            try decoder.forEach(Node.self, at: "/osm/node", in: .string(broken)) { _ in }
        }
        let before = LockedValue<[Int]>([])
        let error = #expect(throws: (any Error).self) {
            try decoder.forEachAsCompleted(Node.self, at: "/osm/node", in: .string(broken), workers: 2, rangeBytes: 1024) {
                number, _ in before.withLock { $0.append(number) }
            }
        }
        #expect(before.withLock { $0 }.sorted() == Array(0..<1500))
        #expect(error.map { "\($0)" } == sequentialError.map { "\($0)" })
    }
}

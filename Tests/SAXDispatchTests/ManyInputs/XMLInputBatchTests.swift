import Foundation
import SAXDispatch
import SAXDispatchCompression
import SAXDispatchTestSupport
import Testing

@Suite("Many inputs: XMLInputBatch")
struct XMLInputBatchTests {
    /// A document of `animals` animals: its size grows with the count, so that a large
    /// first input finishes after the small ones behind it.
    static func zoo(_ animals: Int) -> String {
        "<zoo>" + String(repeating: "<animal><kind>cat</kind><name>grumpy</name></animal>", count: animals) + "</zoo>"
    }

    /// Files of very different sizes, the largest first.
    static let sizes = [12_000, 3, 1, 2_000, 7, 0, 15, 1, 300, 5, 2, 9]
    static let files: [String] = sizes.enumerated().map { index, animals in
        FileManagerTemp.write(zoo(animals), name: "batch-\(index)-\(animals).xml")
    }

    /// Counts the animals of an input.
    static func countAnimals(_ input: XMLInput) throws -> Int {
        var animals = 0
        var dispatcher = Dispatcher()
        dispatcher.onStart("animal") { _ in animals += 1 }
        try dispatcher.parse(input)
        return animals
    }

    @Test("results come in input order, whatever the job count and whichever input finishes first", arguments: [1, 2, 8])
    func inputOrder(jobs: Int) async throws {
        let batch = XMLInputBatch(Self.files.map { XMLInput.file($0) }, jobs: jobs)
        var indices: [Int] = []
        var counts: [Int] = []
        var names: [String] = []
        let summary = try await batch.parse { input in
            try Self.countAnimals(input)
        } results: { outcome in
            indices.append(outcome.index)
            names.append(outcome.name)
            counts.append(try outcome.result.get())
        }
        #expect(indices == Array(0..<Self.sizes.count))
        #expect(counts == Self.sizes)
        #expect(names == Self.files)
        #expect(summary == XMLInputBatch.Summary(succeeded: 12, failed: 0, notStarted: 0))
    }

    @Test("a failed input is its own result, named in its error; the others are parsed", arguments: [1, 2, 8])
    func perInputErrors(jobs: Int) async throws {
        let bad = FileManagerTemp.write("<zoo>\n  <animal></zoo>", name: "batch-bad.xml")
        let inputs: [XMLInput] = [
            .file(Self.files[0]), .file(bad), .string(Self.zoo(2)).named("two"), .file("/nonexistent/batch.xml"),
            .bytes(Array(Self.zoo(4).utf8)),
        ]
        var outcomes: [String] = []
        let summary = try await XMLInputBatch(inputs, jobs: jobs).parse { input in
            try Self.countAnimals(input)
        } results: { outcome in
            switch outcome.result {
            case .success(let count): outcomes.append("\(outcome.index) \(outcome.name) \(count)")
            case .failure(let error): outcomes.append("\(outcome.index) \(error)")
            }
        }
        #expect(
            outcomes == [
                "0 \(Self.files[0]) 12000",
                "1 \(bad):2:13: error: mismatched tag (in zoo/animal)",
                "2 two 2",
                "3 /nonexistent/batch.xml: error: cannot open file: No such file or directory",
                "4 <bytes> 4",
            ])
        #expect(summary == XMLInputBatch.Summary(succeeded: 3, failed: 2, notStarted: 0))
    }

    @Test("no more than `jobs` bodies run at once, and that many do", arguments: [1, 2, 3])
    func boundedConcurrency(jobs: Int) async throws {
        let gauge = ConcurrencyGauge()
        let inputs = (0..<12).map { XMLInput.string(Self.zoo($0)) }
        try await XMLInputBatch(inputs, jobs: jobs).parse { input in
            gauge.enter()
            defer { gauge.leave() }
            usleep(15_000)
            return try Self.countAnimals(input)
        } results: { _ in }
        #expect(gauge.most == jobs)
    }

    // The wait for the window to fill has no deadline of its own: the cooperative pool,
    // shared with the suite's synchronous tests, can be busy for many seconds. The time
    // limit turns a window that never fills into a failure.
    @Test(
        "while the first input is slow, at most 2 × jobs inputs are started: the results that wait are bounded",
        .timeLimit(.minutes(5)), arguments: [1, 2, 3])
    func boundedWindow(jobs: Int) async throws {
        let started = ConcurrencyGauge()
        let release = ConcurrencyGauge()
        let inputs = (0..<20).map { XMLInput.string(Self.zoo($0)) }
        let task = Task {
            try await XMLInputBatch(inputs, jobs: jobs).parse { input, index in
                started.enter()
                if index == 0 {
                    // The slow first input: its result holds back every other's delivery.
                    while release.most == 0 { usleep(1_000) }
                }
                return try Self.countAnimals(input)
            } results: { _ in }
        }
        // With one job, the slow input holds the only one; with more, the others run
        // until 2 × jobs inputs are started and undelivered.
        let window = jobs == 1 ? 1 : 2 * jobs
        while started.most < window { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(150))
        #expect(started.most == window, "no input starts past the window while the first is undelivered")
        release.enter()
        let summary = try await task.value
        #expect(started.most == 20)
        #expect(summary == XMLInputBatch.Summary(succeeded: 20))
    }

    @Test("stop: no input starts after a failure; those started are delivered in order")
    func stopPolicy() async throws {
        let inputs: [XMLInput] = [
            .string(Self.zoo(1)), .string("<zoo>").named("broken"), .string(Self.zoo(3)), .string(Self.zoo(4)),
        ]
        var delivered: [Int] = []
        let summary = try await XMLInputBatch(inputs, jobs: 1, failurePolicy: .stop).parse { input in
            try Self.countAnimals(input)
        } results: { outcome in
            delivered.append(outcome.index)
        }
        #expect(delivered == [0, 1])
        #expect(summary == XMLInputBatch.Summary(succeeded: 1, failed: 1, notStarted: 2))

        let continued = try await XMLInputBatch(inputs, jobs: 1).parse { input in
            try Self.countAnimals(input)
        } results: { _ in }
        #expect(continued == XMLInputBatch.Summary(succeeded: 3, failed: 1, notStarted: 0))
    }

    @Test("compressed inputs are inputs like any other")
    func compressedInputs() async throws {
        let gzip = TestPaths.packageRoot.appendingPathComponent("Tests/SAXDispatchCompressionTests/Fixtures/zoo.xml.gz").path
        let bzip2 = TestPaths.packageRoot.appendingPathComponent("Tests/SAXDispatchCompressionTests/Fixtures/zoo.xml.bz2").path
        let truncated = try Array(Data(contentsOf: URL(fileURLWithPath: gzip)).dropLast(10))
        let inputs: [XMLInput] = [
            .decompressing(.file(gzip)), .decompressing(.bytes(truncated).named("cut.xml.gz")),
            .decompressing(.file(bzip2)), .decompressing(.file(Self.files[1])),
        ]
        var results: [String] = []
        try await XMLInputBatch(inputs, jobs: 2).parse { input in
            try Self.countAnimals(input)
        } results: { outcome in
            switch outcome.result {
            case .success(let count): results.append("\(count)")
            case .failure(let error): results.append("\(type(of: error))")
            }
        }
        #expect(results == ["2", "DecompressionError", "2", "3"])
    }

    // Without cancellation reaching the read, the parse would wait on the pipe for ever:
    // the time limit turns that into a failure. (How long the cancellation takes is not
    // asserted: a loaded cooperative pool delays the task's resumption by seconds.)
    @Test(
        "cancelling the task ends the running parses, even one waiting on a quiet pipe, and throws",
        .timeLimit(.minutes(5)))
    func cancellation() async throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        defer {
            close(descriptors[0])
            close(descriptors[1])
        }
        _ = "<zoo><animal>".withCString { write(descriptors[1], $0, strlen($0)) }
        let started = ConcurrencyGauge()
        let inputs: [XMLInput] = [.fileDescriptor(descriptors[0])] + Self.files.map { XMLInput.file($0) }
        let task = Task {
            try await XMLInputBatch(inputs, jobs: 1).parse { input in
                started.enter()
                return try Self.countAnimals(input)
            } results: { _ in
                Issue.record("nothing is delivered: the first input never ends before the cancellation")
            }
        }
        while started.most == 0 { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(started.most == 1, "no input after the cancelled one started")
    }

    @Test("an error thrown by results ends the batch with that error")
    func resultsThrow() async throws {
        struct Enough: Error {}
        var delivered = 0
        await #expect(throws: Enough.self) {
            try await XMLInputBatch(Self.files.map { XMLInput.file($0) }, jobs: 2).parse { input in
                try Self.countAnimals(input)
            } results: { _ in
                delivered += 1
                if delivered == 3 { throw Enough() }
            }
        }
        #expect(delivered == 3)
    }

    @Test("the indexed body is given each input's position")
    func indexedBody() async throws {
        let inputs = (0..<9).map { XMLInput.string(Self.zoo($0)).named("zoo-\($0)") }
        var pairs: [String] = []
        try await XMLInputBatch(inputs, jobs: 3).parse { input, index in
            "\(index)=\(try Self.countAnimals(input))"
        } results: { outcome in
            pairs.append(try outcome.result.get())
        }
        #expect(pairs == (0..<9).map { "\($0)=\($0)" })
    }

    @Test("an error thrown by results ends the parses still running, even one waiting on a quiet pipe", .timeLimit(.minutes(5)))
    func resultsThrowEndsRunningParses() async throws {
        struct Enough: Error {}
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        defer {
            close(descriptors[0])
            close(descriptors[1])
        }
        let inputs: [XMLInput] = [.string(Self.zoo(1)), .fileDescriptor(descriptors[0])]
        var delivered = 0
        await #expect(throws: Enough.self) {
            try await XMLInputBatch(inputs, jobs: 2).parse { input in
                try Self.countAnimals(input)
            } results: { _ in
                delivered += 1
                throw Enough()
            }
        }
        #expect(delivered == 1)
    }

    @Test("jobs is at least 1; the default is the processor count")
    func jobs() {
        #expect(XMLInputBatch([], jobs: 0).jobs == 1)
        #expect(XMLInputBatch([]).jobs == ProcessInfo.processInfo.activeProcessorCount)
        var batch = XMLInputBatch([])
        batch.jobs = -3
        #expect(batch.jobs == 1)
    }
}

/// Counts the bodies running at once, from any thread, and remembers the most.
final class ConcurrencyGauge: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var peak = 0

    func enter() {
        lock.withLock {
            current += 1
            peak = max(peak, current)
        }
    }

    func leave() {
        lock.withLock { current -= 1 }
    }

    var most: Int { lock.withLock { peak } }
}

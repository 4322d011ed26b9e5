import Synchronization
import Testing

@testable import SAXDispatch

/// A range's values are kept in order across the buffer's segments, moved out once each,
/// and every value not taken is released with the buffer: no value lost, repeated or leaked.
@Suite("Delivery buffer: a range's values in order, each moved out once")
struct DeliveryBufferTests {
    /// How many values of one test are alive (tests run at once: each has its own).
    final class Alive: Sendable {
        let count = Atomic<Int>(0)
        var now: Int { count.load(ordering: .relaxed) }
    }

    /// A value that counts itself alive.
    final class Tracked: Sendable {
        let number: Int
        let alive: Alive

        init(_ number: Int, _ alive: Alive) {
            self.number = number
            self.alive = alive
            alive.count.add(1, ordering: .relaxed)
        }

        deinit { alive.count.subtract(1, ordering: .relaxed) }
    }

    struct Stop: Error {}

    /// Counts that fill no segment, one exactly, and many with a partial last one.
    static let counts = [0, 1, 15, 16, 17, 255, 256, 257, 1_000, 5_000]

    @Test("Values come out in the order they went in, with their indices", arguments: counts)
    func order(count: Int) {
        let buffer = DeliveryBuffer<String>()
        for number in 0..<count { buffer.append("value \(number) " + String(repeating: "x", count: number % 40)) }
        #expect(buffer.count == count)
        var seen: [Int] = []
        buffer.drain { index, value in
            #expect(value.hasPrefix("value \(index) "))
            seen.append(index)
        }
        #expect(seen == Array(0..<count))
        #expect(buffer.count == count)
    }

    @Test("Drains between appends take only what is new, across segment ends")
    func interleaved() {
        let buffer = DeliveryBuffer<Int>()
        var next = 0
        var seen: [Int] = []
        // Steps that end exactly at segment ends and between them.
        let segment = max(16, DeliveryBuffer<Int>.segmentBytes / MemoryLayout<Int>.stride)
        for step in [1, segment - 1, segment, 3, segment * 2 + 5, 7] {
            for _ in 0..<step {
                buffer.append(next)
                next += 1
            }
            buffer.drain { index, value in
                #expect(index == value)
                seen.append(value)
            }
        }
        #expect(seen == Array(0..<next))
    }

    @Test("A value moved in from memory is moved, not copied")
    func movingIn() {
        let alive = Alive()
        do {
            let buffer = DeliveryBuffer<Tracked>()
            let memory = UnsafeMutablePointer<Tracked>.allocate(capacity: 1)
            for number in 0..<5_000 {
                memory.initialize(to: Tracked(number, alive))
                buffer.append(movingFrom: memory)
            }
            memory.deallocate()
            var numbers: [Int] = []
            buffer.drain { _, value in numbers.append(value.number) }
            #expect(numbers == Array(0..<5_000))
        }
        #expect(alive.now == 0)
    }

    @Test("Values a throwing drain did not take are released with the buffer", arguments: [0, 1, 2_047, 2_048, 2_049, 4_999])
    func throwingDrain(stopAt: Int) {
        let alive = Alive()
        var taken: [Int] = []
        do {
            let buffer = DeliveryBuffer<Tracked>()
            // References: 2,048 to a segment of 16 KiB, so 5,000 fill two and part of a third.
            #expect(DeliveryBuffer<Tracked>.segmentBytes / MemoryLayout<Tracked>.stride == 2_048)
            for number in 0..<5_000 { buffer.append(Tracked(number, alive)) }
            #expect(alive.now == 5_000)
            #expect(throws: Stop.self) {
                try buffer.drain { index, value in
                    taken.append(value.number)
                    if index == stopAt { throw Stop() }
                }
            }
            // The value given to the body that threw is the body's: released with it.
            #expect(alive.now == 5_000 - (stopAt + 1))
        }
        #expect(taken == Array(0...stopAt))
        #expect(alive.now == 0)
    }
}

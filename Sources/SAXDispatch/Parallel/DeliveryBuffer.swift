/// The values a worker made of one range, kept in document order until the caller's
/// thread takes them: each value moved in once and moved out once.
///
/// Why not an array: the code that fills and empties it is generic over the value (a
/// record's model), unspecialized, and an array of a generic element looks up its type's
/// metadata at every append and copies each element out (a retain per string). A class
/// generic over the value finds the value's metadata in its own, and moves.
///
/// Why segments rather than one block that doubles: a range of small records holds
/// megabytes of values, and one block would be reallocated (every value moved again) up
/// to that size for every range, past `malloc`'s mapping threshold, taking fresh pages
/// from the kernel and handing them back each time. Segments of ``segmentBytes`` come from
/// `malloc`'s free lists, are never moved, and each is freed as soon as it is drained.
///
/// What must stay true: it is used by one thread at a time (filled by the worker that parses
/// the range, then handed over through ``RangeWorkers``' lock and emptied by the caller);
/// every value moved in is moved out by ``drain(_:)`` or deinitialized with the buffer.
final class DeliveryBuffer<Value: Sendable>: @unchecked Sendable {
    /// The segments in order: value `i` is in segment `i / segmentCapacity`. Raw pointers,
    /// so that the array is not generic over the value. Those whose every value was taken
    /// (before `taken / segmentCapacity`) were freed.
    private var segments: [UnsafeMutableRawPointer] = []
    /// How many values a segment holds: ``segmentBytes`` of them, at least 16.
    private let segmentCapacity = max(16, DeliveryBuffer.segmentBytes / max(1, MemoryLayout<Value>.stride))
    /// The values in the last segment.
    private var filledInLast = 0
    /// How many values were moved in, and how many of them out.
    private(set) var count = 0
    private var taken = 0

    /// A segment's size in bytes: well under the size at which freeing a block makes glibc's
    /// `malloc` consolidate its free lists (64 KiB).
    static var segmentBytes: Int { 16 << 10 }

    init() {}

    deinit {
        for index in (taken / segmentCapacity)..<segments.count {
            let segment = segments[index].assumingMemoryBound(to: Value.self)
            let segmentStart = index * segmentCapacity
            let first = max(taken, segmentStart) - segmentStart
            let end = min(count, segmentStart + segmentCapacity) - segmentStart
            if end > first { (segment + first).deinitialize(count: end - first) }
            segment.deallocate()
        }
    }

    /// Moves `value` in, after every value moved in before it.
    func append(_ value: consuming Value) {
        nextSlot().initialize(to: value)
        filledInLast += 1
        count += 1
    }

    /// Moves the value at `memory` in (it is left uninitialized), after every value moved in
    /// before it.
    func append(movingFrom memory: UnsafeMutablePointer<Value>) {
        nextSlot().moveInitialize(from: memory, count: 1)
        filledInLast += 1
        count += 1
    }

    /// The slot the next value goes to, in a new segment when the last is full.
    @inline(__always)
    private func nextSlot() -> UnsafeMutablePointer<Value> {
        if segments.isEmpty || filledInLast == segmentCapacity {
            segments.append(UnsafeMutableRawPointer(UnsafeMutablePointer<Value>.allocate(capacity: segmentCapacity)))
            filledInLast = 0
        }
        return segments[segments.count - 1].assumingMemoryBound(to: Value.self) + filledInLast
    }

    /// Moves the values out in order, through `index` (from 0, counting every value moved
    /// in), to `body`; a value `body` did not take when it throws stays for the deinit. Each
    /// segment is freed once its last value is taken.
    func drain(_ body: (_ index: Int, _ value: Value) throws -> Void) rethrows {
        while taken < count {
            let segmentIndex = taken / segmentCapacity
            let segment = segments[segmentIndex].assumingMemoryBound(to: Value.self)
            let segmentStart = segmentIndex * segmentCapacity
            let segmentEnd = segmentStart + segmentCapacity
            let end = min(count, segmentEnd)
            while taken < end {
                let index = taken
                let value = (segment + (index - segmentStart)).move()
                taken += 1
                if taken == segmentEnd { segment.deallocate() }
                try body(index, value)
            }
        }
    }
}

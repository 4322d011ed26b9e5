/// The values a worker made of one range, kept in document order until the caller's
/// thread takes them: each value moved in once and moved out once.
///
/// Why not an array: the code that fills and empties it is generic over the value (a
/// record's model), unspecialized, and an array of a generic element looks up its type's
/// metadata at every append and copies each element out (a retain per string). A class
/// generic over the value finds the value's metadata in its own, and moves.
///
/// What must stay true: it is used by one thread at a time (filled by the worker that parses
/// the range, then handed over through ``RangeWorkers``' lock and emptied by the caller);
/// every value moved in is moved out by ``drain(_:)`` or deinitialized with the buffer.
final class DeliveryBuffer<Value: Sendable>: @unchecked Sendable {
    private var storage: UnsafeMutablePointer<Value>
    private var capacity: Int
    /// The values in `storage[taken..<count]` are initialized.
    private(set) var count = 0
    private var taken = 0

    init() {
        capacity = 16
        storage = .allocate(capacity: capacity)
    }

    deinit {
        (storage + taken).deinitialize(count: count - taken)
        storage.deallocate()
    }

    /// Moves `value` in, after every value moved in before it.
    func append(_ value: consuming Value) {
        reserveOne()
        (storage + count).initialize(to: value)
        count += 1
    }

    /// Moves the value at `memory` in (it is left uninitialized), after every value moved in
    /// before it.
    func append(movingFrom memory: UnsafeMutablePointer<Value>) {
        reserveOne()
        (storage + count).moveInitialize(from: memory, count: 1)
        count += 1
    }

    private func reserveOne() {
        if count == capacity {
            // Doubling keeps appends amortized constant; the values move, none is copied.
            let larger = UnsafeMutablePointer<Value>.allocate(capacity: capacity * 2)
            (larger + taken).moveInitialize(from: storage + taken, count: count - taken)
            storage.deallocate()
            storage = larger
            capacity *= 2
        }
    }

    /// Moves the values out in order, through `index` (from 0, counting every value moved
    /// in), to `body`; a value `body` did not take when it throws stays for the deinit.
    func drain(_ body: (_ index: Int, _ value: Value) throws -> Void) rethrows {
        while taken < count {
            let index = taken
            let value = (storage + index).move()
            taken += 1
            try body(index, value)
        }
    }
}

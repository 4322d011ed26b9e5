/// A growable buffer of values, owned by one holder and read and written in place.
///
/// For per-element state kept in a class: an element read from an `Array` stored in a
/// class retains and releases the array's buffer (two atomic operations) for the read,
/// while this buffer is a pointer its holder owns. Indices are checked, as an array's are.
struct GrowableBuffer<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 16) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    subscript(index: Int) -> Element {
        @inline(__always)
        unsafeAddress {
            precondition(index >= 0 && index < count, "GrowableBuffer index out of range")
            return UnsafePointer(base + index)
        }
        @inline(__always)
        unsafeMutableAddress {
            precondition(index >= 0 && index < count, "GrowableBuffer index out of range")
            return base + index
        }
    }

    /// The last element. The buffer must not be empty.
    var last: Element {
        @inline(__always)
        unsafeAddress {
            precondition(count > 0, "GrowableBuffer is empty")
            return UnsafePointer(base + count - 1)
        }
        @inline(__always)
        unsafeMutableAddress {
            precondition(count > 0, "GrowableBuffer is empty")
            return base + count - 1
        }
    }

    /// The address of the last element, for a holder's own accessors. The buffer must not
    /// be empty; the address is valid until the buffer next changes.
    @inline(__always)
    var lastAddress: UnsafeMutablePointer<Element> {
        precondition(count > 0, "GrowableBuffer is empty")
        return base + count - 1
    }

    /// The address of element `index`, for a holder's own accessors that read and write an
    /// element with one index check; valid until the buffer next changes.
    @inline(__always)
    func address(_ index: Int) -> UnsafeMutablePointer<Element> {
        precondition(index >= 0 && index < count, "GrowableBuffer index out of range")
        return base + index
    }

    /// `length` elements from `start`, in place: valid until the buffer next changes.
    @inline(__always)
    func elements(from start: Int, count length: Int) -> UnsafeBufferPointer<Element> {
        precondition(start >= 0 && length >= 0 && start + length <= count, "GrowableBuffer range out of range")
        return UnsafeBufferPointer(start: base + start, count: length)
    }

    @inline(__always)
    mutating func append(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        // Below the capacity, an `Int`: cannot overflow.
        count &+= 1
    }

    /// Removes the last element and returns it. The buffer must not be empty.
    @inline(__always)
    mutating func removeLast() -> Element {
        precondition(count > 0, "GrowableBuffer is empty")
        count &-= 1
        return (base + count).move()
    }

    /// Removes the last element without reading it. The buffer must not be empty.
    @inline(__always)
    mutating func dropLast() {
        precondition(count > 0, "GrowableBuffer is empty")
        count &-= 1
        (base + count).deinitialize(count: 1)
    }

    /// Removes the element at `index` and returns it; the later ones move down one place.
    mutating func remove(at index: Int) -> Element {
        precondition(index >= 0 && index < count, "GrowableBuffer index out of range")
        let element = (base + index).move()
        (base + index).moveInitialize(from: base + index + 1, count: count - index - 1)
        count -= 1
        return element
    }

    /// Removes the elements from `newCount` on.
    @inline(__always)
    mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count, "GrowableBuffer count out of range")
        (base + newCount).deinitialize(count: count - newCount)
        count = newCount
    }

    /// Removes every element and keeps the storage.
    mutating func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    private mutating func grow() {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }
}

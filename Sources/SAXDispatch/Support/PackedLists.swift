/// A shared helper, not a record stage: lists of values stored back to back in one
/// buffer, with a range per list, made once when a table is built and read on the hot
/// path by index (``RouteTable``'s handler and candidate lists), with no array per list
/// to retain or bounds-check.
struct PackedLists<Element>: ~Copyable {
    private let storage: UnsafeMutableBufferPointer<Element>
    private let offsets: [Int]

    init(_ lists: [[Element]]) {
        var offsets = [0]
        for list in lists { offsets.append(offsets[offsets.count - 1] + list.count) }
        storage = .allocate(capacity: max(1, offsets[offsets.count - 1]))
        var index = 0
        for list in lists {
            for element in list {
                storage.initializeElement(at: index, to: element)
                index += 1
            }
        }
        self.offsets = offsets
    }

    deinit {
        storage.baseAddress?.deinitialize(count: offsets[offsets.count - 1])
        storage.deallocate()
    }

    @inline(__always)
    subscript(list: Int) -> UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(rebasing: storage[offsets[list]..<offsets[list + 1]])
    }
}

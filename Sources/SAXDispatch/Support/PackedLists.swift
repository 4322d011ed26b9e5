/// A shared helper, not a record stage: lists of values stored back to back in one
/// buffer, with a range per list, made once when a table is built and read on the hot
/// path by index (``RouteTable``'s handler and candidate lists), with no array per list
/// to retain or bounds-check.
///
/// What must stay true: `offsets` holds `listCount + 1` ascending offsets, the first 0 and
/// the last the number of values, so that a list index checked against `listCount` is the
/// only check a read needs.
struct PackedLists<Element>: ~Copyable {
    private let storage: UnsafeMutablePointer<Element>
    /// List `i` is `storage[offsets[i]..<offsets[i + 1]]`.
    private let offsets: UnsafeMutablePointer<Int>
    /// The number of lists.
    let listCount: Int

    init(_ lists: [[Element]]) {
        listCount = lists.count
        offsets = .allocate(capacity: lists.count + 1)
        var total = 0
        offsets[0] = 0
        for (index, list) in lists.enumerated() {
            total += list.count
            offsets[index + 1] = total
        }
        storage = .allocate(capacity: max(1, total))
        var index = 0
        for list in lists {
            for element in list {
                (storage + index).initialize(to: element)
                index += 1
            }
        }
    }

    deinit {
        storage.deinitialize(count: offsets[listCount])
        storage.deallocate()
        offsets.deallocate()
    }

    /// The values of list `list`, valid while the lists live.
    @inline(__always)
    subscript(list: Int) -> UnsafeBufferPointer<Element> {
        precondition(list >= 0 && list < listCount, "PackedLists index out of range")
        let start = offsets[list]
        // Below `listCount`: the next offset exists, and is not below this one.
        return UnsafeBufferPointer(start: storage + start, count: offsets[list &+ 1] &- start)
    }
}

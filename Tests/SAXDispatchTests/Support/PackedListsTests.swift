import Testing

@testable import SAXDispatch

/// The route table's handler, test and candidate lists, stored back to back.
@Suite("Packed lists: each list read back whole, empty ones included")
struct PackedListsTests {
    @Test("every list, empty ones first, between and last, reads back as it was given")
    func readBack() {
        let lists: [[Int32]] = [[], [1, 2, 3], [], [], [4], [5, 6], []]
        let packed = PackedLists(lists)
        #expect(packed.listCount == lists.count)
        for (index, list) in lists.enumerated() {
            #expect(Array(packed[index]) == list)
        }
    }

    @Test("no lists, and lists that are all empty, hold nothing")
    func empty() {
        let none = PackedLists<Int>([])
        #expect(none.listCount == 0)
        let empties = PackedLists<Int>([[], []])
        #expect(empties[0].isEmpty && empties[1].isEmpty)
    }

    @Test("the values are released with the lists")
    func releases() {
        final class Marker {}
        weak var held: Marker?
        do {
            let marker = Marker()
            held = marker
            let packed = PackedLists([[marker], [marker, marker]])
            #expect(packed[1].count == 2)
            #expect(held != nil)
        }
        #expect(held == nil)
    }
}

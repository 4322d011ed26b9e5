import Testing

@testable import SAXDispatch

/// The buffer the engine keeps its per-element state in.
@Suite("Growable buffer: push, drop and pop in place")
struct GrowableBufferTests {
    @Test("dropping the last element removes it only, across growth, and the rest read back")
    func dropLast() {
        var buffer = GrowableBuffer<Int>(capacity: 2)
        for value in 0..<5 { buffer.append(value * 10) }
        #expect(buffer.count == 5)
        buffer.dropLast()
        #expect(buffer.count == 4)
        #expect(buffer.last == 30)
        #expect(buffer.removeLast() == 30)
        buffer.append(7)
        #expect((0..<buffer.count).map { buffer[$0] } == [0, 10, 20, 7])
        while !buffer.isEmpty { buffer.dropLast() }
        #expect(buffer.count == 0)
    }

    @Test("a dropped class instance is released")
    func dropLastReleases() {
        final class Marker {}
        var buffer = GrowableBuffer<Marker>(capacity: 1)
        weak var dropped: Marker?
        do {
            let marker = Marker()
            dropped = marker
            buffer.append(marker)
        }
        #expect(dropped != nil)
        buffer.dropLast()
        #expect(dropped == nil)
    }
}

import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// The arrays a parallel read reads into are read into again once no range holds them, in
/// place; and a slice that still holds one keeps its bytes whatever the bookkeeping says.
@Suite("Parallel reads: arrays read into again")
struct ReadArraysTests {
    static func baseAddress(_ slice: ArraySlice<UInt8>) -> UnsafeRawPointer? {
        slice.withUnsafeBytes { $0.baseAddress }
    }

    /// Fills the room it is given with `byte`, up to `count` bytes.
    static func filling(_ byte: UInt8, count: Int? = nil) -> (UnsafeMutableRawBufferPointer) -> Int {
        { room in
            let filled = min(count ?? room.count, room.count)
            for index in 0..<filled { room[index] = byte }
            return filled
        }
    }

    @Test("an array whose bytes every range passed is read into again, in place")
    func readIntoAgainInPlace() {
        var reads = ReadArrays(size: 64)
        // The slices read are dropped at once, as ranges drop theirs once delivered.
        var first: ArraySlice<UInt8>? = reads.read(Self.filling(7))
        let address = first.flatMap(Self.baseAddress)
        #expect(first?.count == 64 && first?.allSatisfy { $0 == 7 } == true)
        first = nil
        // Not passed yet: a new array.
        reads.release(before: 63)
        var second: ArraySlice<UInt8>? = reads.read(Self.filling(8, count: 10))
        #expect(second.flatMap(Self.baseAddress) != address)
        second = nil
        #expect(reads.bytesRead == 74)
        reads.release(before: 64)
        let again = reads.read(Self.filling(9))
        #expect(again.count == 64 && again.allSatisfy { $0 == 9 })
        #expect(Self.baseAddress(again) == address, "read into in place, not copied")
        // A short read's array is not read into again: it would limit the reads.
        reads.release(before: 138)
        #expect(reads.read(Self.filling(1)).count == 64)
    }

    @Test("a slice that still holds a released array keeps its bytes: reading into it copies")
    func heldSliceKeepsItsBytes() {
        var reads = ReadArrays(size: 32)
        let read = reads.read { room in
            for index in 0..<room.count { room[index] = UInt8(index) }
            return room.count
        }
        let slice = read[4..<20]
        // Wrongly released while the slice holds it.
        reads.release(before: 32)
        let next = reads.read(Self.filling(0xFF))
        #expect(Array(slice) == (4..<20).map { UInt8($0) })
        #expect(next.count == 32 && next.allSatisfy { $0 == 0xFF })
        #expect(Self.baseAddress(next) != Self.baseAddress(read))
    }

    @Test("a document many times the arrays in flight, read from a file and from bytes: the records of one parse")
    func manyArraysReadIntoAgain() throws {
        // About 40 reads' worth, with records of every length so that cuts fall anywhere
        // in the arrays, and an error at the end that the sequential rest must find in
        // bytes read long before.
        var text = "<osm>\n"
        var index = 0
        while text.utf8.count < 40 * ParallelRangeParse.readSize {
            text += "<node id='\(index)'><tag k='name' v='\(String(repeating: "n", count: index % 97))'/></node>\n"
            index += 1
        }
        let record = XMLRecord("node", .text("@id"), .text("tag/@v")) { "\($0) \($1.count)" }
        let path = FileManagerTemp.write(text + "</osm>\n", name: "read-arrays.xml")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let malformedPath = FileManagerTemp.write(text + "<node id='x'></osm>\n", name: "read-arrays-malformed.xml")
        defer { try? FileManager.default.removeItem(atPath: malformedPath) }
        for input in [XMLInput.file(path), .bytes(Array((text + "</osm>\n").utf8)), .file(malformedPath)] {
            let sequential = ParallelRecordTests.transcript(record, input, workers: nil)
            #expect(sequential.events.count == index)
            #expect((sequential.error != nil) == (input.name == malformedPath))
            for (workers, rangeBytes) in [(2, 64 << 10), (3, 200 << 10)] {
                let parallel = ParallelRecordTests.transcript(record, input, workers: workers, rangeBytes: rangeBytes)
                #expect(parallel == sequential, "\(workers) workers, ranges of \(rangeBytes) bytes")
                if sequential.error == nil { #expect(parallel.rangesReadInParallel > 4) }
            }
        }
    }
}

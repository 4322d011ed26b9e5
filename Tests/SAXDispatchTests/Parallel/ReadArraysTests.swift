import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// The arrays a parallel read reads into are read into again once no range holds them, in
/// place; and a slice that still holds one keeps its bytes whatever the bookkeeping says.
@Suite("Parallel reads: arrays read into again")
struct ReadArraysTests {
    static func baseAddress(_ array: [UInt8]) -> UnsafeRawPointer? {
        array.withUnsafeBytes { $0.baseAddress }
    }

    @Test("an array whose bytes every range passed is read into again, in place")
    func readIntoAgainInPlace() {
        var reads = ReadArrays(size: 64)
        var first = reads.next()
        let address = Self.baseAddress(first)
        first.withUnsafeMutableBytes { $0.storeBytes(of: 7, toByteOffset: 0, as: UInt8.self) }
        reads.hold(first, count: 64)
        first = []
        // Not passed yet: a new array.
        reads.release(before: 63)
        var second = reads.next()
        #expect(Self.baseAddress(second) != address)
        reads.hold(second, count: 10)
        second = []
        #expect(reads.bytesRead == 74)
        reads.release(before: 64)
        var again = reads.next()
        #expect(again.count == 64)
        #expect(Self.baseAddress(again) == address)
        again.withUnsafeMutableBytes { $0.storeBytes(of: 9, toByteOffset: 0, as: UInt8.self) }
        #expect(Self.baseAddress(again) == address, "written in place, not copied")
    }

    @Test("a slice that still holds a released array keeps its bytes: writing copies")
    func heldSliceKeepsItsBytes() {
        var reads = ReadArrays(size: 32)
        var array = reads.next()
        array.withUnsafeMutableBytes { bytes in for index in bytes.indices { bytes[index] = UInt8(index) } }
        reads.hold(array, count: 32)
        let slice = array[4..<20]
        array = []
        // Wrongly released while the slice holds it.
        reads.release(before: 32)
        var next = reads.next()
        next.withUnsafeMutableBytes { bytes in for index in bytes.indices { bytes[index] = 0xFF } }
        #expect(Array(slice) == (4..<20).map { UInt8($0) })
        #expect(next.allSatisfy { $0 == 0xFF })
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

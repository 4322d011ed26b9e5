import Testing

@testable import SAXDispatch

/// The sizes of a document's ranges on workers: the given size, and small last ones when
/// the document's length is known, never outside 1 byte … the given size.
@Suite("Range sizes: the given size, and smaller near a known end")
struct RangeSizesTests {
    /// The ranges of a document of `length` bytes cut exactly where the sizes say.
    static func ranges(_ sizes: RangeSizes, length: Int) -> [Int] {
        var cuts: [Int] = []
        var offset = 0
        while offset < length {
            let size = sizes.size(from: offset)
            cuts.append(min(size, length - offset))
            offset += size
        }
        return cuts
    }

    @Test("without a known length every range has the given size")
    func unknownLength() {
        let sizes = RangeSizes(largest: 1 << 20, documentBytes: nil, workers: 2)
        #expect(Self.ranges(sizes, length: 8 << 20) == Array(repeating: 1 << 20, count: 8))
    }

    @Test("near a known end the ranges shrink to 256 KiB, and the workers' last ranges are small")
    func end() {
        for length in [4 << 20, 64 << 20, (64 << 20) + 12_345] {
            for workers in [2, 3, 8] {
                let sizes = RangeSizes(largest: 1 << 20, documentBytes: length, workers: workers)
                let ranges = Self.ranges(sizes, length: length)
                #expect(ranges.reduce(0, +) == length)
                // The last range of each worker: none larger than the smallest size.
                #expect(ranges.suffix(workers).allSatisfy { $0 <= 256 << 10 })
                // The given size until what is left is a range for each worker.
                #expect(ranges.prefix(max(0, length / (1 << 20) - workers)).allSatisfy { $0 == 1 << 20 })
                // Never growing again once they shrink.
                let tail = Array(ranges[(ranges.lastIndex(of: 1 << 20) ?? 0)...])
                let shrinking = zip(tail, tail.dropFirst()).allSatisfy { pair in pair.0 >= pair.1 }
                #expect(shrinking)
                // Few more ranges than the document holds of the given size: about one for
                // each worker at each halving from it to the smallest (two).
                #expect(ranges.count <= length / (1 << 20) + 1 + 2 * workers)
            }
        }
    }

    @Test("a size is between 1 byte and the largest, whatever the offset, length and workers")
    func bounds() {
        for largest in [1, 7, 2048, 64 << 10, 100_000, 1 << 20, 1 << 30] {
            for documentBytes in [nil, 0, 1, 5_000, 1 << 20, 1 << 40] as [Int?] {
                for workers in [1, 2, 5, 1024] {
                    let sizes = RangeSizes(largest: largest, documentBytes: documentBytes, workers: workers)
                    for offset in [0, 1, 63 << 10, 1 << 20, 3 << 30, 1 << 41] {
                        let size = sizes.size(from: offset)
                        #expect(size >= 1 && size <= largest, "largest \(largest) length \(String(describing: documentBytes)) offset \(offset)")
                        // Sizes up to 256 KiB are kept as given.
                        if largest <= 256 << 10 { #expect(size == largest) }
                    }
                }
            }
        }
    }
}

/// The arrays a parallel read reads its input into, read into again once no range holds
/// their bytes (``ParallelRangeParse``).
///
/// A fresh array for every read would mostly come from memory the heap has just given
/// back to the kernel: a page fault for each of its pages, and the kernel zeroing them,
/// before a byte is read. So an array whose bytes every range has delivered is read into
/// again.
///
/// What must stay true: an array is read into again only through Swift's copy on write,
/// so a slice that still holds it (a worker's range, a held byte) keeps its bytes whatever
/// this bookkeeping says; bookkeeping that is wrong costs a copy, never a byte. The arrays
/// kept, held and spare together, are never more than the most held at once.
struct ReadArrays {
    /// The arrays read into, oldest first, with the document offset where each one's bytes
    /// end.
    private var held: [(bytes: [UInt8], end: Int)] = []
    private var spare: [[UInt8]] = []
    /// The offset after the last byte read.
    private(set) var bytesRead = 0
    /// How many bytes an array holds.
    let size: Int

    init(size: Int) {
        self.size = size
    }

    /// Reads the next bytes of the document with `read` (given room for up to ``size``
    /// bytes, returning how many it read) into a spare array, or a new one, which is held
    /// until ``release(before:)`` passes them.
    /// - Returns: The bytes read.
    mutating func read(_ read: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows -> ArraySlice<UInt8> {
        var count = 0
        let array: [UInt8]
        if var reused = spare.popLast() {
            count = try reused.withUnsafeMutableBytes { try read($0) }
            array = reused
        } else {
            // Not zeroed first: the array's elements are the bytes read.
            array = try [UInt8](unsafeUninitializedCapacity: size) { bytes, initialized in
                count = try read(UnsafeMutableRawBufferPointer(bytes))
                initialized = count
            }
        }
        bytesRead += count
        held.append((array, bytesRead))
        return array[..<count]
    }

    /// Makes spare the arrays whose bytes all lie before `offset`: no range the workers
    /// parse or the caller holds begins before it.
    mutating func release(before offset: Int) {
        var released = 0
        while released < held.count && held[released].end <= offset { released += 1 }
        guard released > 0 else { return }
        // Only a full array: one a short read filled would limit every read into it.
        for index in 0..<released where held[index].bytes.count == size { spare.append(held[index].bytes) }
        held.removeFirst(released)
    }
}

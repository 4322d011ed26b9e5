/// The arrays a parallel read reads its input into, read into again once no range holds
/// their bytes (``ParallelRangeParse``).
///
/// Every read had a fresh array, which `malloc` took more often than not from memory the
/// heap had just given back to the kernel: a page fault for each of its pages, and the
/// kernel zeroing them, before a byte was read. An array whose bytes every range has
/// delivered is read into again instead.
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

    /// An array of ``size`` bytes to read into: a spare one, or a new one.
    mutating func next() -> [UInt8] {
        spare.popLast() ?? [UInt8](repeating: 0, count: size)
    }

    /// Keeps `array`, into which `count` more bytes of the document were read, until
    /// ``release(before:)`` passes them.
    mutating func hold(_ array: [UInt8], count: Int) {
        bytesRead += count
        held.append((array, bytesRead))
    }

    /// Makes spare the arrays whose bytes all lie before `offset`: no range the workers
    /// parse or the caller holds begins before it.
    mutating func release(before offset: Int) {
        var released = 0
        while released < held.count && held[released].end <= offset { released += 1 }
        guard released > 0 else { return }
        for index in 0..<released { spare.append(held[index].bytes) }
        held.removeFirst(released)
    }
}

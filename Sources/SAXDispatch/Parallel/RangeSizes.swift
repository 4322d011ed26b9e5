/// How large each range of a document read on workers is (``ParallelRangeParse``): where
/// the next cut is proposed, from where a range begins.
///
/// Ranges are ``largest`` until, when the document's length is known, what is left is
/// within a few ranges for each worker: from there they shrink with it, so that the
/// workers finish close together rather than one parsing a whole last range while the
/// others wait.
///
/// The first ranges are as large as the rest: a worker woken for a small first range takes
/// the reading thread's core, and the reader, behind, leaves the other workers waiting.
///
/// What must stay true: a size is at least 1 byte and at most ``largest``; the sizes decide
/// only where cuts are proposed, never what a range's parse delivers.
struct RangeSizes: Sendable {
    /// A range's size, but near a known end.
    let largest: Int
    /// The size the last ranges shrink to: ``smallestRangeBytes``, or ``largest`` when that
    /// is smaller.
    let smallest: Int
    /// The document's length, when known (``XMLInput/expectedByteCount``).
    let documentBytes: Int?
    let workers: Int

    /// The smallest range the schedule makes: large enough that the setup of a range's
    /// parse (a dispatcher and an expat parser of its own) stays a small part of its cost.
    static let smallestRangeBytes = 256 << 10

    init(largest: Int, documentBytes: Int?, workers: Int) {
        self.largest = max(1, largest)
        smallest = min(self.largest, Self.smallestRangeBytes)
        self.documentBytes = documentBytes
        self.workers = max(1, workers)
    }

    /// The size of a range that begins at `offset`: ``largest``, or near a known end what is
    /// left shared among the workers, never below ``smallest``, so that sizes shrink as the
    /// workers take the last ranges. An offset past a length that was wrong (a file that
    /// grew) gets the smallest size: slower, never wrong.
    func size(from offset: Int) -> Int {
        guard let documentBytes else { return largest }
        return min(largest, max(smallest, (documentBytes - offset) / workers))
    }
}

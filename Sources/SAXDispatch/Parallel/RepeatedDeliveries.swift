/// What a parse that reads a document again from its first byte delivers again before
/// anything new (``ParallelRangeParse/SequentialStart/documentStart``): as many values as
/// the ranges delivered, which its dispatcher drops.
struct RepeatedDeliveries {
    private var left: Int

    /// The deliveries a sequential parse beginning at `start` repeats, when the ranges
    /// delivered `delivered`: all of them from the document's start, none from the rest.
    init(_ start: ParallelRangeParse.SequentialStart, delivered: Int) {
        if case .documentStart = start { left = delivered } else { left = 0 }
    }

    /// Whether the next delivery is new; a repeated one is counted off.
    mutating func isNew() -> Bool {
        guard left > 0 else { return true }
        left -= 1
        return false
    }
}

/// Lets the workers of a parallel read deliver each range's values themselves, as they
/// complete, numbered in document order, rather than hand them to the calling thread in
/// order.
///
/// A range's values may go out once its parse verified and every range before it verified
/// too: a range that does not verify sends it and everything after it to the sequential
/// parse, whose values must be the only ones delivered from there on. So a worker that
/// finished a range reports how many values it made (``awaitTurn(of:values:names:)``) and waits
/// only while a range before it is still being parsed, not delivered; then ranges deliver
/// side by side, each value with its number among all values of the document.
///
/// A range that verified also waits until one parse of the whole document would still be
/// within expat's memory budget by its end (``ParserMemoryBound``, decided here as the
/// frontier passes it); one that would not stops delivery as one that did not verify does.
///
/// A range that did not verify may instead be read again in other ranges, under new
/// indices (``drop(_:)``): then it and the ranges after it are dropped, none of them
/// delivers, and the new ranges go on from the values delivered before it.
///
/// What must stay true: each range reports once, and the ranges are taken by the workers in
/// order (a range before one that waits is being parsed, so waiting always ends); once a
/// range did not verify or ``stop()`` was called, no range after it delivers until the ranges
/// from it on are dropped.
final class CompletionGate: @unchecked Sendable {
    // Every stored `var` is guarded by `lock`.
    private let lock = Lock()
    private let changed = Condition()
    /// What each range reported and the frontier has not passed: its values, `nil` when it
    /// did not verify.
    private var reported: [Int: (values: Int?, names: InternedNamesSlot?)] = [:]
    private let memory: ParserMemoryBound
    /// The first range not known to have verified with every range before it.
    private var frontier = 0
    /// How many ranges the frontier passed: the place among the ranges delivered of the one
    /// at the frontier, which ``ParserMemoryBound`` decides ranges by (dropped ranges have none).
    private var passed = 0
    /// The number of the first value of the range at ``frontier``.
    private var valuesBeforeFrontier = 0
    /// The numbers of the first values of ranges the frontier passed, until they take them.
    private var firstNumbers: [Int: Int] = [:]
    /// Whether a range did not verify, at the frontier.
    private var broken = false
    private var stopped = false

    /// A gate whose ranges must also keep one parse of the whole within `memory`.
    init(memory: ParserMemoryBound) {
        self.memory = memory
    }

    /// Reports that range `index` verified with `values` values (`nil`: it did not
    /// verify), its parse having interned `names`, and waits until every range before it
    /// reported.
    /// - Returns: The number, counted from 0 in document order, of the range's first value;
    ///   `nil` when the range is not to deliver (it, or a range before it, did not verify, or
    ///   delivery stopped).
    func awaitTurn(of index: Int, values: Int?, names: InternedNamesSlot?) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        // A range reports once: one behind the frontier was dropped before it reported.
        guard index >= frontier else { return nil }
        reported[index] = (values, names)
        while !broken, let entry = reported[frontier] {
            reported.removeValue(forKey: frontier)
            guard let count = entry.values,
                memory.admits(range: passed, entry.names)
            else {
                broken = true
                break
            }
            firstNumbers[frontier] = valuesBeforeFrontier
            valuesBeforeFrontier += count
            frontier += 1
            passed += 1
        }
        changed.broadcast()
        while frontier <= index && !broken && !stopped { changed.wait(on: lock) }
        guard !stopped else { return nil }
        return firstNumbers.removeValue(forKey: index)
    }

    /// Drops the ranges in `indices`, which begin at the frontier, where a range did not
    /// verify and every range before it delivered: none of them delivers (one waiting for its
    /// turn gets none), and the range after them is the next to deliver, its values numbered
    /// on from the ones before the dropped ranges.
    func drop(_ indices: Range<Int>) {
        lock.withLock {
            for index in indices { reported.removeValue(forKey: index) }
            frontier = max(frontier, indices.upperBound)
            broken = false
            changed.broadcast()
        }
    }

    /// Ends delivery on the workers: a body threw, or the read ended. A range waiting for
    /// its turn gets none.
    func stop() {
        lock.withLock {
            stopped = true
            changed.broadcast()
        }
    }

    /// Whether delivery stopped: a worker delivering values checks between them.
    var isStopped: Bool { lock.withLock { stopped } }

    /// What a worker throws out of its delivery when delivery stopped: not an error of
    /// its own, as another's ends the read.
    struct Stopped: Error {}
}

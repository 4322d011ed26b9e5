/// Whether one parse of the whole document could break expat's memory budget
/// (``SafetyProfile/maximumParserMemoryBytes``) where the document is read in ranges, each
/// by a parser of its own that holds only its range's names.
///
/// What a parse holds either follows where it is (the open elements, the attributes of one
/// tag, a token longer than a read), which the parse of the range holding that place held
/// too, or grows with the distinct names met so far, which expat and the dispatcher keep
/// to the end, or follows how the input is handed to expat: one parse copies each piece it
/// is given into expat's buffer, a read of ``XMLInput/chunkSize`` from a reader and a
/// piece as large as the token limit allows from an input in memory, where a range's parse
/// gets pieces of its own size. So one parse of the whole holds at most what the largest
/// range's parse held, plus what the distinct names of every range up to there cost, plus
/// the buffer its pieces need: ``bound(largestPeak:namesCost:feedBytes:)`` takes twice
/// each (four times the piece), as expat's tables, pools and buffer grow by doubling. Below the limit, one parse of the whole would
/// not have broken it up to there, and the range may deliver; at the limit it might have,
/// and the read goes on as one parse would (``ParallelRangeParse``).
///
/// Ranges are decided in document order, once each, by whichever thread reaches a range
/// first in that order (the calling thread, or the ``CompletionGate``); the first refused
/// range refuses every range after it.
///
/// What must stay true: the names kept are bounded by the limit, as past it every range is
/// refused and nothing more is added.
final class ParserMemoryBound: @unchecked Sendable {
    // Every stored `var` is guarded by `lock`.
    private let lock = Lock()
    private var elements: Set<[UInt8]> = []
    private var attributes: Set<[UInt8]> = []
    private var prefixes: Set<[UInt8]> = []
    /// What the distinct names of the ranges decided so far cost (``cost(element:)``…).
    private var namesCost = 0
    private var largestPeak = 0
    /// How many ranges were decided, from the first.
    private var decided = 0
    /// The first range refused, if one was.
    private var refused: Int?
    /// The bytes of an input in memory, the size of a reader's reads.
    private let inMemoryBytes: Int?
    private let inMemory: Bool
    private let chunkSize: Int
    /// What the names of the ranges before the refused one cost, the largest piece one
    /// parse of the whole hands expat, and the limit.
    private var namesCostBeforeRefused = 0
    private var feedBytesAtRefusal = 0
    private var limitAtRefusal = 0

    /// The bound of a read of an input of `inMemoryBytes` in memory (`inMemory`, the count
    /// `nil` when unknown), or read in pieces of `chunkSize`.
    init(inMemoryBytes: Int?, chunkSize: Int, inMemory: Bool) {
        self.inMemoryBytes = inMemoryBytes
        self.chunkSize = chunkSize
        self.inMemory = inMemory
    }

    /// Whether range `index` (its place among the ranges delivered, from 0: a range dropped
    /// and read again in others has none) may deliver: decides it from the names its parse
    /// interned and the limits it was parsed with (`slot`, `nil` when it did not verify) when
    /// it is the next range to decide, or says what was decided.
    func admits(range index: Int, _ slot: InternedNamesSlot?) -> Bool {
        lock.withLock {
            if index < decided { return refused.map { index < $0 } ?? true }
            // Ranges come in order; one that skipped a range is not taken on trust.
            guard index == decided else { return false }
            decided += 1
            if refused != nil { return false }
            guard let slot, let limit = slot.limit, let names = slot.names else { return true }
            let feedBytes = feedBytes(tokenLimit: slot.tokenLimit)
            let before = namesCost
            largestPeak = max(largestPeak, names.peakBytes)
            for name in names.elements where elements.insert(name).inserted { namesCost += Self.cost(element: name.count) }
            for name in names.attributes where attributes.insert(name).inserted {
                namesCost += Self.cost(attribute: name.count)
            }
            for name in names.prefixes where prefixes.insert(name).inserted { namesCost += Self.cost(prefix: name.count) }
            guard Self.bound(largestPeak: largestPeak, namesCost: namesCost, feedBytes: feedBytes) >= limit else {
                return true
            }
            refuse(index, namesCostBefore: before, feedBytes: feedBytes, limit: limit)
            return false
        }
    }

    /// Refuses range `index`, the next to decide, which did not verify, when its own parse
    /// broke the memory limit: one parse of the whole, which holds more, may break it there
    /// or before. Returns whether it did.
    func refusesRangeThatBrokeLimit(_ index: Int, _ slot: InternedNamesSlot) -> Bool {
        lock.withLock {
            guard slot.brokeLimit, let limit = slot.limit, index == decided, refused == nil else { return false }
            decided += 1
            refuse(index, namesCostBefore: namesCost, feedBytes: feedBytes(tokenLimit: slot.tokenLimit), limit: limit)
            return true
        }
    }

    /// The largest piece one parse of the whole hands expat: a read, or for an input in
    /// memory as much as the token limit allows (a gibibyte at most).
    private func feedBytes(tokenLimit: Int?) -> Int {
        let piece = min(tokenLimit ?? 1 << 30, 1 << 30)
        return inMemory ? min(inMemoryBytes ?? piece, piece) : chunkSize
    }

    /// Call with `lock` held.
    private func refuse(_ index: Int, namesCostBefore: Int, feedBytes: Int, limit: Int) {
        refused = index
        namesCostBeforeRefused = namesCostBefore
        feedBytesAtRefusal = feedBytes
        limitAtRefusal = limit
        elements = []
        attributes = []
        prefixes = []
    }

    /// The first range refused, if one was.
    var refusedRange: Int? { lock.withLock { refused } }

    /// At least what one parse of the whole would hold by the refused range's start for
    /// the distinct names of the ranges before it and the pieces it is handed (the bound's
    /// share for them), at most the limit.
    var boundBeforeRefusal: Int {
        lock.withLock { min(limitAtRefusal, 2 * namesCostBeforeRefused + 4 * (feedBytesAtRefusal + 1024)) }
    }

    /// At least what one parse of the whole holds at once, from the largest range's peak,
    /// what the distinct names up to there cost, and the largest piece it hands expat.
    static func bound(largestPeak: Int, namesCost: Int, feedBytes: Int) -> Int {
        2 * largestPeak + 2 * namesCost + 4 * (feedBytes + 1024)
    }

    /// What a distinct element name of `length` bytes costs one parse: expat's copy and its
    /// entry in expat's table, and the dispatcher's copy, entry and per-name arrays.
    static func cost(element length: Int) -> Int { 3 * length + 256 }
    /// What a distinct attribute name costs: expat's copy and its entry.
    static func cost(attribute length: Int) -> Int { 2 * length + 96 }
    /// What a declared prefix costs: expat's copy of the prefix and of `xmlns:prefix`, an
    /// attribute name of its own, and their entries.
    static func cost(prefix length: Int) -> Int { 4 * length + 224 }
}

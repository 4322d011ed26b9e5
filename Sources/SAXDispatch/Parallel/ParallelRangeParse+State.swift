extension ParallelRangeParse {
    /// The coordinator's state: the framer, the bytes not yet handed in, and the ranges
    /// handed in and not yet delivered, whose bytes a fallback reads again.
    struct State {
        var framer: DocumentFramer
        /// The document's bytes from ``pendingStart`` on, not yet in a range: slices of the
        /// reads, in order, ``pendingCount`` bytes.
        var pending: [ArraySlice<UInt8>] = []
        var pendingCount = 0
        var pendingStart = 0
        /// The boundary where the pending range begins; `nil` at the document's start.
        var pendingBoundary: FrameBoundary?
        /// The ranges handed in and not yet delivered, oldest first.
        var unsettled: [HandedIn] = []
        /// The index of the next range handed in (``RangeJob/index``).
        var nextIndex = 0
        /// How many ranges were delivered: the next one's place among them.
        var nextToDeliver = 0
        /// How many times the held bytes were framed again after a range whose end was found
        /// ahead did not verify.
        var framedAgain = 0
        /// Where ranges may again end at cuts found ahead, after a guess failed.
        var looksAheadFrom = 0
        var fallingBack = false
        /// Whether the fallback is for expat's memory budget (``ParserMemoryBound``).
        var refusedForMemory = false
        /// Whether that fallback reads the whole document again, dropping what was delivered.
        var rereadsWhole = false
        /// Where the sequential parse began, if one did.
        var sequentialFrom: Int?
        /// The name of the element the last cut begins with, as written, while the next cut
        /// is looked for ahead (``speculate(sizes:maximumContextBytes:)``); `nil` while
        /// the framer proposes cuts.
        var speculativeName: [UInt8]?
        /// Where the look ahead found no start tag up to, in the held bytes.
        var searchedFrom = 0
        var cutsFoundAhead = 0
        /// The arrays the document is read into.
        var reads = ReadArrays(size: ParallelRangeParse.readSize)
        /// The input's name and encoding, for each range's parse.
        let source: String
        let encoding: String?

        /// A range handed in: where it begins, its bytes, where its parse leaves the names it
        /// interned, its index, and whether its end was found ahead.
        struct HandedIn {
            let boundary: FrameBoundary?
            let bytes: [ArraySlice<UInt8>]
            let names: InternedNamesSlot
            let index: Int
            let endsInItsContext: Bool
        }

        var report: Report {
            Report(
                rangesReadInParallel: nextToDeliver, sequentialFrom: sequentialFrom, cutsFoundAhead: cutsFoundAhead,
                framedAgain: framedAgain)
        }

        /// The context of a range that begins at `boundary`.
        func context(_ boundary: FrameBoundary?) -> [UInt8] {
            boundary.map { framer.prolog + $0.ancestors.flatMap(\.bytes) } ?? []
        }

        func origin(_ boundary: FrameBoundary?) -> RangePositionOrigin? {
            boundary.map {
                RangePositionOrigin(
                    context: context($0), utf8: framer.countsUTF8, line: $0.line, column: $0.column, byteOffset: $0.offset)
            }
        }

        /// Where the oldest bytes a range or the pending bytes hold begin: none before it
        /// is needed again.
        var oldestHeldOffset: Int {
            unsettled.first.map { $0.boundary?.offset ?? 0 } ?? pendingStart
        }

        mutating func append(_ bytes: ArraySlice<UInt8>) {
            pending.append(bytes)
            pendingCount += bytes.count
        }

        /// Puts the bytes of the ranges handed in and not delivered back before the pending
        /// ones, which then begin where the oldest of those ranges began, at `base`: the
        /// reverse of handing them in (``handIn(upTo:to:)``).
        mutating func holdAgain(from base: FrameBoundary) {
            let returned = unsettled.flatMap(\.bytes)
            pending = returned + pending
            pendingCount += returned.reduce(0) { $0 + $1.count }
            pendingStart = base.offset
            pendingBoundary = base
            unsettled.removeAll()
        }

        /// Takes the first `length` pending bytes, splitting a read's slice where they end.
        mutating func takePending(_ length: Int) -> [ArraySlice<UInt8>] {
            var taken: [ArraySlice<UInt8>] = []
            var left = length
            while left > 0, let first = pending.first {
                if first.count <= left {
                    taken.append(first)
                    pending.removeFirst()
                    left -= first.count
                } else {
                    taken.append(first.prefix(left))
                    pending[0] = first.dropFirst(left)
                    left = 0
                }
            }
            pendingCount -= length
            return taken
        }

        /// Hands the pending range, up to `cut` (or to the document's end), to the workers.
        mutating func handIn<Result>(upTo cut: FrameBoundary?, to pool: RangeWorkers<Result>) {
            let length = cut.map { $0.offset - pendingStart } ?? pendingCount
            let bytes = takePending(length)
            let job = RangeJob(
                index: nextIndex, source: source, encoding: encoding, context: context(pendingBoundary), bytes: bytes,
                closing: cut.map { $0.ancestors.reversed().flatMap(\.endTag) } ?? [], origin: origin(pendingBoundary),
                endsInItsContext: cut?.foundAhead ?? false)
            pool.submit(job)
            unsettled.append(
                HandedIn(
                    boundary: pendingBoundary, bytes: bytes, names: job.internedNames, index: job.index,
                    endsInItsContext: job.endsInItsContext))
            nextIndex += 1
            if let cut {
                pendingStart = cut.offset
                pendingBoundary = cut
            } else {
                pendingStart += length
            }
        }
    }
}

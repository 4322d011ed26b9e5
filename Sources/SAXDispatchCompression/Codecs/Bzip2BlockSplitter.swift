/// Cuts bzip2 input into pieces that decompress on their own, one decompressor each: a
/// short stream as it is, and the blocks of a longer one, a few at a time, as streams of
/// their own (`BZh`, the blocks' bits, the end marker and the CRC combined from theirs),
/// so that a single-stream file (as `bzip2` writes) decompresses on several threads as a
/// multi-stream one (as `pbzip2` writes) does.
///
/// Blocks sit at any bit offset, and the splitter finds them by their 48-bit marker and a
/// plausible header after it (``Bzip2Bits/isBlockHeader(_:at:level:)``), and a stream's
/// end by its marker and the CRC combined from its blocks'. Those bits may also occur
/// inside a block's data: a cut there leaves the block before it short, which its
/// decompressor reports as corrupt, and a stream's end marker that does not carry the
/// stream's CRC is read as data; a wrong cut is an error, never different bytes. Each
/// piece must decode to its end and no further (a block's piece ends with the end
/// marker, so a block that ended early leaves bytes its decompressor reports).
///
/// Anything else (a stream start without a block, bytes after the last stream, a run of
/// bits longer than any block) goes into the open piece as it is, for its decompressor to
/// report as a sequential read would; the splitter then passes the rest through.
struct Bzip2BlockSplitter: CompressedPieceSplitter {
    /// The longest compressed block: 900,000 symbols of at most 20 bits, and its tables.
    static let maximumBlockBytes = 2_400_000

    private enum State {
        /// A stream, an empty stream, the end or trailing bytes is expected at this offset.
        case streamStart(at: Int)
        case blocks(Stream)
        /// Everything that follows goes into the open piece as it is.
        case passingThrough
        case finished
    }

    private struct Stream {
        /// The offset of its `BZh`.
        var start: Int
        /// `BZh` and the block-size digit.
        var header: [UInt8]
        var level: Int
        /// The bit offset of the current block's marker.
        var block: Int
        /// Where the search for the marker after it goes on.
        var searchFrom: Int
        /// How many pieces of it were cut.
        var piecesCut: Int
        /// The CRC combined from the blocks before the current one.
        var combined: UInt32
        /// The bit offset of the first block of the piece being gathered.
        var piece: Int
        /// The CRC combined from that piece's blocks before the current one.
        var pieceCombined: UInt32
    }

    /// The compressed size from which blocks make a piece: smaller blocks (`bzip2 -1`
    /// writes blocks of 100k) are gathered, so a thread decompresses a fair share each.
    let minimumPieceBytes: Int

    init(minimumPieceBytes: Int = 128 * 1024) {
        self.minimumPieceBytes = minimumPieceBytes
    }

    private var state = State.streamStart(at: 0)
    /// Input not yet given to a piece (or needed again), from offset `pendingStart`.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// Whether the sink holds an open piece: the last piece of a stream stays open until
    /// what follows the stream is known.
    private var pieceIsOpen = false

    /// Cuts what `bytes` completes; false when the sink wants nothing more.
    mutating func append(_ bytes: UnsafeRawBufferPointer, to sink: inout some CompressedPieceSink) -> Bool {
        pending += bytes
        return cut(atEnd: false, sink: &sink)
    }

    /// Cuts the rest at the end of the input and ends the open piece (unless the input
    /// failed: its error then follows the open piece's bytes).
    mutating func finish(to sink: inout some CompressedPieceSink, endingOpenPiece: Bool = true) {
        if cut(atEnd: true, sink: &sink), pieceIsOpen, endingOpenPiece { sink.end() }
        pieceIsOpen = false
        state = .finished
    }

    private mutating func cut(atEnd: Bool, sink: inout some CompressedPieceSink) -> Bool {
        while true {
            switch state {
            case .finished:
                pending.removeAll()
                return true
            case .passingThrough:
                defer { drop(upTo: pendingStart + pending.count) }
                return pending.withUnsafeBytes { sink.add($0) }
            case .streamStart(let offset):
                guard let next = streamStart(at: offset, atEnd: atEnd, sink: &sink) else { return true }
                guard next else { return false }
            case .blocks(var stream):
                let outcome = nextBlock(&stream, atEnd: atEnd, sink: &sink)
                if case .blocks = state { state = .blocks(stream) }
                switch outcome {
                case .moreInput: return true
                case .stop: return false
                case .next: continue
                }
            }
        }
    }

    // MARK: Stream starts

    /// What is at `offset`, where a stream ended or the input began. `nil` until enough
    /// input is here to tell; false when the sink wants nothing more.
    private mutating func streamStart(at offset: Int, atEnd: Bool, sink: inout some CompressedPieceSink) -> Bool? {
        let available = pendingStart + pending.count - offset
        if available == 0 && atEnd {
            state = .finished
            return true
        }
        // `BZh`, the digit, a marker and the CRC of an empty stream.
        guard available >= 14 || atEnd else { return nil }
        let index = offset - pendingStart
        let isHeader =
            available >= 10 && pending[index] == 0x42 && pending[index + 1] == 0x5A && pending[index + 2] == 0x68
            && (0x31...0x39).contains(pending[index + 3])
        let marker = isHeader ? pending.withUnsafeBytes { Bzip2Bits.bits($0, at: (index + 4) * 8, count: 48) } : nil
        if marker == Bzip2Bits.blockMarker {
            endPiece(&sink)
            drop(upTo: offset)
            let bit = (offset + 4) * 8
            state = .blocks(
                Stream(
                    start: offset, header: Array(pending[0..<4]), level: Int(pending[3] - 0x30), block: bit,
                    searchFrom: bit + 48, piecesCut: 0, combined: 0, piece: bit, pieceCombined: 0))
            return true
        }
        if marker == Bzip2Bits.endMarker && available >= 14 {
            // An empty stream: it decodes to nothing, with the piece before it.
            if !pieceIsOpen {
                guard beginPiece(at: offset, &sink) else { return false }
            }
            guard pending.withUnsafeBytes({ sink.add(UnsafeRawBufferPointer(rebasing: $0[index..<(index + 14)])) }) else {
                return false
            }
            drop(upTo: offset + 14)
            state = .streamStart(at: offset + 14)
            return true
        }
        // Bytes after the last stream, or a stream that starts wrong: its decompressor
        // reports them, after the stream before.
        if !pieceIsOpen {
            guard beginPiece(at: offset, &sink) else { return false }
        }
        drop(upTo: offset)
        state = .passingThrough
        return true
    }

    // MARK: Blocks

    private enum Outcome {
        case moreInput, stop, next
    }

    /// Finds the end of the stream's current block and cuts it.
    private mutating func nextBlock(_ stream: inout Stream, atEnd: Bool, sink: inout some CompressedPieceSink) -> Outcome {
        let base = pendingStart * 8
        let found = pending.withUnsafeBytes { Bzip2Bits.firstMarker(in: $0, from: stream.searchFrom - base) }
        guard let found else {
            if atEnd { return cutTruncated(stream, sink: &sink) }
            stream.searchFrom = max(stream.searchFrom, (pendingStart + max(0, pending.count - 7)) * 8)
            if (pendingStart + pending.count) * 8 - stream.block > Self.maximumBlockBytes * 8 {
                return cutOverlong(stream, sink: &sink)
            }
            return .moreInput
        }
        let bit = found.bit + base
        let blockCRC = pending.withUnsafeBytes { Bzip2Bits.bits($0, at: stream.block - base + 48, count: 32) }
        switch found.marker {
        case .block:
            let isHeader = pending.withUnsafeBytes { Bzip2Bits.isBlockHeader($0, at: found.bit, level: stream.level) }
            guard let isHeader else {
                if atEnd { return cutTruncated(stream, sink: &sink) }
                stream.searchFrom = bit
                return .moreInput
            }
            guard isHeader, let blockCRC else {
                stream.searchFrom = bit + 1
                return .next
            }
            let crc = UInt32(truncatingIfNeeded: blockCRC)
            stream.combined = Bzip2Bits.combine(stream.combined, crc)
            stream.pieceCombined = Bzip2Bits.combine(stream.pieceCombined, crc)
            if bit - stream.piece >= minimumPieceBytes * 8 {
                guard cutPiece(stream, to: bit, crc: stream.pieceCombined, keepOpen: false, sink: &sink) else { return .stop }
                stream.piecesCut += 1
                stream.piece = bit
                stream.pieceCombined = 0
                drop(upTo: bit >> 3)
            }
            stream.block = bit
            stream.searchFrom = bit + 48
            return .next
        case .end:
            let stored = pending.withUnsafeBytes { Bzip2Bits.bits($0, at: found.bit + 48, count: 32) }
            guard let stored, let blockCRC else {
                if atEnd { return cutTruncated(stream, sink: &sink) }
                stream.searchFrom = bit
                return .moreInput
            }
            let crc = UInt32(truncatingIfNeeded: blockCRC)
            guard UInt32(truncatingIfNeeded: stored) == Bzip2Bits.combine(stream.combined, crc) else {
                // Not this stream's end: the bits are a block's data (or the end is damaged,
                // which the piece that reaches it reports).
                stream.searchFrom = bit + 1
                return .next
            }
            let end = (bit + 80 + 7) >> 3
            if stream.piecesCut == 0 {
                // A stream of one piece goes as it is.
                guard beginPiece(at: stream.start, &sink) else { return .stop }
                guard pending.withUnsafeBytes({ sink.add(UnsafeRawBufferPointer(rebasing: $0[0..<(end - pendingStart)])) })
                else { return .stop }
            } else {
                let pieceCRC = Bzip2Bits.combine(stream.pieceCombined, crc)
                guard cutPiece(stream, to: bit, crc: pieceCRC, keepOpen: true, sink: &sink) else { return .stop }
            }
            drop(upTo: end)
            state = .streamStart(at: end)
            return .next
        }
    }

    /// Gives the blocks of the piece being gathered, up to bit `end`, as a stream of their own.
    private mutating func cutPiece(_ stream: Stream, to end: Int, crc: UInt32, keepOpen: Bool, sink: inout some CompressedPieceSink) -> Bool {
        let base = pendingStart * 8
        let piece = pending.withUnsafeBytes {
            Bzip2Bits.stream(header: stream.header, blocksOf: $0, from: stream.piece - base, to: end - base, combinedCRC: crc)
        }
        return give(piece, offset: (stream.piece >> 3) - stream.header.count, keepOpen: keepOpen, sink: &sink)
    }

    /// The input ends inside the stream: what is left goes to a piece whose decompressor
    /// finds the stream truncated (or damaged), as a sequential read would.
    private mutating func cutTruncated(_ stream: Stream, sink: inout some CompressedPieceSink) -> Outcome {
        let end = pendingStart + pending.count
        defer { state = .finished }
        if stream.piecesCut == 0 {
            guard beginPiece(at: stream.start, &sink) else { return .stop }
            return pending.withUnsafeBytes({ sink.add($0) }) ? .next : .stop
        }
        let base = pendingStart * 8
        let piece = pending.withUnsafeBytes {
            Bzip2Bits.stream(
                header: stream.header, blocksOf: $0, from: stream.piece - base, to: end * 8 - base, combinedCRC: 0,
                ending: false)
        }
        return give(piece, offset: (stream.piece >> 3) - stream.header.count, keepOpen: true, sink: &sink) ? .next : .stop
    }

    /// More bits than any block holds without a marker: the input is not bzip2 as it goes
    /// on, and its decompressor says so.
    private mutating func cutOverlong(_ stream: Stream, sink: inout some CompressedPieceSink) -> Outcome {
        if stream.piecesCut == 0 {
            guard beginPiece(at: stream.start, &sink) else { return .stop }
            state = .passingThrough
            return .next
        }
        return cutTruncated(stream, sink: &sink)
    }

    private mutating func give(_ piece: [UInt8], offset: Int, keepOpen: Bool, sink: inout some CompressedPieceSink) -> Bool {
        guard beginPiece(at: offset, &sink), piece.withUnsafeBytes({ sink.add($0) }) else { return false }
        if !keepOpen { endPiece(&sink) }
        return true
    }

    /// Ends the open piece, if there is one, and begins one whose offsets count from
    /// `offset`; false when the sink wants nothing more.
    private mutating func beginPiece(at offset: Int, _ sink: inout some CompressedPieceSink) -> Bool {
        endPiece(&sink)
        pieceIsOpen = sink.begin(at: offset)
        return pieceIsOpen
    }

    /// Ends the open piece, if there is one.
    private mutating func endPiece(_ sink: inout some CompressedPieceSink) {
        if pieceIsOpen { sink.end() }
        pieceIsOpen = false
    }

    /// Forgets the input before `offset`.
    private mutating func drop(upTo offset: Int) {
        let count = min(pending.count, offset - pendingStart)
        guard count > 0 else { return }
        pending.removeFirst(count)
        pendingStart += count
    }
}

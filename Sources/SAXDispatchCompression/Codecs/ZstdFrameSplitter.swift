/// Cuts zstd input into pieces of whole frames, each of them at least
/// ``minimumPieceBytes`` (but the last), so that a file of many frames (as `pzstd`, the
/// seekable format and zstd's `--split` write, or frames concatenated) decompresses on
/// several threads. A file of one frame, as `zstd` writes by default, is one piece.
///
/// Frames are found by their headers: the magic number, the frame header's size from its
/// descriptor, then each block's size from its three-byte header, to the last block and
/// the checksum; skippable frames by their size. Nothing is decompressed to find them, and
/// no byte inside a frame is ever taken for a boundary. Anything else (bytes that are not
/// a frame where one should begin, a reserved block type) goes into the open piece as it
/// is, for its decompressor to report as a sequential read would; the splitter then
/// passes the rest through.
struct ZstdFrameSplitter: CompressedPieceSplitter {
    /// The least compressed bytes of a piece before another may begin.
    let minimumPieceBytes: Int

    init(minimumPieceBytes: Int = 128 * 1024) {
        self.minimumPieceBytes = minimumPieceBytes
    }

    private enum State {
        /// A frame begins here: its magic number is read before it goes into a piece.
        case frameStart
        /// The frame header's descriptor byte, after a zstd frame's magic number.
        case descriptor
        /// A skippable frame's size, after its magic number.
        case skippableSize
        /// A block header of the frame.
        case blockHeader(hasChecksum: Bool)
        /// Bytes to pass, then the next state.
        case skipping(Int, then: Next)
        /// Whatever comes: into the open piece as it is.
        case passingThrough
    }

    private enum Next {
        case frameStart
        case blockHeader(hasChecksum: Bool)
    }

    private var state = State.frameStart
    /// The bytes of a header being read (a magic number, a size, a block header).
    private var header: [UInt8] = []
    /// The input's offset of the next byte appended.
    private var offset = 0
    /// The bytes of the open piece so far.
    private var pieceBytes = 0
    private var pieceIsOpen = false

    mutating func append(_ bytes: UnsafeRawBufferPointer, to sink: inout some CompressedPieceSink) -> Bool {
        var index = 0
        while index < bytes.count {
            switch state {
            case .passingThrough:
                return add(UnsafeRawBufferPointer(rebasing: bytes[index...]), to: &sink)
            case .skipping(let count, let next):
                let taken = min(count, bytes.count - index)
                guard add(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + taken)]), to: &sink) else { return false }
                index += taken
                if taken == count {
                    switch next {
                    case .frameStart: state = .frameStart
                    case .blockHeader(let hasChecksum): state = .blockHeader(hasChecksum: hasChecksum)
                    }
                } else {
                    state = .skipping(count - taken, then: next)
                }
            case .frameStart:
                // The magic number is held until it is whole: a piece begins only at a frame.
                header.append(bytes[index])
                index += 1
                guard header.count == 4 else { continue }
                let magic = UInt32(header[0]) | UInt32(header[1]) << 8 | UInt32(header[2]) << 16 | UInt32(header[3]) << 24
                let isFrame = magic == Self.frameMagic || magic & 0xFFFF_FFF0 == Self.skippableMagic
                if isFrame && (!pieceIsOpen || pieceBytes >= minimumPieceBytes) {
                    if pieceIsOpen { sink.end() }
                    guard sink.begin(at: offset) else { return false }
                    pieceIsOpen = true
                    pieceBytes = 0
                }
                guard flushHeader(to: &sink) else { return false }
                if !isFrame {
                    state = .passingThrough
                } else {
                    state = magic == Self.frameMagic ? .descriptor : .skippableSize
                }
            case .descriptor:
                let descriptor = bytes[index]
                guard add(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + 1)]), to: &sink) else { return false }
                index += 1
                let singleSegment = descriptor & 0x20 != 0
                let sizeFlag = Int(descriptor >> 6)
                let contentSizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][sizeFlag]
                let dictionaryBytes = [0, 1, 2, 4][Int(descriptor & 0x03)]
                let rest = (singleSegment ? 0 : 1) + dictionaryBytes + contentSizeBytes
                // A reserved bit set is no frame a decompressor reads: it says so.
                if descriptor & 0x08 != 0 {
                    state = .passingThrough
                } else {
                    state = .skipping(rest, then: .blockHeader(hasChecksum: descriptor & 0x04 != 0))
                }
            case .skippableSize:
                header.append(bytes[index])
                index += 1
                guard header.count == 4 else { continue }
                let size = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
                guard flushHeader(to: &sink) else { return false }
                state = .skipping(size, then: .frameStart)
            case .blockHeader(let hasChecksum):
                header.append(bytes[index])
                index += 1
                guard header.count == 3 else { continue }
                let value = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16
                guard flushHeader(to: &sink) else { return false }
                let isLast = value & 1 != 0
                let type = (value >> 1) & 3
                let size = value >> 3
                if type == 3 {
                    state = .passingThrough
                    continue
                }
                let content = type == 1 ? 1 : size
                let next: Next = isLast ? .frameStart : .blockHeader(hasChecksum: hasChecksum)
                state = .skipping(content + (isLast && hasChecksum ? 4 : 0), then: next)
            }
        }
        return true
    }

    mutating func finish(to sink: inout some CompressedPieceSink, endingOpenPiece: Bool = true) {
        // A header cut short by the end of the input: its bytes go to the open piece, or
        // begin one, for the decompressor to report.
        if !header.isEmpty {
            if !pieceIsOpen {
                guard sink.begin(at: offset) else { return }
                pieceIsOpen = true
            }
            guard flushHeader(to: &sink) else { return }
        }
        if pieceIsOpen && endingOpenPiece { sink.end() }
        pieceIsOpen = false
        state = .passingThrough
    }

    /// The zstd frame's magic number, and the skippable frames' (their low four bits any).
    static let frameMagic: UInt32 = 0xFD2F_B528
    static let skippableMagic: UInt32 = 0x184D_2A50

    /// Adds `bytes` to the open piece, beginning one at the input's start if none is.
    private mutating func add(_ bytes: UnsafeRawBufferPointer, to sink: inout some CompressedPieceSink) -> Bool {
        if !pieceIsOpen {
            guard sink.begin(at: offset) else { return false }
            pieceIsOpen = true
            pieceBytes = 0
        }
        offset += bytes.count
        pieceBytes += bytes.count
        return sink.add(bytes)
    }

    /// Adds the header bytes held to the open piece.
    private mutating func flushHeader(to sink: inout some CompressedPieceSink) -> Bool {
        let held = header
        header.removeAll(keepingCapacity: true)
        return held.withUnsafeBytes { add($0, to: &sink) }
    }
}

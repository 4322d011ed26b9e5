#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The bytes of a document that the coordinator holds and has not handed in yet, as the
/// slices of the reads they came in, with the searches that find a range's next cut in
/// them without the framing pass (``ParallelRangeParse``).
///
/// Each search looks for one byte of its pattern with `memchr` (a byte that is seldom
/// anywhere else: the `!` of `<!`, the `?` of `<?`) and compares the rest where it is
/// found, so that it reads the bytes at the speed of `memchr`.
///
/// Offsets are the document's. What must stay true: no search reads a byte outside the
/// slices, and a pattern split between two slices is found as one written in one.
struct HeldBytes {
    let pieces: [ArraySlice<UInt8>]
    /// The offset of the first piece's first byte.
    let start: Int
    /// The offset of each piece's first byte.
    private let pieceStarts: [Int]
    /// The piece the last lookup found: searches read forward, so the next is mostly there.
    private let lastPiece = LastPiece()

    private final class LastPiece {
        var index = 0
    }
    /// The offset after the last piece's last byte.
    let end: Int

    init(pieces: [ArraySlice<UInt8>], start: Int) {
        self.pieces = pieces
        self.start = start
        var starts: [Int] = []
        starts.reserveCapacity(pieces.count)
        var offset = start
        for piece in pieces {
            starts.append(offset)
            offset += piece.count
        }
        pieceStarts = starts
        end = offset
    }

    /// The index of the piece that holds `offset`, or `nil` outside the pieces.
    private func piece(holding offset: Int) -> Int? {
        guard offset >= start && offset < end else { return nil }
        let hint = lastPiece.index
        if hint < pieces.count && pieceStarts[hint] <= offset {
            if offset < pieceStarts[hint] + pieces[hint].count { return hint }
            if hint + 1 < pieces.count && offset < pieceStarts[hint + 1] + pieces[hint + 1].count {
                lastPiece.index = hint + 1
                return hint + 1
            }
        }
        var low = 0
        var high = pieces.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if pieceStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        lastPiece.index = low
        return low
    }

    /// The byte at `offset`, or `nil` outside the pieces.
    func byte(at offset: Int) -> UInt8? {
        guard let index = piece(holding: offset) else { return nil }
        let piece = pieces[index]
        return piece[piece.startIndex + (offset - pieceStarts[index])]
    }

    /// Whether the bytes at `offset` are `pattern`.
    func holds(_ pattern: [UInt8], at offset: Int) -> Bool {
        guard let index = piece(holding: offset) else { return pattern.isEmpty }
        let piece = pieces[index]
        let first = offset - pieceStarts[index]
        if first + pattern.count <= piece.count {
            return piece.withUnsafeBufferPointer { buffer in
                guard let address = buffer.baseAddress else { return false }
                return Self.equal(address + first, pattern)
            }
        }
        return pattern.indices.allSatisfy { byte(at: offset + $0) == pattern[$0] }
    }

    /// Whether the held bytes end inside `pattern` written at `offset`: they hold less than
    /// it, and what they hold begins it.
    func holdsTheStart(of pattern: [UInt8], at offset: Int) -> Bool {
        let held = end - offset
        return held < pattern.count && (0..<held).allSatisfy { byte(at: offset + $0) == pattern[$0] }
    }

    /// Whether the bytes at `address` are `pattern` (a few bytes: a loop beats a call).
    @inline(__always)
    private static func equal(_ address: UnsafePointer<UInt8>, _ pattern: [UInt8]) -> Bool {
        var index = 0
        while index < pattern.count {
            if address[index] != pattern[index] { return false }
            index += 1
        }
        return true
    }

    /// The offset of the first place `pattern` is written at or after `from`, beginning
    /// before `limit`, or `nil`: `memchr` finds `pattern[anchor]`, the rest is compared.
    func firstIndex(of pattern: [UInt8], anchor: Int, from: Int, before limit: Int = Int.max) -> Int? {
        let sought = Int32(pattern[anchor])
        // Where the anchor byte of a match that begins in `from..<limit` can be.
        let searchEnd = limit >= end ? end : min(end, limit + anchor)
        guard let first = piece(holding: max(start, from + anchor)) else { return nil }
        for index in first..<pieces.count {
            let piece = pieces[index]
            let base = pieceStarts[index]
            if base >= searchEnd { break }
            let lower = max(from + anchor, base)
            let upper = min(searchEnd, base + piece.count)
            guard lower < upper else { continue }
            let found: Int? = piece.withUnsafeBufferPointer { buffer in
                guard let address = buffer.baseAddress else { return nil }
                var index = lower - base
                while index < upper - base {
                    guard let hit = memchr(address + index, sought, upper - base - index) else { return nil }
                    let at = address.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    let first = at - anchor
                    let matches =
                        first >= 0 && first + pattern.count <= buffer.count
                        ? Self.equal(address + first, pattern)
                        : holds(pattern, at: base + first)
                    if matches { return base + first }
                    index = at + 1
                }
                return nil
            }
            if let found { return found }
        }
        return nil
    }

    /// The offset of the first start tag of an element named `name` (as written) at or
    /// after `from`, or `nil` when the held bytes end first (or end inside it).
    func firstStartTag(named name: [UInt8], from: Int) -> Int? {
        let opening = [UInt8(ascii: "<")] + name
        var searchFrom = from
        while let at = firstIndex(of: opening, anchor: 0, from: searchFrom) {
            // A longer name that begins with this one is another element.
            guard let after = byte(at: at + opening.count) else { return nil }
            if FramedTag.endsName(after) { return at }
            searchFrom = at + 1
        }
        return nil
    }

    /// What is open at `offset` of the comments, CDATA sections and processing
    /// instructions that begin from `from` on (an offset in content).
    enum OpenMarkup: Equatable {
        /// None: `offset` is outside them all.
        case none
        /// One begun before `offset` ends after it, at the offset given (`nil` when the
        /// held bytes end first).
        case endsAfter(Int?)
        /// A `<!` that is neither a comment nor a CDATA section, which only a DOCTYPE is.
        case unexpected
        /// More than the number asked for before `offset`: the framer reads them faster.
        case many
    }

    /// Reads the comments, CDATA sections and processing instructions from `from` (an
    /// offset in content, outside them) up to `offset`, each from its start to its end, and
    /// says whether `offset` is inside one. What is not one of these is passed over: inside
    /// a tag or an attribute value, a `<` is an error that the parse reports. Past `limit`
    /// of them, it stops where they are closer together than `spacing` bytes on average.
    ///
    /// Each piece is walked with a pointer: `memchr` finds the `!` and `?` that may follow a
    /// `<`, and `>` ends each construct. What straddles two pieces is read byte by byte.
    func openMarkup(from: Int, at offset: Int, limit: Int, spacing: Int) -> OpenMarkup {
        var walk = MarkupWalk(from: from, offset: offset, limit: limit, spacing: spacing)
        while walk.position < offset {
            guard let index = piece(holding: walk.position) else { return .none }
            let base = pieceStarts[index]
            let step = pieces[index].withUnsafeBufferPointer { buffer -> MarkupWalk.Step in
                guard let address = buffer.baseAddress else { return .next }
                return walk.read(address, count: buffer.count, base: base)
            }
            switch step {
            case .done(let outcome):
                return outcome
            case .next:
                // On from the piece's end, where a `<` that ends it may open markup.
                let end = base + pieces[index].count
                if end - 1 < offset && byte(at: end - 1) == UInt8(ascii: "<"), let kind = byte(at: end),
                    kind == UInt8(ascii: "!") || kind == UInt8(ascii: "?")
                {
                    walk.position = end - 1
                    if let outcome = walk.straddling(self, at: end - 1, kind: kind) { return outcome }
                } else {
                    walk.position = end
                }
            case .straddling(let markup, let kind):
                if let outcome = walk.straddling(self, at: markup, kind: kind) { return outcome }
            }
        }
        return .none
    }

    /// Where ``openMarkup(from:at:limit:spacing:)`` is: the offset after the last construct
    /// it read (the next begins there or later), how many it read.
    private struct MarkupWalk {
        let from: Int
        let offset: Int
        let limit: Int
        let spacing: Int
        var position: Int
        var read = 0

        init(from: Int, offset: Int, limit: Int, spacing: Int) {
            self.from = from
            self.offset = offset
            self.limit = limit
            self.spacing = spacing
            position = from
        }

        enum Step {
            case done(OpenMarkup)
            /// Nothing more in this piece: on from its end.
            case next
            /// Markup at this offset whose opening goes on in the next piece.
            case straddling(Int, UInt8)
        }

        /// Counts one more construct, beginning at `markup`: `false` past the limit.
        private mutating func counts(_ markup: Int) -> Bool {
            read += 1
            return !(read > limit && markup - from < read * spacing)
        }

        /// Reads the constructs of one piece (`count` bytes at `address`, the first at offset
        /// `base`) from ``position`` on.
        mutating func read(_ address: UnsafePointer<UInt8>, count: Int, base: Int) -> Step {
            // Markup begins before `offset`: its `!` or `?` is at most at `offset`.
            let anchorEnd = min(count, offset - base + 1)
            var nextBang = -1, nextQuestion = -1
            while true {
                let first = position - base + 1
                if nextBang < first { nextBang = Self.first(UInt8(ascii: "!"), address, from: first, anchorEnd) }
                if nextQuestion < first { nextQuestion = Self.first(UInt8(ascii: "?"), address, from: first, anchorEnd) }
                let anchor = min(nextBang, nextQuestion)
                guard anchor < anchorEnd else { return anchorEnd < count ? .done(.none) : .next }
                guard address[anchor - 1] == UInt8(ascii: "<") else {
                    // Text: the search goes on after it.
                    if anchor == nextBang {
                        nextBang = Self.first(UInt8(ascii: "!"), address, from: anchor + 1, anchorEnd)
                    } else {
                        nextQuestion = Self.first(UInt8(ascii: "?"), address, from: anchor + 1, anchorEnd)
                    }
                    continue
                }
                let markup = base + anchor - 1
                guard counts(markup) else { return .done(.many) }
                // Ended in this piece: the framer's own reading of the construct.
                if let close = DocumentFramer.endOfMarkup(address, at: anchor - 1, count) {
                    position = base + close + 1
                    if position > offset { return .done(.endsAfter(position)) }
                    continue
                }
                // Not ended in this piece, or none of the three.
                let opensKnownMarkup =
                    address[anchor] == UInt8(ascii: "?") || anchor + 8 >= count
                    || (address[anchor + 1] == UInt8(ascii: "-") && address[anchor + 2] == UInt8(ascii: "-"))
                    || DocumentFramer.opensCDATA(address + anchor - 1)
                guard opensKnownMarkup else { return .done(.unexpected) }
                read -= 1
                return .straddling(markup, address[anchor])
            }
        }

        /// Reads one construct that begins at `markup` (`<` then `kind`) byte by byte, its
        /// opening or its end in another piece than its `<`; `nil` to go on after it.
        mutating func straddling(_ held: HeldBytes, at markup: Int, kind: UInt8) -> OpenMarkup? {
            guard counts(markup) else { return .many }
            let terminator: [UInt8]
            let body: Int
            if kind == UInt8(ascii: "?") {
                terminator = HeldBytes.instructionEnd
                body = markup + 2
            } else if held.holds(HeldBytes.comment, at: markup) {
                terminator = HeldBytes.commentEnd
                body = markup + HeldBytes.comment.count
            } else if held.holds(HeldBytes.cdata, at: markup) {
                terminator = HeldBytes.cdataEnd
                body = markup + HeldBytes.cdata.count
            } else if held.holdsTheStart(of: HeldBytes.comment, at: markup) || held.holdsTheStart(of: HeldBytes.cdata, at: markup) {
                // Its opening is not all held yet: what it is, the bytes to come say.
                return .endsAfter(nil)
            } else {
                return .unexpected
            }
            guard let close = held.firstIndex(of: terminator, anchor: terminator.count - 1, from: body) else {
                return .endsAfter(nil)
            }
            position = close + terminator.count
            return position > offset ? .endsAfter(position) : nil
        }

        /// The index of the first `byte` in `address[from..<end]`, or `end`.
        @inline(__always)
        private static func first(_ byte: UInt8, _ address: UnsafePointer<UInt8>, from: Int, _ end: Int) -> Int {
            guard from < end, let found = memchr(address + from, Int32(byte), end - from) else { return end }
            return address.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private static let comment = Array("<!--".utf8), cdata = Array("<![CDATA[".utf8)
    private static let commentEnd = Array("-->".utf8), cdataEnd = Array("]]>".utf8), instructionEnd = Array("?>".utf8)

    /// Counts the bytes `from..<to` into `position`.
    func count(from: Int, to: Int, into position: inout FramePosition) {
        var base = start
        for piece in pieces {
            defer { base += piece.count }
            let lower = max(from, base)
            let upper = min(to, base + piece.count)
            guard lower < upper else { continue }
            piece.withUnsafeBytes { bytes in
                position.count(UnsafeRawBufferPointer(rebasing: bytes[(lower - base)..<(upper - base)]))
            }
        }
    }

    /// The element name written after the `<` at `offset`, or `nil` when the held bytes end
    /// inside it.
    func elementName(at offset: Int) -> [UInt8]? {
        var name: [UInt8] = []
        var index = offset + 1
        while let byte = byte(at: index) {
            if FramedTag.endsName(byte) { return name }
            name.append(byte)
            index += 1
        }
        return nil
    }
}

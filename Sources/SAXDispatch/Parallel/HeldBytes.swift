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
/// A search forward looks for one byte of its pattern with `memchr` (the `<` of a start
/// tag) and compares the rest where it is found, so that it reads the bytes at the speed of
/// `memchr`; reading back from a tag (``lastMark(before:downTo:)``) goes a byte at a time,
/// over no more than the few KiB before it.
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

    /// What reading back from `offset` finds first of the marks of comments, CDATA
    /// sections and processing instructions: an opening (`<!`, `<?`) or an end (`-->`,
    /// `]]>`, `?>`), reading no byte before `lower`; `nil` when it finds neither.
    ///
    /// Outside markup, a `<` always begins a tag or markup, so an opening is never text; an
    /// end can be (`-->` and `?>` in text or an attribute value).
    func lastMark(before offset: Int, downTo lower: Int) -> MarkupMark? {
        let lower = max(lower, start)
        guard offset > lower, var index = piece(holding: offset - 1) else { return nil }
        var position = offset - 1
        while position >= lower {
            let base = pieceStarts[index]
            let found = pieces[index].withUnsafeBufferPointer { buffer -> MarkupMark? in
                guard let address = buffer.baseAddress else { return nil }
                let first = max(lower, base) - base
                var at = position - base
                while at >= first {
                    let byte = address[at]
                    if byte == UInt8(ascii: ">") {
                        let before = at > 0 ? address[at - 1] : self.byte(at: base + at - 1)
                        if before == UInt8(ascii: "?") { return .end }
                        if before == UInt8(ascii: "-") || before == UInt8(ascii: "]") {
                            let twoBefore = at > 1 ? address[at - 2] : self.byte(at: base + at - 2)
                            if twoBefore == before { return .end }
                        }
                    } else if byte == UInt8(ascii: "<") {
                        let after = at + 1 < buffer.count ? address[at + 1] : self.byte(at: base + at + 1)
                        if after == UInt8(ascii: "!") || after == UInt8(ascii: "?") { return .opening }
                    }
                    at -= 1
                }
                return nil
            }
            if let found { return found }
            position = base - 1
            guard index > 0 else { return nil }
            index -= 1
        }
        return nil
    }

    /// A mark that begins or ends a comment, CDATA section or processing instruction.
    enum MarkupMark: Equatable {
        case opening, end
    }

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

/// Whether start tags found ahead seem to be inside a comment, CDATA section or processing
/// instruction: read back from each, not before the range's start, an opening comes before
/// an end (``HeldBytes/lastMark(before:downTo:)``).
///
/// A guess, which the parse of the range that ends at the tag verifies: an opening written
/// inside a comment reads as open (a tag passed over that might have begun a range), and an
/// end written in text, or an opening farther back than ``lookBack``, as closed (a cut that
/// does not verify).
///
/// What must stay true: the tags are asked about in document order, and each byte is read
/// back once for all of them: a tag reads back to the one before it, whose answer holds
/// when nothing lies between, so a run of tags inside one long comment costs no more than
/// its bytes.
struct MarkupReadBack {
    /// How far back from a tag, at most, it reads when the tag before it is farther.
    let lookBack: Int
    /// The last tag asked about, and the answer.
    private var previous: (offset: Int, inside: Bool)?

    init(lookBack: Int = ParallelRangeParse.markupLookBack) {
        self.lookBack = lookBack
    }

    mutating func seemsInsideMarkup(at offset: Int, in held: HeldBytes, rangeStart: Int) -> Bool {
        var lower = max(rangeStart, offset - lookBack)
        var answerBelow = false
        if let previous, previous.offset < offset, previous.offset >= lower {
            lower = previous.offset
            answerBelow = previous.inside
        }
        let inside: Bool
        switch held.lastMark(before: offset, downTo: lower) {
        case .opening: inside = true
        case .end: inside = false
        case nil: inside = answerBelow
        }
        previous = (offset, inside)
        return inside
    }
}

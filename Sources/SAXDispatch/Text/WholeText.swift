/// The whole text of the open elements that want it: every piece of character data from
/// the start of the outermost such element on, in document order, in one buffer.
///
/// An element whose whole text is wanted inside another one's starts where the buffer
/// stands at its start tag, and its text is the buffer from there: the outer element's
/// text contains it, so it is neither copied nor cut off at its end. The buffer empties
/// when the outermost one ends.
///
/// The buffer is shared, but each element's handlers get a copy of its text: what the
/// text limits count is ``heldBytes``, each byte once per element whose text holds it, so
/// that nesting cannot multiply what the parse hands out beyond
/// ``SafetyProfile/maximumCollectedTextBytes``.
///
/// Leading whitespace is kept (unlike an element's own text, which skips it where no
/// handler preserves it): the whitespace policy applies to the whole when it is delivered,
/// and an enclosing element's text needs the whitespace of the ones inside it.
struct WholeText: ~Copyable {
    private var buffer = TextBuffer()
    /// The elements whose whole text is gathered, outermost first: their depth, and where
    /// their text starts in the buffer.
    private var starts: [(depth: Int, offset: Int)] = []
    /// The offsets of `starts` added up, so that ``heldBytes`` costs no loop.
    private var offsetSum = 0

    /// Bytes in the buffer: the whole text of the outermost element so far.
    var count: Int { buffer.count }

    /// How many open elements' whole text is gathered.
    var gatheringCount: Int { starts.count }

    /// The bytes of the whole texts of the open elements added up, each byte counted once
    /// per element whose text holds it: what the collected-text limit counts.
    var heldBytes: Int { starts.count * buffer.count - offsetSum }

    /// Whether some open element's whole text is being gathered.
    var isGathering: Bool { !starts.isEmpty }

    /// The depth of the outermost element whose whole text is gathered (its text is the
    /// longest), or 0.
    var outermostDepth: Int { starts.first?.depth ?? 0 }

    /// Starts gathering the whole text of the element at `depth`, the innermost open one.
    mutating func begin(depth: Int) {
        if starts.last?.depth == depth { return }
        starts.append((depth, buffer.count))
        offsetSum += buffer.count
    }

    mutating func append(_ piece: UnsafeRawBufferPointer) {
        guard let base = piece.baseAddress, !piece.isEmpty else { return }
        buffer.append(base, count: piece.count)
    }

    /// The whole text of the element at `depth`, valid until the next mutation; empty if
    /// its whole text is not gathered.
    func text(ofDepth depth: Int) -> UnsafeRawBufferPointer {
        guard let start = starts.last(where: { $0.depth == depth }) else { return buffer.bytes(from: buffer.count) }
        return buffer.bytes(from: start.offset)
    }

    /// The element at `depth` ended.
    mutating func end(depth: Int) {
        guard starts.last?.depth == depth else { return }
        offsetSum -= starts.removeLast().offset
        // One huge text does not pin its memory for the rest of the parse.
        if starts.isEmpty { buffer.removeAll(keepingAtMost: 1 << 16) }
    }
}

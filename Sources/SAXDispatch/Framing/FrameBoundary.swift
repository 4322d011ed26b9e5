/// Where a record begins, as the framer proposes it, with what a parse that begins there
/// needs: the position as a parse of the whole document counts it, and the start tags of
/// the elements open around it.
package struct FrameBoundary: Sendable, Equatable {
    /// The offset of the record's `<` from the start of the document.
    package let offset: Int
    /// The line and column of that `<`, from 1.
    package let line: Int
    package let column: Int
    /// The start tags of the elements open at the boundary, outermost first.
    package let ancestors: [FramedTag]
    /// The size of the context a range that begins there repeats: the prolog and the
    /// ancestors' start tags.
    package var contextBytes = 0
    /// Whether the element that begins there has the record's name (rather than being
    /// another element at the records' depth).
    package var isRecord = true
    /// Whether an element open around the boundary has the record's name: a record around
    /// it, which a range beginning there could not hold whole, so no range begins there.
    package var insideRecord = false
    /// Whether the boundary was found by looking ahead for a start tag rather than by the
    /// framer, its ancestors assumed to be those of the boundary before it: the range that
    /// ends there must end in the elements its own context opened.
    package var foundAhead = false
}

/// One range of a document to parse on a worker: its own document's three parts, and how
/// its positions map to the whole document's.
struct RangeJob: Sendable {
    /// The range's place among the ranges, from 0, in document order.
    let index: Int
    /// The input's name, for errors, and its encoding when set (UTF-8).
    let source: String
    let encoding: String?
    let context: [UInt8]
    /// The range's bytes: slices of the reads they came in, in order.
    let bytes: [ArraySlice<UInt8>]
    let closing: [UInt8]
    /// `nil` for the range at the document's start, whose positions need no moving.
    let origin: RangePositionOrigin?
    /// Whether the elements open at the range's end must be the very ones its context
    /// opened, none closed and opened again in its bytes: the range after it begins with
    /// this one's context, assumed rather than framed (``FrameBoundary/foundAhead``).
    var endsInItsContext = false
    /// Where the range's parse leaves the names it interned, once it verified.
    let internedNames = InternedNamesSlot()
}

/// The names a range's parse interned and the memory limit it was parsed with
/// (``ParserMemoryBound``): written by the worker before it hands the range's result over
/// (to the pool or the ``CompletionGate``, under their locks), read after.
final class InternedNamesSlot: @unchecked Sendable {
    var names: InternedNames?
    /// The parse's memory limit and token limit (`nil`: none).
    var limit: Int?
    var tokenLimit: Int?
    /// Whether the range's own parse broke the memory limit (it did not verify).
    var brokeLimit = false
}

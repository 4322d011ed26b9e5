/// The warnings of a document read in ranges: each range's, then those of the sequential
/// parse of the rest, if one began.
struct RangeWarnings {
    private var sets: [[ParseWarning]] = []
    /// The sequential parse's, once it began.
    private var sequential: [ParseWarning]?

    /// Adds the warnings of the next range, in document order.
    mutating func add(_ range: [ParseWarning]) { sets.append(range) }

    /// Where the sequential parse's warnings go: call once it begins at `start`. From
    /// the document's start, its warnings replace every range's.
    mutating func beginSequential(at start: ParallelRangeParse.SequentialStart) {
        if case .documentStart = start { sets = [] }
        sequential = []
    }

    /// Adds a warning of the sequential parse.
    mutating func addSequential(_ warning: ParseWarning) { sequential?.append(warning) }

    /// The warnings every part gave (see ``common(_:)``).
    var common: [ParseWarning] { Self.common(sets + (sequential.map { [$0] } ?? [])) }

    /// The warnings every range's parse gave: a pattern that matched nothing in one range
    /// matched something in another, and the document's own warnings come once. A warning
    /// is the first range's, with the names it suggests counted there.
    static func common(_ sets: [[ParseWarning]]) -> [ParseWarning] {
        struct Key: Hashable {
            var code: ParseWarning.Code
            var pattern: String?
            var prefix: String?
            var message: String?
        }
        // Suggestions say how often a name occurred, which differs from range to range.
        func key(_ warning: ParseWarning) -> Key {
            Key(
                code: warning.code, pattern: warning.pattern, prefix: warning.prefix,
                message: warning.suggestions.isEmpty ? warning.message : nil)
        }
        guard var common = sets.first else { return [] }
        for set in sets.dropFirst() {
            let keys = Set(set.map(key))
            common.removeAll { !keys.contains(key($0)) }
        }
        return common
    }
}

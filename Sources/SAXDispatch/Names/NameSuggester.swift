/// Finds, among the element names a parse read, the ones a pattern name that matched
/// nothing may have meant: the same local name in another namespace, the same name but
/// for letter case, or a name a few edits away.
///
/// Runs once, at the end of a parse, for the patterns that matched nothing; its work is
/// bounded whatever the document and the patterns: at most ``maximumNames`` names are
/// looked at for each of at most ``maximumPatterns`` patterns, and names longer than
/// ``maximumLength`` characters are compared for equality and letter case only.
struct NameSuggester {
    /// A name the document had, as the name table holds it.
    struct Candidate {
        var parts: QualifiedName.Parts
        var count: Int
        /// Whether the pattern's own name accepts it (it occurred, but not on the pattern's path).
        var isPatternName: Bool
    }

    /// The most names looked at for one pattern.
    static let maximumNames = 4096
    /// The longest local name whose edit distance is computed.
    static let maximumLength = 64
    /// The most suggestions a warning lists.
    static let maximumSuggestions = 3
    /// The most patterns of one parse that get suggestions; the warnings of any more say
    /// only that they matched nothing.
    static let maximumPatterns = 64

    /// The suggestions for a pattern step named `local` (its local name): the names of the
    /// closest kind found (the pattern's own name at other paths, then the same local name
    /// in another namespace, then another letter case, then the fewest edits), most
    /// frequent first.
    static func suggestions(for local: String, among candidates: [Candidate]) -> [ParseWarning.Suggestion] {
        var ranked: [(rank: Int, suggestion: ParseWarning.Suggestion)] = []
        let wanted = Array(local.unicodeScalars)
        let lowered = local.lowercased()
        let limit = wanted.count >= 4 ? max(2, wanted.count / 3) : 1
        for candidate in candidates.prefix(maximumNames) {
            let name = candidate.parts.localName
            let relation: ParseWarning.Suggestion.Relation
            let rank: Int
            if candidate.isPatternName {
                (relation, rank) = (.otherPath, 0)
            } else if name == local {
                (relation, rank) = (.otherNamespace, 1)
            } else if name.lowercased() == lowered {
                (relation, rank) = (.letterCase, 2)
            } else {
                let scalars = Array(name.unicodeScalars)
                guard wanted.count <= maximumLength, scalars.count <= maximumLength,
                    abs(scalars.count - wanted.count) <= limit,
                    let distance = editDistance(wanted, scalars, limit: limit)
                else { continue }
                (relation, rank) = (.spelling, 2 + distance)
            }
            ranked.append(
                (
                    rank,
                    ParseWarning.Suggestion(
                        name: candidate.parts.qualifiedName, namespaceURI: candidate.parts.namespaceURI,
                        count: candidate.count, relation: relation)
                ))
        }
        ranked.sort { a, b in
            a.rank != b.rank ? a.rank < b.rank : a.suggestion.count != b.suggestion.count
                ? a.suggestion.count > b.suggestion.count : a.suggestion.name < b.suggestion.name
        }
        // Only the closest kind: a name one edit away hides those two away.
        let best = ranked.first?.rank
        return ranked.prefix { $0.rank == best }.prefix(maximumSuggestions).map(\.suggestion)
    }

    /// The optimal-string-alignment distance of two names (insertions, deletions,
    /// substitutions and transpositions of neighbours each cost 1), or `nil` when it is
    /// over `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) <= limit ? max(a.count, b.count) : nil }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return nil }
            (previous2, previous, current) = (previous, current, previous2)
        }
        let distance = previous[b.count]
        return distance <= limit ? distance : nil
    }
}

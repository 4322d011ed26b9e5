/// The warnings of a document read in ranges.
enum RangeWarnings {
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

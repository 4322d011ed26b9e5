/// The undeclared entity references a parse left out under
/// ``UndeclaredEntityPolicy/skipWithWarning``: each name once, with how often and where
/// first, for the warnings reported once the document has been read.
///
/// What must stay true: it holds at most ``maximumNames`` names whatever the input; the
/// references to further names are only counted.
struct SkippedEntityLog {
    struct Entry {
        let name: String
        var count: Int
        let line: Int
        let column: Int
    }

    static let maximumNames = 64

    private(set) var entries: [Entry] = []
    private var indexByName: [String: Int] = [:]
    /// References left out to names beyond the first ``maximumNames``.
    private(set) var otherReferences = 0

    mutating func record(_ name: String, at position: (line: Int, column: Int, byteOffset: Int)) {
        if let index = indexByName[name] {
            entries[index].count += 1
        } else if entries.count < Self.maximumNames {
            indexByName[name] = entries.count
            entries.append(Entry(name: name, count: 1, line: position.line, column: position.column))
        } else {
            otherReferences += 1
        }
    }

    /// One warning per name, in the order they were first met, and one for the rest.
    var warnings: [ParseWarning] {
        var warnings = entries.map { ParseWarning.skippedEntity($0.name, count: $0.count, line: $0.line, column: $0.column) }
        if otherReferences > 0 { warnings.append(.skippedEntities(otherReferences: otherReferences)) }
        return warnings
    }
}

/// What the warnings about patterns that matched nothing need of the element names of the
/// earlier documents of a concatenated input, which the name table drops at each
/// document's end (``DispatchEngine/endDocument()``): the keys those names had, so that a
/// pattern one of them matched is not reported, and up to ``NameSuggester/maximumNames``
/// of the names with their counts, so that a warning can still suggest them.
///
/// What must stay true: its memory is bounded however many documents come (one flag per
/// key, at most ``NameSuggester/maximumNames`` names).
struct EarlierDocumentNames {
    /// Per key (``NameKeys``): whether an element with that key was read.
    private(set) var keysRead: [Bool] = []
    /// The names read, with their counts, the first ``NameSuggester/maximumNames`` distinct ones.
    private(set) var names: [QualifiedName.Parts: (key: Int32, count: Int)] = [:]

    var isEmpty: Bool { names.isEmpty }

    /// Adds `count` start tags of the name `parts`, whose key was `key`, out of `keyCount` keys.
    mutating func add(_ parts: QualifiedName.Parts, key: Int32, count: Int, keyCount: Int) {
        if keysRead.count < keyCount { keysRead += [Bool](repeating: false, count: keyCount - keysRead.count) }
        keysRead[Int(key)] = true
        if let known = names[parts] {
            names[parts] = (key, known.count + count)
        } else if names.count < NameSuggester.maximumNames {
            names[parts] = (key, count)
        }
    }
}

/// Names and values from a document, shortened for error messages.
///
/// A name may be as long as ``SafetyProfile/maximumNameBytes`` and text as long as
/// ``SafetyProfile/maximumTextBytes``, so a message that embedded them whole could run to
/// megabytes on one line. Messages keep the start of a long name, which is what tells
/// names apart for a reader, and say that it was cut and how long it was, so that the cut
/// name is never taken for the whole one. The values errors store (`elementPath`,
/// `elementName`) stay whole: only rendered text is cut.
///
/// Every cut falls on a character boundary, and a kept part is also bounded in bytes
/// (``maximumBytesPerCharacter`` per character): one character can hold any number of
/// combining marks, and the bound must hold for those too. A part that would cross it
/// ends at the last whole Unicode scalar inside it instead.
enum MessageText {
    /// The most characters of a name a message keeps.
    static let nameCharacters = 40
    /// The bytes a kept character may take on average: four, a scalar's longest UTF-8 form.
    static let maximumBytesPerCharacter = 4

    /// `name` whole when it has at most ``nameCharacters`` characters; otherwise its first
    /// ones, `…` and its length: `averyveryverylong… (50000 bytes)`.
    static func name(_ name: String) -> String {
        let kept = prefix(name, characters: nameCharacters)
        guard kept.utf8.count < name.utf8.count else { return name }
        return "\(kept)… (\(name.utf8.count) bytes)"
    }

    /// The first `characters` characters of `text`, or fewer when they would take more than
    /// ``maximumBytesPerCharacter`` bytes each.
    static func prefix(_ text: String, characters: Int) -> String {
        let budget = characters * maximumBytesPerCharacter
        if text.utf8.count <= characters { return text }
        var end = text.startIndex
        var count = 0
        while count < characters, end < text.endIndex {
            let next = text.index(after: end)
            guard text.utf8.distance(from: text.startIndex, to: next) <= budget else { break }
            end = next
            count += 1
        }
        if count < characters && end < text.endIndex {
            // A character too long for the budget: keep the scalars that fit.
            var scalar = end
            while scalar < text.endIndex {
                let next = text.unicodeScalars.index(after: scalar)
                guard text.utf8.distance(from: text.startIndex, to: next) <= budget else { break }
                scalar = next
            }
            end = scalar
        }
        // Sliced by scalars: slicing the characters would round a scalar boundary down.
        return String(text.unicodeScalars[..<end])
    }

    /// The last `characters` characters of `text`, bounded in bytes as ``prefix(_:characters:)`` is.
    static func suffix(_ text: String, characters: Int) -> String {
        let budget = characters * maximumBytesPerCharacter
        if text.utf8.count <= characters { return text }
        var start = text.endIndex
        var count = 0
        while count < characters, start > text.startIndex {
            let previous = text.index(before: start)
            guard text.utf8.distance(from: previous, to: text.endIndex) <= budget else { break }
            start = previous
            count += 1
        }
        if count < characters && start > text.startIndex {
            var scalar = start
            while scalar > text.startIndex {
                let previous = text.unicodeScalars.index(before: scalar)
                guard text.utf8.distance(from: previous, to: text.endIndex) <= budget else { break }
                scalar = previous
            }
            start = scalar
        }
        return String(text.unicodeScalars[start...])
    }
}

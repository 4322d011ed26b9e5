/// What a coding key reads in an element, after the decoder's key strategy: its own
/// text, an attribute, a child element (or attribute) by name, or a path of child elements.
enum KeyLookup: Equatable {
    /// The element's own text (the decoder's `textKey`).
    case text
    /// An attribute only (`@href`).
    case attribute(String)
    /// A child element, or an attribute when there is no such child (or the other way
    /// round, as the decoder's `attributeLookup` says).
    case name(String)
    /// Child elements step by step (`animals/animal`), ending at an attribute of the last
    /// step's elements when `attribute` is set (`link/@href`).
    case path([String], attribute: String?)

    init(_ key: String, textKey: String, strategy: XMLRecordDecoder.KeyDecodingStrategy) {
        if key == textKey {
            self = .text
            return
        }
        let steps = key.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if steps.count <= 1 {
            if key.hasPrefix("@") {
                self = .attribute(String(key.dropFirst()))
            } else {
                self = .name(Self.xmlName(key, strategy))
            }
            return
        }
        var elements = steps.map { Self.xmlName($0, strategy) }
        var attribute: String?
        if let last = steps.last, last.hasPrefix("@") {
            attribute = String(last.dropFirst())
            elements.removeLast()
        }
        self = .path(elements, attribute: attribute)
    }

    /// What the key reads, written as a relative path: `text()`, `@href`, `name`, `link/@href`.
    var xmlPath: String {
        switch self {
        case .text: "text()"
        case .attribute(let name): "@\(name)"
        case .name(let name): name
        case .path(let steps, let attribute): steps.joined(separator: "/") + (attribute.map { "/@\($0)" } ?? "")
        }
    }

    /// The XML name a key's name reads under a strategy.
    static func xmlName(_ name: String, _ strategy: XMLRecordDecoder.KeyDecodingStrategy) -> String {
        switch strategy {
        case .useDefaultKeys: name
        case .convertFromSnakeCase: separatingWords(name, with: "_")
        case .convertFromKebabCase: separatingWords(name, with: "-")
        case .custom(let transform): transform(name)
        }
    }

    /// `toiletCount` → `toilet_count`, `imageURL` → `image_url`, `URLString` → `url_string`:
    /// a word starts at an upper-case letter after a lower-case letter or digit, and at the
    /// last upper-case letter of a run followed by a lower-case one.
    static func separatingWords(_ name: String, with separator: Character) -> String {
        let characters = Array(name)
        var result = ""
        result.reserveCapacity(name.utf8.count + 4)
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    result.append(separator)
                }
            }
            result += character.lowercased()
        }
        return result
    }
}

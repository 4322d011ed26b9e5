/// Compiled once per key: what a coding key reads in an element, after the decoder's key
/// strategy — its own text, an attribute, a child element (or attribute) by name, or a
/// path of child elements. Made on a key's first use and kept by ``DecodingSession``;
/// read by ``KeyProbe`` to build the ``KeySchema`` and by the containers to find values.
///
/// Names follow the decoder's namespace rules (``KeyName``): `title`, `atom:title` (a bound
/// prefix, or the prefix as written) or `{uri}title`.
enum KeyTarget: Equatable {
    /// The element's own text (the decoder's `textKey`); its whole text or inner markup
    /// when read as ``XMLStringValue`` or ``XMLInnerMarkup``.
    case text
    /// The element itself (`.`): its own text when read as text, its whole text as an
    /// ``XMLStringValue``, its inner markup as an ``XMLInnerMarkup``.
    case element
    /// An attribute only (`@href`).
    case attribute(KeyName)
    /// A child element, or an attribute when there is no such child (or the other way
    /// round, as the decoder's `attributeLookup` says): the attribute the name's
    /// ``KeyName/attributeName`` reads (`*:id` reads children `id` in any namespace, and
    /// the unprefixed attribute `id`).
    case name(KeyName)
    /// Child elements step by step (`animals/animal`), ending at an attribute of the last
    /// step's elements when `attribute` is set (`link/@href`).
    case path([KeyName], attribute: KeyName?)

    init(_ key: String, options: XMLRecordDecoder) {
        if key == options.textKey {
            self = .text
            return
        }
        if key == "." {
            self = .element
            return
        }
        let steps = Self.steps(of: key)
        if steps.count <= 1 {
            if key.hasPrefix("@") {
                self = .attribute(Self.attributeName(key.dropFirst(), options))
            } else {
                self = .name(Self.elementName(key, options))
            }
            return
        }
        var elements = steps
        var attribute: KeyName?
        if let last = steps.last, last.hasPrefix("@") {
            attribute = Self.attributeName(last.dropFirst(), options)
            elements.removeLast()
        }
        self = .path(elements.map { Self.elementName($0, options) }, attribute: attribute)
    }

    /// The steps of a key, split at the slashes outside braces: the URI of a Clark name
    /// (`{http://www.w3.org/2005/Atom}link/@href`) has slashes of its own.
    static func steps(of key: String) -> [String] {
        var steps: [String] = []
        var inBraces = false
        var start = key.startIndex
        for index in key.utf8.indices {
            switch key.utf8[index] {
            case UInt8(ascii: "{"): inBraces = true
            case UInt8(ascii: "}"): inBraces = false
            case UInt8(ascii: "/") where !inBraces:
                if start < index { steps.append(String(key[start..<index])) }
                start = key.utf8.index(after: index)
            default: break
            }
        }
        if start < key.endIndex { steps.append(String(key[start...])) }
        return steps
    }

    /// The name an element step (or a plain key) reads: the key strategy converts the local
    /// name (a custom strategy gets the whole step, and may return a prefixed or Clark name).
    static func elementName(_ step: String, _ options: XMLRecordDecoder) -> KeyName {
        let namespaces = options.namespaces
        let processesNamespaces = options.processesNamespaces
        let anyNamespace = options.matchesUnprefixedNamesInAnyNamespace
        switch options.keyDecodingStrategy {
        case .useDefaultKeys:
            return KeyName(
                parsing: step, namespaces: namespaces, processesNamespaces: processesNamespaces,
                unprefixedInAnyNamespace: anyNamespace)
        case .custom(let transform):
            return KeyName(
                parsing: transform(step), namespaces: namespaces, processesNamespaces: processesNamespaces,
                unprefixedInAnyNamespace: anyNamespace)
        case .convertFromSnakeCase, .convertFromKebabCase:
            return KeyName(
                parsing: step, namespaces: namespaces, processesNamespaces: processesNamespaces,
                unprefixedInAnyNamespace: anyNamespace
            ) {
                xmlName($0, options.keyDecodingStrategy)
            }
        }
    }

    /// The name an `@` step reads: as the key writes it, without the key strategy (`@*:id`
    /// reads the unprefixed `id`: ``KeyName/attributeName``).
    static func attributeName(_ name: Substring, _ options: XMLRecordDecoder) -> KeyName {
        KeyName(parsing: String(name), namespaces: options.namespaces, processesNamespaces: options.processesNamespaces)
            .attributeName
    }

    /// What the key reads, written as a relative path: `text()`, `@href`, `name`, `link/@href`.
    var xmlPath: String {
        switch self {
        case .text: "text()"
        case .element: "."
        case .attribute(let name): "@\(name)"
        case .name(let name): name.spelling
        case .path(let steps, let attribute):
            steps.map(\.spelling).joined(separator: "/") + (attribute.map { "/@\($0)" } ?? "")
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

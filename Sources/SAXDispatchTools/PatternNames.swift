/// The names in the text of an ``ElementPattern`` or a ``RecordFieldPath``, checked against
/// XML's rules for names.
///
/// The library reads a name as any run of characters that are not pattern syntax, so a
/// pattern can name an element that no document holds (`t?`, `@x`). A pattern typed on
/// a command line is checked here as well, so that such a name is a usage error rather
/// than a field that never matches. The rules are those of XML 1.0 (fifth edition), a
/// superset of the names expat accepts, so no name a document can hold is refused; a
/// name's `:` must separate a non-empty prefix from a non-empty local name, as namespaces
/// in XML require. In a name written in Clark notation (`{uri}local`) only the local
/// name is checked: the URI between the braces may hold any character but `{`, `}` and
/// control characters, `/` and `:` included, as the pattern syntax says.
enum PatternNames {
    /// A name that breaks the rules: where it starts (a 1-based column, in characters) and
    /// what is wrong.
    struct Problem: Equatable {
        var column: Int
        var message: String
    }

    /// The first name in `text` that is not an XML name, or `nil` when there is none.
    ///
    /// - Precondition: `text` is valid pattern syntax (``ElementPattern/init(_:)`` read it),
    ///   so runs of characters between the syntax characters are exactly its names.
    static func firstProblem(inPattern text: String) -> Problem? {
        if text == "." || text.isEmpty { return nil }
        var name = ""
        var nameStart = 0
        var isAttribute = false
        var quote: Character?
        var inNamespaceURI = false
        var afterStar = false
        var column = 0
        func check() -> Problem? {
            defer { name = "" }
            guard !name.isEmpty, let message = problem(inName: name, attribute: isAttribute) else { return nil }
            return Problem(column: nameStart, message: message)
        }
        for character in text {
            column += 1
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            // A Clark name's URI is no name: the local name after the '}' is checked.
            if inNamespaceURI {
                if character == "}" { inNamespaceURI = false }
                continue
            }
            if character == "{" {
                inNamespaceURI = true
                continue
            }
            // `*:local`: the colon says "in any namespace", and the local name follows.
            defer { afterStar = character == "*" }
            if afterStar && character == ":" && name.isEmpty { continue }
            if "/[]@=*'\"".contains(character) {
                if let problem = check() { return problem }
                if character == "'" || character == "\"" { quote = character }
                // A name directly after '@' is an attribute's; any other, an element's.
                isAttribute = character == "@"
                continue
            }
            if name.isEmpty { nameStart = column }
            name.append(character)
        }
        return check()
    }

    /// The first name in a field path's `text` that is not an XML name, or `nil`.
    ///
    /// - Precondition: ``RecordFieldPath/init(_:)`` read `text`; its attribute is found the way
    ///   that initializer finds it.
    static func firstProblem(inFieldPath text: String) -> String? {
        var elementPart = Substring(text)
        let parts = pathComponents(text)
        var attributeProblem: String?
        if let last = parts.last, last.hasPrefix("@") {
            attributeProblem = problem(inName: String(localPart(ofClarkName: last.dropFirst())), attribute: true)
            elementPart = text.dropLast(last.count + (parts.count > 1 ? 1 : 0))
        }
        if elementPart.hasPrefix("./") { elementPart = elementPart.dropFirst(2) }
        return firstProblem(inPattern: String(elementPart))?.message ?? attributeProblem
    }

    /// Whether `text` (a pattern or a field argument) holds a name in Clark notation: a `{`
    /// outside a quoted attribute value, which no name can hold otherwise.
    static func hasClarkName(_ text: String) -> Bool {
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "{" {
                return true
            }
        }
        return false
    }

    /// The parts of a path between slashes; a slash inside a Clark name's braces
    /// (`{http://www.w3.org/2005/Atom}link`) belongs to the URI, not to the path.
    static func pathComponents(_ text: some StringProtocol) -> [Substring] {
        let text = Substring(text)
        var components: [Substring] = []
        var start = text.startIndex
        var inNamespaceURI = false
        var index = text.startIndex
        while index < text.endIndex {
            switch text[index] {
            case "{": inNamespaceURI = true
            case "}": inNamespaceURI = false
            case "/" where !inNamespaceURI:
                components.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
            index = text.index(after: index)
        }
        components.append(text[start...])
        return components
    }

    /// The prefixes of the names in a pattern or field path, in order, each once: not those
    /// of Clark names (`{uri}local`) or of `*:local`, which are no prefixes.
    static func prefixes(inPath text: String) -> [String] {
        var prefixes: [String] = []
        for component in pathComponents(text) {
            var step = component.hasPrefix("@") ? component.dropFirst() : component
            if let bracket = step.firstIndex(of: "[") { step = step[..<bracket] }
            guard !step.hasPrefix("{"), !step.hasPrefix("*"), let colon = step.utf8.firstIndex(of: UInt8(ascii: ":")), colon != step.startIndex
            else { continue }
            let prefix = String(step[..<colon])
            if !prefixes.contains(prefix) { prefixes.append(prefix) }
        }
        return prefixes
    }

    /// The local name of a name in Clark notation (`{uri}local` gives `local`); any other
    /// name as it is.
    static func localPart(ofClarkName name: Substring) -> Substring {
        guard name.first == "{", let close = name.firstIndex(of: "}") else { return name }
        return name[name.index(after: close)...]
    }

    /// What is wrong with `name` as an element's (or an attribute's) name, or `nil` when
    /// it is a valid name.
    static func problem(inName name: String, attribute: Bool) -> String? {
        let what = attribute ? "an attribute name" : "an element name"
        let scalars = Array(name.unicodeScalars)
        guard let first = scalars.first else { return "\(what) is empty" }
        if !isNameStart(first) {
            return "'\(name)' is not \(what): a name cannot start with '\(first)'"
        }
        if let bad = scalars.first(where: { !isNameStart($0) && !isNameContinuation($0) }) {
            return "'\(name)' is not \(what): '\(bad)' cannot be part of a name"
        }
        // Split in the UTF-8: a colon can share a grapheme with the character before it.
        let parts = name.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        if parts.count > 1 && (parts.count > 2 || parts.contains { $0.isEmpty }) {
            return "'\(name)' is not \(what): a name holds at most one ':', between a prefix and a local name"
        }
        return nil
    }

    /// XML 1.0's `NameStartChar`.
    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3A, 0x41...0x5A, 0x5F, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D,
            0x37F...0x1FFF, 0x200C...0x200D, 0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF,
            0xFDF0...0xFFFD, 0x10000...0xEFFFF:
            true
        default:
            false
        }
    }

    /// The characters XML 1.0's `NameChar` adds to `NameStartChar`.
    private static func isNameContinuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: true
        default: false
        }
    }
}

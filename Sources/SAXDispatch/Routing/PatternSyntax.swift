/// Parses the text of an ``ElementPattern``:
///
/// ```
/// pattern := "." | "/"? "//"? step (("/" | "//") step)*
/// step    := (name | "*" | "*:" local) test*
/// test    := "[" "@" name ("=" ("'" chars "'" | '"' chars '"'))? "]"
/// name    := ("{" uri "}")? local
/// local   := one or more characters other than / [ ] @ = ' " * ( ) | , { } and white space
/// ```
///
/// `{uri}local` is Clark notation: the element (or attribute) `local` in the namespace
/// `uri`, whatever prefix a document writes it with. `*:local` is the element `local` in
/// any namespace or none, whatever prefix it is written with (element steps only). A `prefix:local` name is kept as
/// written here; ``ElementPattern/resolvingPrefixes(_:)`` binds its prefix later.
///
/// `(`, `)`, `|` and `,` never occur in XML names; in a pattern they are XPath written by
/// habit (`title/text()`, `a|b`), which would otherwise never match, so they are errors
/// that say what to do instead.
///
/// A leading `//` means the same as no leading slash: the pattern may match at any depth.
/// `.` alone is the mount point of a handler set: it has no steps.
struct PatternSyntax {
    private let text: String
    private let characters: [Character]
    private var index = 0

    init(_ text: String) {
        self.text = text
        self.characters = Array(text)
    }

    mutating func parse() throws(XMLPatternError) -> (steps: [ElementPattern.Step], anchored: Bool) {
        guard !characters.isEmpty else { throw failure("a pattern cannot be empty", at: 0) }
        if characters == ["."] { return ([], false) }
        var anchored = false
        if peek("//") {
            index += 2
        } else if peek("/") {
            index += 1
            anchored = true
        }
        var steps = [try step(followsDescendantAxis: false)]
        while index < characters.count {
            guard characters[index] == "/" else {
                if let hint = Self.xpathHint(characters[index]) { throw failure(hint, at: index) }
                throw failure("'/' or '[' was expected after a step, not '\(characters[index])'", at: index)
            }
            let descendant = peek("//")
            index += descendant ? 2 : 1
            steps.append(try step(followsDescendantAxis: descendant))
        }
        return (steps, anchored)
    }

    private mutating func step(followsDescendantAxis: Bool) throws(XMLPatternError) -> ElementPattern.Step {
        var name: String?
        var namespace: String?
        if peek("*:") {
            name = try anyNamespaceName()
        } else if peek("*") {
            index += 1
        } else {
            (name, namespace) = try self.name(what: "a step name or '*'")
        }
        var tests: [ElementPattern.AttributeTest] = []
        while peek("[") {
            tests.append(try test())
        }
        return ElementPattern.Step(
            name: name, namespace: namespace, tests: tests, followsDescendantAxis: followsDescendantAxis)
    }

    private mutating func test() throws(XMLPatternError) -> ElementPattern.AttributeTest {
        let open = index
        index += 1
        guard peek("@") else { throw failure("'@' and an attribute name were expected after '['", at: index) }
        index += 1
        let (name, namespace) = try self.name(what: "an attribute name")
        var value: String?
        if peek("=") {
            index += 1
            guard index < characters.count, characters[index] == "'" || characters[index] == "\"" else {
                throw failure("a quoted value was expected after '='", at: index)
            }
            let quote = characters[index]
            let start = index + 1
            guard let end = characters[start...].firstIndex(of: quote) else {
                throw failure("the value has no closing \(quote)", at: index)
            }
            value = String(characters[start..<end])
            index = end + 1
        }
        guard peek("]") else { throw failure("']' was expected to close the '[' at column \(open + 1)", at: index) }
        index += 1
        return ElementPattern.AttributeTest(name: name, namespace: namespace, value: value)
    }

    /// `*:local`: a local name in any namespace, spelled as ``QualifiedName/anyNamespacePrefix`` and the name.
    private mutating func anyNamespaceName() throws(XMLPatternError) -> String {
        index += 2
        let start = index
        while index < characters.count, Self.isNameCharacter(characters[index]) { index += 1 }
        guard index > start else {
            throw failure("a local name was expected after '*:', which matches it in any namespace", at: index)
        }
        if index < characters.count, let hint = Self.xpathHint(characters[index]) { throw failure(hint, at: index) }
        let local = String(characters[start..<index])
        if let colon = QualifiedName.firstColon(in: local) {
            throw failure(
                "'*:' is followed by a local name, without a prefix", at: start + local.distance(from: local.startIndex, to: colon))
        }
        return QualifiedName.anyNamespacePrefix + local
    }

    /// A name, and its namespace when it is written in Clark notation.
    private mutating func name(what: String) throws(XMLPatternError) -> (String, String?) {
        var namespace: String?
        if peek("{") {
            let open = index
            guard let close = characters[index...].firstIndex(of: "}") else {
                throw failure("the namespace URI has no closing '}'", at: open)
            }
            let uri = String(characters[(open + 1)..<close])
            if uri.unicodeScalars.contains(where: { $0.value < 0x20 }) || uri.contains("{") {
                throw failure("a namespace URI cannot contain '{' or control characters", at: open + 1)
            }
            namespace = uri
            index = close + 1
            guard index < characters.count, Self.isNameCharacter(characters[index]) else {
                throw failure("a local name was expected after the namespace URI", at: index)
            }
        }
        let start = index
        if peek(".") {
            throw failure("'.' (the mount point) is a whole pattern, not part of one", at: index)
        }
        while index < characters.count, Self.isNameCharacter(characters[index]) { index += 1 }
        guard index > start else {
            if index < characters.count, let hint = Self.xpathHint(characters[index]) { throw failure(hint, at: index) }
            let found = index < characters.count ? "'\(characters[index])'" : "the end"
            throw failure("\(what) was expected, not \(found)", at: index)
        }
        if index < characters.count, let hint = Self.xpathHint(characters[index]) { throw failure(hint, at: index) }
        let name = String(characters[start..<index])
        if namespace != nil, QualifiedName.firstColon(in: name) != nil {
            throw failure("a name in Clark notation has no prefix: write {uri}local", at: start)
        }
        return (name, namespace)
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        !"/[]@='\"*()|,{}".contains(character) && !character.isWhitespace
    }

    /// What to write instead of XPath that patterns do not have.
    private static func xpathHint(_ character: Character) -> String? {
        switch character {
        case "(", ")":
            "'\(character)' is not part of a name: patterns name elements and have no functions"
                + " such as text() or node(); an element's text is read from the element itself"
        case "|":
            "'|' does not join patterns: register a handler for each pattern"
        case ",":
            "',' is not part of a name: register a handler for each pattern"
        default:
            nil
        }
    }

    private func peek(_ token: String) -> Bool {
        var position = index
        for character in token {
            guard position < characters.count, characters[position] == character else { return false }
            position += 1
        }
        return true
    }

    private func failure(_ message: String, at position: Int) -> XMLPatternError {
        XMLPatternError(.elementPattern, text: text, column: position + 1, message: message)
    }
}

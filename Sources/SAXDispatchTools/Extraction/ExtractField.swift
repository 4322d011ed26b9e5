import SAXDispatch

/// One `--field NAME=RELPATH[:TYPE]` of `saxdispatch extract`: the column's name, the
/// record-relative path it reads and how its text is converted.
///
/// `RELPATH` reads its element's own text; `string(RELPATH)` its whole text, the text of
/// the element and all its descendants in document order, as XPath's `string()` (with
/// `string(.)` for the record element's own): `NAME=string(RELPATH)[:TYPE]`.
///
/// TYPE is a base type — `string` (the default), `int`, `double`, `decimal`, `bool`,
/// `url`, `date` (ISO 8601), `date-rfc822`, `date-epoch` — optionally followed by `?`
/// (optional: `null` when absent, marked nil, or empty and not a `string`, whose empty value
/// is `""`) or `[]` (every occurrence, a list).
/// The type is read from the text after the last `:` (outside a Clark name's braces) when
/// that text is a type, so a prefixed element name keeps its meaning (`dc:creator`).
///
/// A last step written `PREFIX:NAME` where NAME is also a type (`dc:date`, `x:int`) reads
/// two ways, and the command line cannot look at the document before it parses, so the
/// bindings decide: when PREFIX is bound (`-N dc=…`, or `xml`), the step is the element
/// (or attribute) `PREFIX:NAME` as text; otherwise it is `PREFIX` converted to NAME, as
/// `id:int` is `id` as an integer. Writing the type removes all doubt: `dc:date:string`,
/// `dc:date:date`, or a Clark name, `{http://purl.org/dc/elements/1.1/}date:date`. With
/// the prefix bound, `dc:date?` and `dc:date[]` are errors that say to write the type
/// (`dc:date:string?`), since `?` and `[]` cannot end a name. Read the other way, a field
/// keeps a ``spellingNote`` to show when its element is missing from a record.
///
/// Text after the last `:` that looks like a mistyped type is an error rather than part
/// of the path: `?` or `[]` after a name that is no type (`price:integr?`), or a type's
/// name in capitals or another spelling (`Int`, `integer`, `float`, `boolean`,
/// `datetime`) or one slip away from one (`strng`), with the type it means; a prefixed
/// element that really has such a name needs an explicit type too (`x:integer:string`),
/// or its prefix bound. Every name in the path must be an XML name.
public struct ExtractField: Sendable, Hashable {
    /// The column's name: the JSON key, the CSV and TSV header.
    public var name: String
    /// The path relative to the record, as ``RecordFieldPath`` reads it.
    public var path: RecordFieldPath
    /// How the text is converted.
    public var type: ValueType
    /// How many values the field holds and whether it may be absent.
    public var arity: Arity
    /// Whether an element's own text is read (`RELPATH`) or its whole text (`string(RELPATH)`).
    public var scope: TextScope
    /// For a last step `PREFIX:NAME` read as `PREFIX` with the type NAME (PREFIX unbound),
    /// how to write the element `PREFIX:NAME` instead: said when the field's element is
    /// missing, the likely sign that the other reading was meant.
    public var spellingNote: String?

    /// The conversions a field can apply.
    public enum ValueType: String, Sendable, Hashable, CaseIterable {
        case string, int, double, decimal, bool, url, date
        case rfc822Date = "date-rfc822"
        case epochDate = "date-epoch"
    }

    /// Whether a field is required, optional or a list.
    public enum Arity: Sendable, Hashable {
        /// Absent, marked nil or unconvertible text fails the record.
        case required
        /// Absent, marked nil, or empty for a type other than `string` is `null`; an empty
        /// `string` is `""`; unconvertible text still fails the record.
        case optional
        /// Every occurrence in document order; none is `[]`.
        case list
    }

    public init(
        name: String, path: RecordFieldPath, type: ValueType = .string, arity: Arity = .required, scope: TextScope = .own
    ) {
        self.name = name
        self.path = path
        self.type = type
        self.arity = arity
        self.scope = scope
    }

    /// Reads a `--field` argument: `NAME=RELPATH[:TYPE]` or `NAME=string(RELPATH)[:TYPE]`,
    /// or either without `NAME=`, named after what follows it (`string(description)`).
    ///
    /// ```swift
    /// let field = try ExtractField(parsing: "text=string(description)")   // its whole text
    /// ```
    ///
    /// - Parameter namespaces: The prefixes bound on the command line (`-N`), which decide
    ///   how a last step such as `dc:date` reads (see the type's description).
    /// - Throws: ``ExtractFieldError`` for an empty name or an invalid path or type.
    public init(parsing argument: String, namespaces: NamespaceBindings = NamespaceBindings()) throws(ExtractFieldError) {
        var name: String?
        var rest = Substring(argument)
        if let equals = Self.nameEnd(in: argument) {
            name = String(argument[..<equals])
            rest = argument[argument.index(after: equals)...]
        }
        var type = ValueType.string
        var arity = Arity.required
        var spellingNote: String?
        var scope = TextScope.own
        // A column without a name is named after its path as written, without its type.
        var written: Substring?
        if let whole = try Self.wholeTextPath(rest, argument: argument) {
            written = whole.written
            rest = whole.path
            scope = .whole
            if let spec = whole.type { (type, arity) = spec }
        } else if let colon = Self.typeColon(in: rest) {
            let suffix = rest[rest.index(after: colon)...]
            let before = rest[..<colon]
            if suffix.isEmpty {
                throw ExtractFieldError(
                    argument: argument, message: "nothing follows the last ':'; write a type after it or leave the ':' out")
            }
            if let prefix = Self.prefixCandidate(before), namespaces.uri(for: prefix) != nil {
                // A bound prefix: the colon is the name's, whatever follows it.
                if let marker = ["?", "[]"].first(where: { suffix.hasSuffix($0) }) {
                    let local = suffix.dropLast(marker.count)
                    throw ExtractFieldError(
                        argument: argument,
                        message: "'\(prefix)' is a bound prefix, so '\(before):\(local)' is a name, and '\(marker)' can only"
                            + " follow a type: write '\(before):\(local):string\(marker)'"
                            + (Self.typeSpec(suffix).map { " (or '\(before):\(local):\($0.0.rawValue)\(marker)' to convert it)" } ?? ""))
                }
            } else if let spec = Self.typeSpec(suffix) {
                (type, arity) = spec
                rest = before
                if arity == .required, let prefix = Self.prefixCandidate(before), !before.hasSuffix("@" + prefix) {
                    spellingNote =
                        "'\(before):\(suffix)' was read as the element '\(prefix)' converted to \(suffix); for the element"
                        + " '\(prefix):\(suffix)', write '\(before):\(suffix):string' (or '\(before):\(suffix):\(suffix)' to"
                        + " convert it), or bind the prefix with -N \(prefix)=URI"
                }
            } else if let problem = Self.mistypedType(suffix) {
                throw ExtractFieldError(argument: argument, message: problem)
            }
        }
        let pathText = String(rest)
        let path: RecordFieldPath
        do {
            path = try RecordFieldPath(pathText)
        } catch {
            throw ExtractFieldError(argument: argument, message: error.description)
        }
        if let problem = PatternNames.firstProblem(inFieldPath: pathText) {
            // A name cannot hold '?': it was meant as the optional marker of a type.
            let hint = pathText.hasSuffix("?") ? " (an optional field's type ends in '?': 'RELPATH:string?')" : ""
            throw ExtractFieldError(argument: argument, message: "invalid field path \"\(pathText)\": \(problem)\(hint)")
        }
        if let name, name.isEmpty {
            throw ExtractFieldError(argument: argument, message: "the name before '=' is empty")
        }
        self.init(name: name ?? String(written ?? rest), path: path, type: type, arity: arity, scope: scope)
        self.spellingNote = spellingNote
    }

    /// `string(RELPATH)[:TYPE]` as its path, its type (if written) and the text before the
    /// type; `nil` when `text` has no `string(` in front.
    private static func wholeTextPath(
        _ text: Substring, argument: String
    ) throws(ExtractFieldError) -> (path: Substring, type: (ValueType, Arity)?, written: Substring)? {
        let opening = "string("
        guard text.hasPrefix(opening) else { return nil }
        guard let close = text.lastIndex(of: ")") else {
            throw ExtractFieldError(argument: argument, message: "'string(' is not closed: write 'string(RELPATH)'")
        }
        let path = text[text.index(text.startIndex, offsetBy: opening.count)..<close]
        if path.isEmpty {
            throw ExtractFieldError(
                argument: argument, message: "'string()' needs a path: 'string(.)' reads the record's own whole text")
        }
        let after = text[text.index(after: close)...]
        guard !after.isEmpty else { return (path, nil, text) }
        let known = ValueType.allCases.map(\.rawValue).joined(separator: ", ")
        guard after.hasPrefix(":") else {
            throw ExtractFieldError(
                argument: argument, message: "'\(after)' follows 'string(…)'; only ':TYPE' may (types: \(known))")
        }
        let suffix = after.dropFirst()
        if let spec = typeSpec(suffix) { return (path, spec, text[...close]) }
        throw ExtractFieldError(
            argument: argument,
            message: mistypedType(suffix) ?? "unknown type '\(suffix)' (types: \(known), each optionally followed by ? or [])")
    }

    /// Where `NAME=` ends: the first `=` before any path syntax (`[`, `/`, `@`, a quote)
    /// and outside a Clark name's braces, whose URI may hold `=` and `/`; `nil` when the
    /// argument has no name.
    private static func nameEnd(in argument: String) -> String.Index? {
        var inNamespaceURI = false
        for index in argument.indices {
            switch argument[index] {
            case "{": inNamespaceURI = true
            case "}": inNamespaceURI = false
            case "=" where !inNamespaceURI: return index
            case "[", "/", "@", "'", "\"": if !inNamespaceURI { return nil }
            default: break
            }
        }
        return nil
    }

    /// The last `:` after any Clark name's closing brace: the one that may start a type.
    /// The colons of a URI (`{http://…}date`) never do, nor that of `*:` (`*:date`, a
    /// local name in any namespace).
    private static func typeColon(in text: Substring) -> Substring.Index? {
        let tail = text.lastIndex(of: "}").map { text[text.index(after: $0)...] } ?? text
        guard let colon = tail.lastIndex(of: ":") else { return nil }
        if colon > tail.startIndex && tail[tail.index(before: colon)] == "*" { return nil }
        return colon
    }

    /// The name before the `:` when it could be a prefix: the last step of `text` (an
    /// attribute's without its `@`) when that step is a bare name, without `:`, tests,
    /// braces or `*`; `nil` otherwise (`a[@k='v']`, `{uri}x`, `.`).
    private static func prefixCandidate(_ text: Substring) -> String? {
        var step = PatternNames.pathComponents(text).last ?? text
        if step.hasPrefix("@") { step = step.dropFirst() }
        guard !step.isEmpty, step != ".", !step.contains(where: { ":[]{}*@='\"".contains($0) }) else { return nil }
        return String(step)
    }

    /// `int`, `int?`, `int[]`… as a type and arity, or `nil` when `text` is not a type.
    private static func typeSpec(_ text: Substring) -> (ValueType, Arity)? {
        var base = text
        var arity = Arity.required
        if base.hasSuffix("?") {
            arity = .optional
            base = base.dropLast()
        } else if base.hasSuffix("[]") {
            arity = .list
            base = base.dropLast(2)
        }
        return ValueType(rawValue: String(base)).map { ($0, arity) }
    }

    /// Other spellings of the types, which are taken for mistyped types rather than names.
    /// Only names unlikely for elements: `text` or `timestamp` would catch `svg:text`.
    private static let typeSpellings: [String: ValueType] = [
        "integer": .int, "float": .double, "boolean": .bool, "datetime": .date, "iso8601": .date,
        "rfc822": .rfc822Date,
    ]

    /// The type `text` is one slip away from, or `nil`: one character left out, added, or
    /// swapped with its neighbour in a type's name or another spelling of at least five
    /// characters (`strng`, `integr`, `doubel`), or two neighbours swapped in a shorter one
    /// (`itn`). Changing a character is no slip here, nor is any change to a short name:
    /// those make element names (`h:strong`, `x:uri`, `x:book`).
    private static func nearMiss(_ text: Substring) -> ValueType? {
        let typed = Array(text.lowercased())
        let spellings = ValueType.allCases.map { ($0.rawValue, $0) } + typeSpellings.map { ($0.key, $0.value) }
        for (spelling, type) in spellings.sorted(by: { $0.0 < $1.0 }) {
            let known = Array(spelling)
            if isSwap(typed, known) || known.count >= 5 && (isOneLeftOut(typed, from: known) || isOneLeftOut(known, from: typed)) {
                return type
            }
        }
        return nil
    }

    /// Whether `shorter` is `longer` with one character left out.
    private static func isOneLeftOut(_ shorter: [Character], from longer: [Character]) -> Bool {
        guard shorter.count + 1 == longer.count else { return false }
        let prefix = zip(shorter, longer).prefix { $0 == $1 }.count
        return shorter[prefix...].elementsEqual(longer[(prefix + 1)...])
    }

    /// Whether `a` is `b` with two neighbouring, different characters swapped.
    private static func isSwap(_ a: [Character], _ b: [Character]) -> Bool {
        guard a.count == b.count, let first = a.indices.first(where: { a[$0] != b[$0] }), first + 1 < a.count else {
            return false
        }
        return a[first] == b[first + 1] && a[first + 1] == b[first] && a[(first + 2)...].elementsEqual(b[(first + 2)...])
    }

    /// What is wrong when the text after the last `:` looks like a type but is none, or
    /// `nil` when it reads as the end of a prefixed name.
    private static func mistypedType(_ text: Substring) -> String? {
        var base = text
        var marker = ""
        if base.hasSuffix("?") {
            marker = "?"
        } else if base.hasSuffix("[]") {
            marker = "[]"
        }
        base = base.dropLast(marker.count)
        let known = ValueType.allCases.map(\.rawValue).joined(separator: ", ")
        // With a marker, the text is a type whatever it is, and the message below says so.
        let slip = marker.isEmpty ? nearMiss(base) : nil
        if let meant = typeSpellings[base.lowercased()] ?? ValueType(rawValue: base.lowercased()) ?? slip {
            return "unknown type '\(text)': did you mean '\(meant.rawValue)\(marker)'? (types: \(known);"
                + " for an element of that name, add its type: '...:\(text):string')"
        }
        guard !marker.isEmpty else { return nil }
        // `?` and `[]` cannot end an element name: this was meant as a type.
        return "unknown type '\(base)' in '\(text)' (types: \(known), each optionally followed by ? or [])"
    }

    /// The type as written after the `:` (`int?`, `string[]`).
    public var typeDescription: String {
        switch arity {
        case .required: type.rawValue
        case .optional: type.rawValue + "?"
        case .list: type.rawValue + "[]"
        }
    }
}

/// Something about a parse that is not an error but is probably not what was meant,
/// reported once the document has been read (``Dispatcher/onWarning(_:)``,
/// ``PushParser/warnings``).
///
/// What a program acts on is its ``code``: a pattern prefix that no binding declares and no
/// element the parse read was written with (``Code/unboundPatternPrefix``), a handler,
/// record or decoder pattern that matched no element (``Code/unmatchedPattern``), a record
/// field path that matched nothing in any record (``Code/unmatchedField``); a document that
/// declares an XML version other than 1.0, read by 1.0's rules and warned about when its
/// declaration is read; an undeclared entity left out under
/// ``UndeclaredEntityPolicy/skipWithWarning``. A warning about a pattern names it
/// (``pattern``) and the names the document had instead (``suggestions``), closest first:
///
/// ```
/// zoo.xml: warning: record pattern `itme` matched no element; this document has `item` (1,048 times)
/// ```
public struct ParseWarning: Sendable, Hashable, CustomStringConvertible {
    /// What kind of warning this is.
    public var code: Code
    /// What was found, such as `the pattern prefix 'atom' is bound nowhere, and no element read was written with it`.
    public var message: String
    /// The prefix the warning is about.
    public var prefix: String?
    /// The file or other source that was parsed, when known.
    public var source: String?
    /// The pattern or field path the warning is about, as registered (`itme`, `dc:date`,
    /// `nested_nonsense/name`); `nil` for a warning about no pattern.
    public var pattern: String?
    /// The element names the document had that the pattern may have meant, closest first.
    public var suggestions: [Suggestion] = []

    /// A warning with its message, and the prefix and source it is about; its code is ``Code/other``.
    public init(message: String, prefix: String? = nil, source: String? = nil) {
        self.init(code: .other, message: message, prefix: prefix, source: source)
    }

    /// A warning with its code and message, and the prefix, source, pattern and
    /// suggestions it is about.
    public init(
        code: Code, message: String, prefix: String? = nil, source: String? = nil, pattern: String? = nil,
        suggestions: [Suggestion] = []
    ) {
        self.code = code
        self.message = message
        self.prefix = prefix
        self.source = source
        self.pattern = pattern
        self.suggestions = suggestions
    }

    /// A pattern prefix bound nowhere and written by no element read.
    static func unseenPrefix(_ prefix: String) -> ParseWarning {
        ParseWarning(
            code: .unboundPatternPrefix,
            message: "the pattern prefix '\(prefix)' is bound nowhere and no element read was written with it,"
                + " so its names matched nothing: bind it (namespaces = [\"\(prefix)\": \"…\"]) or write"
                + " the names in Clark notation ({uri}local)",
            prefix: prefix)
    }

    /// A document that declares an XML version other than 1.0 (`1.1`): expat implements
    /// XML 1.0 only, so the document is read by 1.0's rules. Given once per document (the
    /// first 64 of an input), when its declaration is read; `document` is its number in a
    /// concatenated input.
    static func xmlVersion(_ version: String, document: Int? = nil) -> ParseWarning {
        let which = document.map { "document \($0) declares" } ?? "the document declares"
        return ParseWarning(
            code: .xmlVersion,
            message: "\(which) XML version \"\(MessageText.name(version))\", which this parser does not implement:"
                + " it is read by XML 1.0's rules (NEL and U+2028 are not line ends, references to control"
                + " characters such as &#x1; are errors, and names follow 1.0)")
    }

    /// `source: warning: message`, like a compiler's.
    public var description: String { "\(source ?? "<input>"): warning: \(message)" }
}

/// Something about a parse that is not an error but is probably not what was meant,
/// reported once the document has been read (``Dispatcher/onWarning(_:)``,
/// ``PushParser/warnings``).
///
/// One warning is a pattern prefix that no binding declares and that no element
/// the parse read was written with: its patterns fall back to the prefix as written, so
/// they matched nothing, most likely for want of a binding (``Dispatcher/namespaces``).
/// A document that declares an XML version other than 1.0 is read by 1.0's rules, and is
/// a warning too, delivered when its declaration is read.
public struct ParseWarning: Sendable, Hashable, CustomStringConvertible {
    /// What was found, such as `the pattern prefix 'atom' is bound nowhere, and no element read was written with it`.
    public var message: String
    /// The prefix the warning is about.
    public var prefix: String?
    /// The file or other source that was parsed, when known.
    public var source: String?

    /// A warning with its message, and the prefix and source it is about.
    public init(message: String, prefix: String? = nil, source: String? = nil) {
        self.message = message
        self.prefix = prefix
        self.source = source
    }

    /// A pattern prefix bound nowhere and written by no element read.
    static func unseenPrefix(_ prefix: String) -> ParseWarning {
        ParseWarning(
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
            message: "\(which) XML version \"\(MessageText.name(version))\", which this parser does not implement:"
                + " it is read by XML 1.0's rules (NEL and U+2028 are not line ends, references to control"
                + " characters such as &#x1; are errors, and names follow 1.0)")
    }

    /// `source: warning: message`, like a compiler's.
    public var description: String { "\(source ?? "<input>"): warning: \(message)" }
}

/// Something about a parse that is not an error but is probably not what was meant,
/// reported once the document has been read (``Dispatcher/onWarning(_:)``,
/// ``PushParser/warnings``).
///
/// Today the one warning is a pattern prefix that no binding declares and that no element
/// the parse read was written with: its patterns fall back to the prefix as written, so
/// they matched nothing, most likely for want of a binding (``Dispatcher/namespaces``).
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

    /// `source: warning: message`, like a compiler's.
    public var description: String { "\(source ?? "<input>"): warning: \(message)" }
}

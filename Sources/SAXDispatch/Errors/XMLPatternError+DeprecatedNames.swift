// The three errors that ``XMLPatternError`` replaced keep their names for one release, as
// aliases of it: a `catch` of any of them still catches what the API that threw it throws
// (each API throws one kind only), and the other two kinds as well, being one type. Their
// members are below, under the old spellings, read-only, and empty for the other kinds.

/// The error of an invalid ``ElementPattern``: now ``XMLPatternError`` of kind
/// ``XMLPatternError/Kind/elementPattern``.
@available(*, deprecated, renamed: "XMLPatternError")
public typealias ElementPatternError = XMLPatternError

/// The error of an invalid ``RecordFieldPath``: now ``XMLPatternError`` of kind
/// ``XMLPatternError/Kind/fieldPath``.
@available(*, deprecated, renamed: "XMLPatternError")
public typealias RecordFieldPathError = XMLPatternError

/// The error of an invalid namespace binding: now ``XMLPatternError`` of kind
/// ``XMLPatternError/Kind/namespaceBinding(prefix:uri:)``.
@available(*, deprecated, renamed: "XMLPatternError")
public typealias NamespaceBindingError = XMLPatternError

extension XMLPatternError {
    /// Creates an element pattern's error, as `ElementPatternError` did.
    @available(*, deprecated, message: "use init(.elementPattern, text:column:message:)")
    public init(pattern: String, column: Int, message: String) {
        self.init(.elementPattern, text: pattern, column: column, message: message)
    }

    /// Creates a field path's error, as `RecordFieldPathError` did.
    @available(*, deprecated, message: "use init(.fieldPath, text:message:)")
    public init(path: String, message: String) {
        self.init(.fieldPath, text: path, message: message)
    }

    /// The pattern as given, as `ElementPatternError` called it.
    @available(*, deprecated, renamed: "text")
    public var pattern: String { text }

    /// The path as given, as `RecordFieldPathError` called it.
    @available(*, deprecated, renamed: "text")
    public var path: String { text }

    /// The prefix being bound, as `NamespaceBindingError` had it; empty for the other kinds.
    @available(*, deprecated, message: "read the prefix from kind's namespaceBinding(prefix:uri:)")
    public var prefix: String {
        if case .namespaceBinding(let prefix, _) = kind { prefix } else { "" }
    }

    /// The URI being bound, as `NamespaceBindingError` had it; empty for the other kinds.
    @available(*, deprecated, message: "read the URI from kind's namespaceBinding(prefix:uri:)")
    public var uri: String {
        if case .namespaceBinding(_, let uri) = kind { uri } else { "" }
    }
}

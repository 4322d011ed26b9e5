/// Text given to the library that is not a valid element pattern, record field path or
/// namespace binding, with what is wrong and, for a pattern, where.
///
/// The one error for what a program (or its user, on a command line or in a
/// configuration file) writes to tell the library what to read, as opposed to what the
/// document holds: ``ElementPattern/init(_:)``, ``Dispatcher/skipAll(except:)-(ElementPattern...)``,
/// ``RecordFieldPath/init(_:)`` and ``NamespaceBindings`` throw it, with ``kind`` saying which.
/// Its description says what was given and what is wrong:
///
/// ```text
/// invalid pattern "a//" at column 4: a step name or '*' was expected, not the end
/// invalid field path "/zoo/name": paths are relative to the record; drop the leading '/'
/// invalid namespace binding a=: the prefix 'a' cannot be bound to the empty URI
/// ```
///
/// A literal written in code (`"zoo/animal"` as an ``ElementPattern``) is checked as it is
/// made, and an invalid one stops the program with this message: only text that comes
/// from outside needs the throwing initializers.
public struct XMLPatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the text was meant to be.
    public enum Kind: Sendable, Hashable {
        /// An ``ElementPattern``, or the patterns given to ``Dispatcher/skipAll(except:)-(ElementPattern...)``.
        case elementPattern
        /// A ``RecordFieldPath``.
        case fieldPath
        /// A binding of `prefix` to `uri` in ``NamespaceBindings``.
        case namespaceBinding(prefix: String, uri: String)
    }

    /// What the text was meant to be.
    public let kind: Kind
    /// The text as given: the pattern, the field path, or `PREFIX=URI` for a binding.
    public let text: String
    /// For an element pattern, the 1-based position, in characters, of the problem in
    /// ``text``; `nil` for the other kinds.
    public let column: Int?
    /// What is wrong, such as `a step name or '*' was expected, not the end`.
    public let message: String

    /// Creates an error for `text` of `kind`, at `column` when the position is known.
    public init(_ kind: Kind, text: String, column: Int? = nil, message: String) {
        self.kind = kind
        self.text = text
        self.column = column
        self.message = message
    }

    /// Creates the error for binding `prefix` to `uri`; ``text`` is `PREFIX=URI`.
    public init(binding prefix: String, to uri: String, message: String) {
        self.init(.namespaceBinding(prefix: prefix, uri: uri), text: "\(prefix)=\(uri)", message: message)
    }

    /// `invalid pattern "PATTERN" at column N: MESSAGE`, `invalid field path "PATH": MESSAGE`
    /// or `invalid namespace binding PREFIX=URI: MESSAGE`.
    public var description: String {
        switch kind {
        case .elementPattern:
            "invalid pattern \"\(text)\"\(column.map { " at column \($0)" } ?? ""): \(message)"
        case .fieldPath:
            "invalid field path \"\(text)\": \(message)"
        case .namespaceBinding:
            "invalid namespace binding \(text): \(message)"
        }
    }
}

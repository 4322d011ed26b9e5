/// Prefixes that patterns, record fields and `Decodable` keys may use for namespace
/// URIs: `atom:link` then names the `link` element of the namespace bound to `atom`,
/// whatever prefix the document wrote it with (a default namespace included).
///
/// A prefix that no binding declares keeps its meaning as written: `dc:date` matches
/// elements written `dc:date`, in whatever namespace. Clark notation,
/// `{http://www.w3.org/2005/Atom}link`, names a namespace without any binding. The
/// prefix `xml` is always bound to `http://www.w3.org/XML/1998/namespace`.
///
/// ```swift
/// var dispatcher = Dispatcher()
/// dispatcher.namespaces = ["atom": "http://www.w3.org/2005/Atom"]
/// dispatcher.onEnd("atom:entry/atom:title") { _, title in print(title) }
/// ```
///
/// A prefix is bound to one URI: declaring it again with another is an
/// ``XMLPatternError``, as is binding `xmlns`, binding `xml` to another URI,
/// or binding a prefix to the empty URI.
public struct NamespaceBindings: Sendable, Hashable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The namespace the prefix `xml` is bound to in every document.
    public static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// The bindings, in the order they were declared.
    public private(set) var pairs: [(prefix: String, uri: String)] = []

    /// No bindings: every prefix keeps its meaning as written.
    public init() {}

    /// Binds each prefix to its URI.
    ///
    /// - Throws: ``XMLPatternError`` for a prefix bound twice to different URIs,
    ///   `xmlns`, `xml` bound to another namespace, an empty URI, or a prefix that is
    ///   not a name (empty, or containing `:`, `{`, `}`, `/` or white space).
    public init(_ bindings: some Sequence<(String, String)>) throws(XMLPatternError) {
        for (prefix, uri) in bindings { try bind(prefix, to: uri) }
    }

    /// Binds the prefixes of a literal; a literal that breaks a rule is a programming
    /// error and stops the program, in every build configuration, with the
    /// ``XMLPatternError`` message.
    public init(dictionaryLiteral elements: (String, String)...) {
        do {
            try self.init(elements)
        } catch {
            stopForInvalidLiteral(
                error, literal: "the dictionary literal is not valid NamespaceBindings",
                initializer: "try NamespaceBindings(_:)")
        }
    }

    /// Binds `prefix` to `uri`; binding it again to the same URI does nothing.
    ///
    /// - Throws: ``XMLPatternError`` as ``init(_:)`` says.
    public mutating func bind(_ prefix: String, to uri: String) throws(XMLPatternError) {
        if let problem = Self.problem(prefix: prefix, uri: uri) {
            throw XMLPatternError(binding: prefix, to: uri, message: problem)
        }
        if let existing = self.uri(for: prefix) {
            guard existing == uri else {
                throw XMLPatternError(
                    binding: prefix, to: uri, message: "the prefix '\(prefix)' is already bound to '\(existing)'")
            }
            return
        }
        pairs.append((prefix, uri))
    }

    /// The URI `prefix` is bound to, if any (`xml` always is).
    public func uri(for prefix: String) -> String? {
        if prefix == "xml" { return Self.xmlNamespace }
        return pairs.first { $0.prefix == prefix }?.uri
    }

    /// The namespace of a name as a pattern wrote it: `namespace` when it already has
    /// one (a Clark name, or a prefix resolved before), else the URI these bindings give
    /// its prefix, or `nil` for an unprefixed or unbound name.
    func namespace(ofName name: String?, resolved namespace: String?) -> String? {
        guard namespace == nil, let name, QualifiedName.anyNamespaceLocalName(of: name) == nil,
            let prefix = QualifiedName.prefix(of: name)
        else { return namespace }
        return uri(for: prefix)
    }

    /// Whether no prefix is bound.
    public var isEmpty: Bool { pairs.isEmpty }

    /// These bindings and those of `other`.
    ///
    /// - Throws: ``XMLPatternError`` when `other` binds a prefix of these to another URI.
    public func merging(_ other: NamespaceBindings) throws(XMLPatternError) -> NamespaceBindings {
        var merged = self
        for (prefix, uri) in other.pairs { try merged.bind(prefix, to: uri) }
        return merged
    }

    /// These bindings, then those of `outer` for prefixes these leave unbound: the
    /// bindings in scope in a nested declaration.
    func inheriting(_ outer: NamespaceBindings) -> NamespaceBindings {
        var merged = self
        for (prefix, uri) in outer.pairs where merged.uri(for: prefix) == nil { merged.pairs.append((prefix, uri)) }
        return merged
    }

    /// The bindings as `prefix=uri`, comma-separated.
    public var description: String {
        pairs.map { "\($0.prefix)=\($0.uri)" }.joined(separator: ", ")
    }

    public static func == (lhs: NamespaceBindings, rhs: NamespaceBindings) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.prefix == $1.prefix && $0.uri == $1.uri }
    }

    public func hash(into hasher: inout Hasher) {
        for (prefix, uri) in pairs {
            hasher.combine(prefix)
            hasher.combine(uri)
        }
    }

    private static func problem(prefix: String, uri: String) -> String? {
        if prefix.isEmpty {
            return "a binding needs a prefix; unprefixed names match unprefixed elements in any default namespace"
        }
        if prefix.contains(where: { ":{}/".contains($0) || $0.isWhitespace }) {
            return "'\(prefix)' is not a prefix: a prefix is a name without ':', '{', '}', '/' or white space"
        }
        if prefix == "xmlns" { return "the prefix 'xmlns' cannot be bound: it declares namespaces" }
        if prefix == "xml" && uri != xmlNamespace {
            return "the prefix 'xml' is always bound to '\(xmlNamespace)'"
        }
        if uri.isEmpty { return "the prefix '\(prefix)' cannot be bound to the empty URI" }
        if uri.unicodeScalars.contains(where: { $0.value < 0x20 }) || uri.contains("}") {
            return "a namespace URI cannot contain control characters or '}'"
        }
        return nil
    }
}

/// What a parse accepts from a document it did not write: which DTD features, and
/// how large anything may grow.
///
/// Every parse runs under a profile; ``default`` is safe for untrusted input.
/// Whatever the profile, nothing outside the input is ever read: external entities
/// and external DTD subsets are never opened or fetched, and parameter entities are
/// not parsed.
///
/// - ``default``: a DOCTYPE and its internal subset are allowed, with at most 256
///   entity declarations; a reference to an external entity is an error naming it;
///   an entity that cannot be expanded (declared nowhere, or only in a DTD that is
///   never read) is an error instead of silently vanishing; limits on depth (256),
///   attributes per element (1024), name length (50,000 bytes), any single token
///   (10 MiB), an element's coalesced text (10 MiB), the coalesced text of all open
///   elements together (32 MiB) and expat's heap (64 MiB); expat's
///   protection against entity amplification ("billion laughs") on; the character
///   entities of XHTML 1.x and RSS 0.91 from a built-in table when the DOCTYPE names
///   one of their public identifiers (``readsKnownDTDEntities``).
/// - ``strict``: the default, and a DOCTYPE with an internal subset is rejected
///   outright, so no entity is ever declared.
/// - Custom: start from either and change what you need. "No limit" is spelled out:
///
/// ```swift
/// var dispatcher = Dispatcher()
/// dispatcher.safety = .default
/// dispatcher.safety.maximumDepth = 4096
/// dispatcher.safety.maximumTextBytes = .unlimited
/// ```
///
/// Exceeding a limit ends the parse with an ``XMLParseError`` whose ``XMLParseError/code``
/// names the limit (``XMLParseError/Code/depthLimitExceeded`` and so on) and whose message
/// gives its value, with the line, column, byte offset and element path where it happened.
/// Text larger than ``maximumTextBytes`` can still be read in pieces with
/// ``Dispatcher/onText(_:_:)``, which never coalesces.
public struct SafetyProfile: Sendable, Hashable {
    /// A bound on a size or count: a number, or ``unlimited`` written out.
    ///
    /// Integer literals convert: `profile.maximumDepth = 1000`.
    public struct Limit: Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
        /// The largest allowed value, or `nil` for no limit.
        public let value: Int?

        /// At most `value` (negative values count as 0).
        public static func atMost(_ value: Int) -> Limit { Limit(value: max(0, value)) }

        /// No limit. Only for input you trust: every limit exists because some document
        /// exhausts memory, time or the stack without it.
        public static let unlimited = Limit(value: nil)

        private init(value: Int?) {
            self.value = value
        }

        /// At most `value`.
        public init(integerLiteral value: Int) {
            self.value = max(0, value)
        }

        /// Whether `amount` is over the limit.
        @inlinable
        public func isExceeded(by amount: Int) -> Bool {
            guard let value else { return false }
            return amount > value
        }

        /// The number, or `unlimited`.
        public var description: String { value.map(String.init) ?? "unlimited" }

        /// The value as a bound for comparisons (`Int.max` when unlimited).
        var bound: Int { value ?? Int.max }
    }

    /// Whether a DOCTYPE may carry an internal subset (`<!DOCTYPE r [ ... ]>`), where
    /// entities and attribute defaults are declared. `true` by default, `false` when strict.
    public var allowsInternalSubset: Bool

    /// Entity declarations (general and parameter) allowed in the internal subset.
    /// Default 256. Capping them bounds entity chains, which nest expat's recursion.
    public var maximumEntityDeclarations: Limit

    /// Element nesting depth; the root element is at depth 1. Default 256.
    public var maximumDepth: Limit

    /// Attributes on one element, counting namespace declarations (`xmlns`, `xmlns:p`)
    /// whether or not namespaces are processed and those declared with defaults in the DTD,
    /// and attribute declarations for one element name. Default 1024.
    public var maximumAttributes: Limit

    /// Bytes (UTF-8, whatever the input's encoding) in any one name: elements and
    /// attributes in tags, processing instruction targets, and in the DTD the DOCTYPE's
    /// name, entities, notations, and the element and attribute names of element type and
    /// attribute list declarations. Default 50,000.
    public var maximumNameBytes: Limit

    /// Bytes of input in any single token: a start tag with all its attributes, a
    /// comment, a processing instruction, an entity value. Default 10 MiB. The parser
    /// reports it before it holds more than this of one unfinished token.
    public var maximumTokenBytes: Limit

    /// Bytes (UTF-8) of text collected for one element that a handler receives whole
    /// (`onEnd` with text). Default 10 MiB. Text streamed with `onText` is not limited.
    /// Each open element's text counts on its own (an element's children's text is not
    /// its own); ``maximumCollectedTextBytes`` bounds them together.
    public var maximumTextBytes: Limit

    /// Bytes (UTF-8) of text collected at once for all open elements together: an element
    /// whose text a handler takes whole keeps it while its descendants' text is collected
    /// too, so without this bound a deep document could hold ``maximumTextBytes`` per
    /// level. Each element's own text, inner or outer markup and whole text count, whole
    /// text once for every open element whose handlers get it, so that nesting cannot
    /// multiply what the parse hands out. Default 32 MiB. Exceeding it is a ``XMLParseError/Code/textLimitExceeded``
    /// error whose ``XMLParseError/limit`` is this value.
    public var maximumCollectedTextBytes: Limit

    /// Bytes expat may allocate for one parse (its buffer, name pools, attribute arrays,
    /// DTD tables), together with the dispatcher's table of the distinct element names
    /// seen, which a document of many names makes as large as expat's own. In documents
    /// read one after another (``XMLInput/concatenatedDocuments(_:)``) each document's own
    /// names are dropped at its end, so the names of earlier documents do not count.
    /// Default 64 MiB.
    public var maximumParserMemoryBytes: Limit

    /// Expat's protection against entity amplification: the most output bytes an
    /// entity-heavy document may produce per input byte (default 100), checked once
    /// the output passes ``amplificationActivationBytes`` (default 8 MiB). Has effect
    /// with expat 2.4.0 or later; ``maximumEntityDeclarations`` bounds it everywhere.
    public var maximumAmplification: Float

    /// Output bytes from entities before ``maximumAmplification`` is checked.
    public var amplificationActivationBytes: UInt64

    /// Whether a document whose DOCTYPE names a well-known public identifier gets the
    /// character entities of its DTD (`&nbsp;`, `&copy;`, `&auml;`, `&euro;`…) from a table
    /// built into the package, without reading the DTD. `true` by default, in ``strict`` too.
    ///
    /// The identifiers are those of XHTML 1.0 Strict, Transitional and Frameset
    /// (`-//W3C//DTD XHTML 1.0 Strict//EN`…), XHTML 1.1, XHTML Basic 1.0 and 1.1, and RSS 0.91
    /// (`-//Netscape Communications//DTD RSS 0.91//EN`); the table is XHTML 1.0's three entity
    /// sets (HTML 4's Latin-1, symbol and special characters, and `&apos;`: 253 names). Each
    /// entity is one character: nothing is read, and nothing can amplify. Declarations in the
    /// document's internal subset come first and win, as XML 1.0 says. With `false`, those
    /// references are undeclared entities (``undeclaredEntities`` decides).
    ///
    /// ```swift
    /// var dispatcher = Dispatcher()
    /// dispatcher.safety.readsKnownDTDEntities = false   // &nbsp; in an XHTML page is then an error
    /// ```
    public var readsKnownDTDEntities: Bool = true

    /// What a reference to an entity the document does not declare where it is read does:
    /// ``UndeclaredEntityPolicy/error`` (the default, in ``strict`` too) or
    /// ``UndeclaredEntityPolicy/skipWithWarning``; the same in content and in attribute values.
    public var undeclaredEntities: UndeclaredEntityPolicy = .error

    /// The profile for untrusted input, used unless you choose another.
    public static let `default` = SafetyProfile(
        allowsInternalSubset: true, maximumEntityDeclarations: 256, maximumDepth: 256, maximumAttributes: 1024,
        maximumNameBytes: 50_000, maximumTokenBytes: .atMost(10 << 20), maximumTextBytes: .atMost(10 << 20),
        maximumCollectedTextBytes: .atMost(32 << 20), maximumParserMemoryBytes: .atMost(64 << 20), maximumAmplification: 100,
        amplificationActivationBytes: 8 << 20)

    /// The default, and a DOCTYPE with an internal subset is an error
    /// (``XMLParseError/Code/internalSubsetForbidden``).
    public static let strict: SafetyProfile = {
        var profile = SafetyProfile.default
        profile.allowsInternalSubset = false
        return profile
    }()

    /// Creates a custom profile; start from ``default`` or ``strict`` to change a few values.
    /// ``readsKnownDTDEntities`` and ``undeclaredEntities`` start at their defaults.
    public init(
        allowsInternalSubset: Bool, maximumEntityDeclarations: Limit, maximumDepth: Limit,
        maximumAttributes: Limit, maximumNameBytes: Limit, maximumTokenBytes: Limit, maximumTextBytes: Limit,
        maximumCollectedTextBytes: Limit, maximumParserMemoryBytes: Limit, maximumAmplification: Float, amplificationActivationBytes: UInt64
    ) {
        self.allowsInternalSubset = allowsInternalSubset
        self.maximumEntityDeclarations = maximumEntityDeclarations
        self.maximumDepth = maximumDepth
        self.maximumAttributes = maximumAttributes
        self.maximumNameBytes = maximumNameBytes
        self.maximumTokenBytes = maximumTokenBytes
        self.maximumTextBytes = maximumTextBytes
        self.maximumCollectedTextBytes = maximumCollectedTextBytes
        self.maximumParserMemoryBytes = maximumParserMemoryBytes
        self.maximumAmplification = maximumAmplification
        self.amplificationActivationBytes = amplificationActivationBytes
    }

    /// The names the command line uses for the limits (`--limit depth=1000`), in the
    /// order of the properties.
    public static let limitNames = [
        "entities", "depth", "attributes", "name-bytes", "token-bytes", "text-bytes", "collected-text-bytes",
        "memory-bytes",
    ]

    /// The limit a name from ``limitNames`` stands for, to read or change it.
    ///
    /// ```swift
    /// profile[limitNamed: "depth"] = 1000
    /// ```
    ///
    /// - Returns: `nil` for a name that is not in ``limitNames`` (reading); setting an
    ///   unknown name does nothing.
    public subscript(limitNamed name: String) -> Limit? {
        get {
            switch name {
            case "entities": maximumEntityDeclarations
            case "depth": maximumDepth
            case "attributes": maximumAttributes
            case "name-bytes": maximumNameBytes
            case "token-bytes": maximumTokenBytes
            case "text-bytes": maximumTextBytes
            case "collected-text-bytes": maximumCollectedTextBytes
            case "memory-bytes": maximumParserMemoryBytes
            default: nil
            }
        }
        set {
            guard let newValue else { return }
            switch name {
            case "entities": maximumEntityDeclarations = newValue
            case "depth": maximumDepth = newValue
            case "attributes": maximumAttributes = newValue
            case "name-bytes": maximumNameBytes = newValue
            case "token-bytes": maximumTokenBytes = newValue
            case "text-bytes": maximumTextBytes = newValue
            case "collected-text-bytes": maximumCollectedTextBytes = newValue
            case "memory-bytes": maximumParserMemoryBytes = newValue
            default: break
            }
        }
    }
}

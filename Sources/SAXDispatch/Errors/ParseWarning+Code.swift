extension ParseWarning {
    /// What kind of warning a ``ParseWarning`` is.
    ///
    /// An open set, like ``XMLParseError/Code``: a `RawRepresentable` struct with named
    /// values, so that kinds can be added without breaking a `switch`.
    ///
    /// ```swift
    /// dispatcher.onWarning { warning in
    ///     if warning.code == .unmatchedPattern { print("nothing matched \(warning.pattern ?? "")") }
    /// }
    /// ```
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The kind's name, such as `unmatchedPattern`.
        public var rawValue: String

        /// Wraps any kind, named here or not.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The kind's name.
        public var description: String { rawValue }

        /// A warning made with ``ParseWarning/init(message:prefix:source:)``.
        public static let other = Code(rawValue: "other")
        /// A pattern prefix that no binding declares and no element the parse read was
        /// written with, so the names written with it matched nothing.
        public static let unboundPatternPrefix = Code(rawValue: "unboundPatternPrefix")
        /// A handler, record or decoder pattern that matched no element of the document.
        public static let unmatchedPattern = Code(rawValue: "unmatchedPattern")
        /// A record field path that matched no element in any record, while the record's
        /// own pattern matched.
        public static let unmatchedField = Code(rawValue: "unmatchedField")
        /// A document that declares an XML version other than 1.0, read by 1.0's rules.
        public static let xmlVersion = Code(rawValue: "xmlVersion")
        /// References to an entity the document does not declare, left out under
        /// ``UndeclaredEntityPolicy/skipWithWarning``.
        public static let skippedEntity = Code(rawValue: "skippedEntity")

        /// Whether the warning says that a pattern or field matched nothing: the kinds the
        /// command line exits with its own status for.
        public var isUnmatched: Bool {
            self == .unmatchedPattern || self == .unmatchedField || self == .unboundPatternPrefix
        }
    }
}

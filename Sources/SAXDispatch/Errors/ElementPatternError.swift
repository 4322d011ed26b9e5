/// A pattern string that is not a valid ``ElementPattern``, with the position of the
/// first thing that is wrong.
///
/// ```
/// invalid pattern "a//" at column 4: a step name or '*' was expected
/// ```
public struct ElementPatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern as given.
    public let pattern: String
    /// The 1-based position, in characters, of the problem in ``pattern``.
    public let column: Int
    /// What is wrong there.
    public let message: String

    /// Creates an error for `pattern` at `column`.
    public init(pattern: String, column: Int, message: String) {
        self.pattern = pattern
        self.column = column
        self.message = message
    }

    /// `invalid pattern "PATTERN" at column N: MESSAGE`.
    public var description: String {
        "invalid pattern \"\(pattern)\" at column \(column): \(message)"
    }
}

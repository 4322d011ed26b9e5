/// A string that is not a valid ``RecordFieldPath``.
///
/// ```
/// invalid field path "/zoo/name": paths are relative to the record; drop the leading '/'
/// ```
public struct RecordFieldPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path as given.
    public let path: String
    /// What is wrong with it.
    public let message: String

    /// Creates an error for `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `invalid field path "PATH": MESSAGE`.
    public var description: String {
        "invalid field path \"\(path)\": \(message)"
    }
}

/// A `--field` argument that cannot be read.
public struct ExtractFieldError: Error, Sendable, CustomStringConvertible {
    /// The argument as given.
    public var argument: String
    /// What is wrong with it.
    public var message: String

    public var description: String { "--field '\(argument)': \(message)" }
}

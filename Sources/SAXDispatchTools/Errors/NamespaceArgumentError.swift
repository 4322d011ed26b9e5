/// A `-N` argument that cannot be read.
public struct NamespaceArgumentError: Error, Sendable, CustomStringConvertible {
    /// The argument as given.
    public var argument: String
    /// What is wrong with it.
    public var message: String

    public var description: String { "-N '\(argument)': \(message)" }
}

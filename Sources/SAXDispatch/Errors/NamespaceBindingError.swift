/// A namespace binding that breaks a rule of ``NamespaceBindings``.
public struct NamespaceBindingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The prefix being bound.
    public var prefix: String
    /// The URI it was being bound to.
    public var uri: String
    /// What is wrong, such as `the prefix 'atom' is already bound to '…'`.
    public var message: String

    public var description: String { "invalid namespace binding \(prefix)=\(uri): \(message)" }
}

/// The start of a document type declaration, `<!DOCTYPE name … [`.
public struct DoctypeDeclaration: Sendable, Hashable {
    /// The declared name of the root element.
    public var name: String
    /// The system identifier of the external subset, if one is named.
    public var systemID: String?
    /// The public identifier of the external subset, if one is named.
    public var publicID: String?
    /// Whether the declaration has an internal subset (`[…]`).
    public var hasInternalSubset: Bool

    /// Creates a declaration value; the parser makes these.
    public init(name: String, systemID: String?, publicID: String?, hasInternalSubset: Bool) {
        self.name = name
        self.systemID = systemID
        self.publicID = publicID
        self.hasInternalSubset = hasInternalSubset
    }
}

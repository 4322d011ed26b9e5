/// A notation declared in the DTD, `<!NOTATION name SYSTEM "…">`.
public struct NotationDeclaration: Sendable, Hashable {
    /// The notation's name.
    public var name: String
    /// The system identifier, if the declaration has one.
    public var systemID: String?
    /// The public identifier, if the declaration has one.
    public var publicID: String?

    /// Creates a declaration value; the parser makes these.
    public init(name: String, systemID: String?, publicID: String?) {
        self.name = name
        self.systemID = systemID
        self.publicID = publicID
    }
}

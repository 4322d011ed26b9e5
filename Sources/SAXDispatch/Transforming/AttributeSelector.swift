/// The attributes ``XMLTransform/removeAttribute(_:from:)`` names, parsed once.
struct AttributeSelector {
    private enum Form {
        /// By namespace URI and local name (`{uri}local`, or a prefix the transform binds).
        case expanded(namespace: String, local: String)
        /// By the name as written (no namespace processing, or a prefix bound nowhere).
        case written(String)
        /// An unprefixed name: an attribute in no namespace.
        case unprefixed(String)
    }

    private let form: Form

    init(_ name: String, processesNamespaces: Bool, namespaces: NamespaceBindings) {
        if !processesNamespaces {
            form = .written(name)
        } else if let (namespace, local) = QualifiedName.clark(name) {
            form = .expanded(namespace: namespace, local: local)
        } else if let prefix = QualifiedName.prefix(of: name) {
            if let uri = prefix == "xml" ? NamespaceScope.xmlNamespace : namespaces.uri(for: prefix) {
                form = .expanded(namespace: uri, local: QualifiedName.localPart(of: name))
            } else {
                form = .written(name)
            }
        } else {
            form = .unprefixed(name)
        }
    }

    /// Whether `attribute` is one the selector names.
    func selects(_ attribute: ElementAttributes.Attribute) -> Bool {
        switch form {
        case .expanded(let namespace, let local): attribute.namespaceURI == namespace && attribute.localName == local
        case .written(let name): attribute.name == name
        case .unprefixed(let name): attribute.prefix == nil && attribute.name == name
        }
    }
}

/// The name ``XMLTransform/rename(_:to:)`` gives an element, parsed once: what it makes of
/// an element's edit.
enum RenameTarget {
    /// `local`: the element keeps its namespace and prefix.
    case localName(String)
    /// `prefix:local`: in the namespace the transform binds the prefix to, or (`nil`) the
    /// one the prefix has where the element is written.
    case prefixed(name: String, namespace: String?)
    /// `{uri}local`: in that namespace, with whatever prefix the writer finds bound to it.
    case clark(local: String, namespace: String)
    /// Without namespace processing: the name as written.
    case asWritten(String)

    /// `nil` when `name` is not an XML name of a form the transform takes.
    init?(_ name: String, processesNamespaces: Bool, namespaces: NamespaceBindings) {
        guard processesNamespaces else {
            guard XMLNameSyntax.isName(name[...]) else { return nil }
            self = .asWritten(name)
            return
        }
        if let (namespace, local) = QualifiedName.clark(name) {
            guard XMLNameSyntax.isNCName(local[...]) else { return nil }
            self = .clark(local: local, namespace: namespace)
            return
        }
        let parts = QualifiedName.colonSeparatedParts(of: name)
        guard parts.allSatisfy({ XMLNameSyntax.isNCName($0) }) else { return nil }
        switch parts.count {
        case 1: self = .localName(name)
        case 2: self = .prefixed(name: name, namespace: namespaces.uri(for: String(parts[0])))
        default: return nil
        }
    }

    /// Renames `edit`, an element's start tag.
    func apply(to edit: inout ElementEdit) {
        switch self {
        case .localName(let local):
            let prefix = QualifiedName.prefix(of: edit.name)
            edit.name = prefix.map { $0 + ":" + local } ?? local
        case .prefixed(let name, let namespace):
            edit.name = name
            edit.namespaceURI = namespace
        case .clark(let local, let namespace):
            edit.name = local
            edit.namespaceURI = namespace
        case .asWritten(let name):
            edit.name = name
        }
    }
}

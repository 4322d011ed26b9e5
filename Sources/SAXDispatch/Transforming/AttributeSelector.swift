#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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

    /// Whether the attribute expat reports as `name` (`local`, or with namespace processing
    /// `uri SEP local SEP prefix`) is one the selector names, as ``selects(_:)`` tells.
    func selects(reportedName name: UnsafePointer<CChar>) -> Bool {
        let parts = QualifiedName.byteParts(of: UnsafeRawBufferPointer(start: name, count: strlen(name)))
        switch form {
        case .written(let written):
            // With namespace processing, `uri SEP local SEP prefix` is written `prefix:local`.
            guard let prefix = parts.prefix else { return parts.localName.elementsEqual(written.utf8) }
            return written.utf8.count == prefix.count + 1 + parts.localName.count
                && written.utf8.prefix(prefix.count).elementsEqual(prefix)
                && written.utf8.dropFirst(prefix.count).first == UInt8(ascii: ":")
                && written.utf8.suffix(parts.localName.count).elementsEqual(parts.localName)
        case .unprefixed(let local):
            return parts.namespaceURI == nil && parts.localName.elementsEqual(local.utf8)
        case .expanded(let namespace, let local):
            guard let uri = parts.namespaceURI else { return false }
            return uri.elementsEqual(namespace.utf8) && parts.localName.elementsEqual(local.utf8)
        }
    }

    /// Whether one of `attributes` is one the selector names, by the names expat reports,
    /// without making strings of them.
    func selectsAny(of attributes: ElementAttributes) -> Bool {
        guard let pairs = attributes.pairs else { return attributes.contains(where: selects) }
        return (0..<attributes.count).contains { index in pairs[2 * index].map { selects(reportedName: $0) } ?? false }
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

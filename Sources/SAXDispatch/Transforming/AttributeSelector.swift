#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The attributes ``XMLTransform/removeAttribute(_:from:)`` names, parsed once.
///
/// It is asked about every attribute of every element a rule matches, so names as expat
/// reports them are compared as bytes, and it is a class, read where it is kept rather than
/// copied with its strings. What must stay true is that ``selects(reportedName:)`` and
/// ``selects(_:)`` give one answer for one attribute.
final class AttributeSelector {
    private enum Form {
        /// By namespace URI and local name (`{uri}local`, or a prefix the transform binds).
        case expanded(namespace: String, local: String)
        /// By the name as written (no namespace processing, or a prefix bound nowhere).
        case written(String)
        /// An unprefixed name: an attribute in no namespace.
        case unprefixed(String)
    }

    private let form: Form
    /// The UTF-8 of the form's name (the written name, or the local name) and of its
    /// namespace (empty for none).
    private let nameBytes: [UInt8]
    private let namespaceBytes: [UInt8]
    /// Whether an attribute it selects is reported by expat exactly as ``nameBytes``: an
    /// unprefixed name, or any name without namespace processing.
    private let isReportedAsWritten: Bool

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
        switch form {
        case .expanded(let namespace, let local):
            nameBytes = Array(local.utf8)
            namespaceBytes = Array(namespace.utf8)
            isReportedAsWritten = false
        case .written(let name):
            nameBytes = Array(name.utf8)
            namespaceBytes = []
            isReportedAsWritten = !processesNamespaces
        case .unprefixed(let name):
            nameBytes = Array(name.utf8)
            namespaceBytes = []
            isReportedAsWritten = true
        }
    }

    /// Whether the attribute expat reports as `name` (`local`, or with namespace processing
    /// `uri SEP local SEP prefix`) is one the selector names, as ``selects(_:)`` tells.
    @inline(__always)
    func selects(reportedName name: UnsafePointer<CChar>) -> Bool {
        if isReportedAsWritten { return nameBytes.withUnsafeBufferPointer { cStringEquals(name, $0) } }
        return selectsExpanded(reportedName: name)
    }

    /// ``selects(reportedName:)`` for a name expat reports otherwise than it is written.
    private func selectsExpanded(reportedName name: UnsafePointer<CChar>) -> Bool {
        let parts = QualifiedName.byteParts(of: UnsafeRawBufferPointer(start: name, count: strlen(name)))
        switch form {
        case .written:
            // With namespace processing, `uri SEP local SEP prefix` is written `prefix:local`.
            guard let prefix = parts.prefix else { return Self.equal(parts.localName, nameBytes[...]) }
            return nameBytes.count == prefix.count + 1 + parts.localName.count
                && nameBytes[prefix.count] == UInt8(ascii: ":")
                && Self.equal(prefix, nameBytes[..<prefix.count])
                && Self.equal(parts.localName, nameBytes[(prefix.count + 1)...])
        case .unprefixed:
            return parts.namespaceURI == nil && Self.equal(parts.localName, nameBytes[...])
        case .expanded:
            guard let uri = parts.namespaceURI else { return false }
            return Self.equal(parts.localName, nameBytes[...]) && Self.equal(uri, namespaceBytes[...])
        }
    }

    /// The attributes the selector names among those expat reports as `pairs` (name, value,
    /// …, ended by a null), as bits by their place (bit 0 for the first), read without making
    /// strings of them; `nil` when it names one past the 64th, which has no bit.
    func selection(inReported pairs: UnsafePointer<UnsafePointer<CChar>?>) -> UInt64? {
        var selected: UInt64 = 0
        var index = 0
        while let name = pairs[2 * index] {
            if selects(reportedName: name) {
                guard index < UInt64.bitWidth else { return nil }
                selected |= 1 << UInt64(index)
            }
            index += 1
        }
        return selected
    }

    /// Whether `attribute` is one the selector names.
    func selects(_ attribute: ElementAttributes.Attribute) -> Bool {
        switch form {
        case .expanded(let namespace, let local): attribute.namespaceURI == namespace && attribute.localName == local
        case .written(let name): attribute.name == name
        case .unprefixed(let name): attribute.prefix == nil && attribute.name == name
        }
    }

    @inline(__always)
    private static func equal(_ bytes: UnsafeRawBufferPointer, _ other: ArraySlice<UInt8>) -> Bool {
        other.withUnsafeBytes { bytesEqual(bytes, $0) }
    }
}

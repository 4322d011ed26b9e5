#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finds an attribute by name in expat's attribute array, in either spelling expat may
/// use: as written (no namespace processing, or an unprefixed attribute), or
/// `uri␁local␁prefix` for a prefixed attribute with namespace processing on
/// (``QualifiedName``). Compares bytes in place.
struct AttributeNameMatcher: Sendable {
    private enum Form: Sendable {
        /// The name exactly.
        case exact([UInt8])
        /// An attribute in a namespace: `uri␁local`, then the end or `␁prefix`.
        case namespaced([UInt8])
        /// An attribute written `prefix:local`: exactly so, or `…␁local␁prefix`.
        case written(exact: [UInt8], suffix: [UInt8])
        /// In a namespace, or written `prefix:local` as the document said (without namespace
        /// processing, where expat keeps every name as written).
        case namespacedOrWritten(namespaced: [UInt8], exact: [UInt8])
        /// Nothing (a Clark name without namespace processing).
        case none
    }

    /// The form's case and byte strings, stored apart: an enum's payload pointers carry its
    /// tag in their spare bits, which leak checkers cannot follow in a matcher kept for good.
    private enum Kind: UInt8, Sendable { case exact, namespaced, written, namespacedOrWritten, none }
    private let kind: Kind
    private let first: [UInt8]
    private let second: [UInt8]

    /// A name as a handler or an unbound pattern writes it: `local`, `prefix:local` (as the
    /// document wrote it) or `{uri}local` (Clark notation).
    init(lookup name: String) {
        if let (namespace, local) = QualifiedName.clark(name) {
            self.init(form: namespace.isEmpty ? .exact(Array(local.utf8)) : .namespaced(Array((namespace + "\u{1}" + local).utf8)))
        } else if let prefix = QualifiedName.prefix(of: name) {
            let local = QualifiedName.localPart(of: name)
            self.init(form: .written(exact: Array(name.utf8), suffix: Array("\u{1}\(local)\u{1}\(prefix)".utf8)))
        } else {
            self.init(form: .exact(Array(name.utf8)))
        }
    }

    /// A record field's attribute (`@xlink:href`): a prefix that `bindings` bind finds the
    /// attribute in that namespace, or written with that prefix when namespaces are not
    /// processed; other names as ``init(lookup:)``.
    init(fieldAttribute name: String, bindings: NamespaceBindings) {
        guard QualifiedName.clark(name) == nil, let prefix = QualifiedName.prefix(of: name),
            let uri = bindings.uri(for: prefix)
        else {
            self.init(lookup: name)
            return
        }
        self.init(
            form: .namespacedOrWritten(
                namespaced: Array((uri + "\u{1}" + QualifiedName.localPart(of: name)).utf8), exact: Array(name.utf8)))
    }

    /// A pattern's attribute name: `namespace` is a Clark name's or a bound prefix's URI.
    init(name: String, namespace: String?, processesNamespaces: Bool) {
        guard let namespace else {
            self.init(lookup: name)
            return
        }
        self.init(form: Self.form(name: name, namespace: namespace, processesNamespaces: processesNamespaces))
    }

    private init(form: Form) {
        switch form {
        case .exact(let bytes): (kind, first, second) = (.exact, bytes, [])
        case .namespaced(let bytes): (kind, first, second) = (.namespaced, bytes, [])
        case .written(let exact, let suffix): (kind, first, second) = (.written, exact, suffix)
        case .namespacedOrWritten(let namespaced, let exact): (kind, first, second) = (.namespacedOrWritten, namespaced, exact)
        case .none: (kind, first, second) = (.none, [], [])
        }
    }

    private static func form(name: String, namespace: String, processesNamespaces: Bool) -> Form {
        // Without namespace processing names compare as written: a bound prefix as
        // written, a Clark name never.
        if !processesNamespaces { return QualifiedName.prefix(of: name) != nil ? .exact(Array(name.utf8)) : .none }
        let local = QualifiedName.localPart(of: name)
        return namespace.isEmpty ? .exact(Array(local.utf8)) : .namespaced(Array((namespace + "\u{1}" + local).utf8))
    }

    /// Whether expat's attribute name `candidate` is the one wanted.
    func matches(_ candidate: UnsafePointer<CChar>) -> Bool {
        switch kind {
        case .exact:
            return first.withUnsafeBufferPointer { cStringEquals(candidate, $0) }
        case .namespaced:
            return Self.hasNamespacedName(candidate, first)
        case .namespacedOrWritten:
            return Self.hasNamespacedName(candidate, first)
                || second.withUnsafeBufferPointer { cStringEquals(candidate, $0) }
        case .written:
            let (exact, suffix) = (first, second)
            if exact.withUnsafeBufferPointer({ cStringEquals(candidate, $0) }) { return true }
            let length = strlen(candidate)
            guard length > suffix.count else { return false }
            return suffix.withUnsafeBufferPointer { suffix in
                candidate.withMemoryRebound(to: UInt8.self, capacity: length) { name in
                    let start = length - suffix.count
                    for index in 0..<suffix.count where name[start + index] != suffix[index] { return false }
                    return true
                }
            }
        case .none:
            return false
        }
    }

    /// Whether expat's name `candidate` is `uri␁local`, alone or followed by `␁prefix`.
    private static func hasNamespacedName(_ candidate: UnsafePointer<CChar>, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { wanted in
            candidate.withMemoryRebound(to: UInt8.self, capacity: wanted.count + 1) { name in
                // Stops at the candidate's NUL, which no wanted byte equals.
                for index in 0..<wanted.count where name[index] != wanted[index] { return false }
                let next = name[wanted.count]
                return next == 0 || next == QualifiedName.separator
            }
        }
    }
}

/// The name of an element or attribute that a coding key reads, resolved by the decoder's
/// namespace rules (``XMLRecordDecoder/namespaces``, ``XMLRecordDecoder/processesNamespaces``).
///
/// A key name is compared either with the name as the document wrote it (an unprefixed
/// name, a prefix no binding declares, or any name without namespace processing) or by
/// namespace URI and local name (a Clark name, or a bound prefix), the rules patterns follow.
///
/// A string literal is a name compared as written.
struct KeyName: Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// How a name is compared with what the document wrote.
    enum Match: Hashable {
        /// With the name as written: an unprefixed name (unprefixed elements in any default
        /// namespace, attributes in none), or any name without namespace processing.
        case written
        /// With the name as written, `prefix:local`, for a prefix no binding declares, under
        /// namespace processing: expat has resolved the document's prefix, so an attribute
        /// comes spelled `uri␁local␁prefix` and is found by its end.
        case writtenPrefix
        /// ``KeyName/name`` in this namespace, whatever prefix the document wrote it with
        /// (none, for an element in a default namespace).
        case namespace(String)
    }

    /// The name as written (`title`, `p:title`), or the local name for ``Match/namespace(_:)``.
    let name: String
    let match: Match
    /// How the key spelled the name (`atom:title`, `{uri}title`), for messages.
    let spelling: String

    init(name: String, match: Match, spelling: String) {
        self.name = name
        self.match = match
        self.spelling = spelling
    }

    init(stringLiteral name: String) {
        self.init(name: name, match: .written, spelling: name)
    }

    /// The XML Schema instance namespace, whose `nil` attribute marks an element nil.
    static let schemaInstanceNamespace = "http://www.w3.org/2001/XMLSchema-instance"

    /// The attributes that can mark an element nil (``CapturedSubtree/isNil(_:)``): `nil`,
    /// and the schema instance's `nil` (by namespace, or written `xsi:nil` without
    /// namespace processing, when no URI is known).
    static func nilAttributes(processesNamespaces: Bool) -> [KeyName] {
        let schemaInstance =
            processesNamespaces
            ? KeyName(name: "nil", match: .namespace(schemaInstanceNamespace), spelling: "xsi:nil")
            : KeyName(stringLiteral: "xsi:nil")
        return ["nil", schemaInstance]
    }

    /// Reads a name written in a key, a pattern-like name: `local`, `prefix:local` or Clark
    /// `{uri}local`.
    ///
    /// - Parameters:
    ///   - text: The name, after the key strategy when `convertLocalName` is `nil`.
    ///   - convertLocalName: The key strategy's conversion, applied to the local name only:
    ///     prefixes and URIs are not property names.
    init(
        parsing text: String, namespaces: NamespaceBindings, processesNamespaces: Bool,
        convertLocalName: ((String) -> String)? = nil
    ) {
        let convert = convertLocalName ?? { $0 }
        if let (namespace, local) = QualifiedName.clark(text) {
            let local = convert(local)
            let spelling = "{\(namespace)}\(local)"
            // Without namespace processing no element is known by URI: the Clark spelling,
            // which no document name has, matches nothing.
            if !processesNamespaces {
                self.init(name: spelling, match: .written, spelling: spelling)
            } else if namespace.isEmpty {
                self.init(name: local, match: .written, spelling: spelling)
            } else {
                self.init(name: local, match: .namespace(namespace), spelling: spelling)
            }
        } else if let prefix = QualifiedName.prefix(of: text) {
            let local = convert(QualifiedName.localPart(of: text))
            let written = "\(prefix):\(local)"
            if !processesNamespaces {
                self.init(name: written, match: .written, spelling: written)
            } else if let namespace = namespaces.uri(for: prefix) {
                self.init(name: local, match: .namespace(namespace), spelling: written)
            } else {
                self.init(name: written, match: .writtenPrefix, spelling: written)
            }
        } else {
            let name = convert(text)
            self.init(name: name, match: .written, spelling: name)
        }
    }

    /// Whether an element or attribute written `written` (`prefix:local` or `local`), in
    /// namespace `namespaceURI` (`nil` for none), is the one this name reads.
    @inline(__always)
    func matches(_ written: String, namespaceURI: String?) -> Bool {
        switch match {
        case .written, .writtenPrefix: written == name
        case .namespace(let namespace): namespaceURI == namespace && Self.hasLocalName(written, name)
        }
    }

    /// Whether `written`, a name as written (`prefix:local` or `local`), has the local name `local`.
    static func hasLocalName(_ written: String, _ local: String) -> Bool {
        let writtenBytes = written.utf8
        let localBytes = local.utf8
        let extra = writtenBytes.count - localBytes.count
        if extra == 0 { return written == local }
        guard extra > 1 else { return false }
        let start = writtenBytes.index(writtenBytes.startIndex, offsetBy: extra)
        return writtenBytes[writtenBytes.index(before: start)] == UInt8(ascii: ":")
            && writtenBytes[start...].elementsEqual(localBytes)
    }

    /// Two names read the same elements and attributes however the keys spelled them.
    static func == (lhs: KeyName, rhs: KeyName) -> Bool {
        lhs.name == rhs.name && lhs.match == rhs.match
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(match)
    }

    var description: String { spelling }
}

/// Compiled once per key: the XML name of an element or attribute that a coding key
/// reads, resolved by the decoder's namespace rules (``XMLRecordDecoder/namespaces``,
/// ``XMLRecordDecoder/processesNamespaces``). A ``KeyTarget`` holds one or more; the
/// ``KeySchema``, the capture and the containers compare document names with it.
///
/// A key name is compared either with the name as the document wrote it (an unprefixed
/// name, a prefix no binding declares, or any name without namespace processing) or by
/// namespace URI and local name (a Clark name, or a bound prefix), the rules patterns follow.
///
/// A key name is one `String`, ``key``: decodes copy key names at every key they read, so
/// a name without a namespace must cost no more than a plain `String`. A name in a
/// namespace is spelled `␁uri␁local`, expat's spelling behind a separator that no name as
/// written can hold (U+0001 cannot occur in an XML 1.0 document), so comparing it with a
/// name as written fails at once, and only then is it looked at by namespace.
///
/// A string literal is a name compared as written.
struct KeyName: Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name as written (`title`, `p:title`), or `␁uri␁local` for a name in a namespace.
    let key: String

    /// A name compared as written.
    init(written name: String) {
        key = name
    }

    /// `local` in `namespace`, whatever prefix the document writes it with.
    init(namespace: String, local: String) {
        key = QualifiedName.separatorText + namespace + QualifiedName.separatorText + local
    }

    /// `local` in any namespace or none, whatever prefix the document writes it with
    /// (`*:local`): spelled as a name by namespace with an empty URI, which no namespace has.
    init(anyNamespace local: String) {
        key = QualifiedName.separatorText + QualifiedName.separatorText + local
    }

    /// Whether the name is a local name in any namespace (``init(anyNamespace:)``).
    var isAnyNamespace: Bool {
        key.utf8.count > 2 && key.utf8.dropFirst().first == QualifiedName.separator && isNamespaced
    }

    /// The attribute this name reads: the name itself, except that a local name in any
    /// namespace (`*:id`, or an unprefixed key under
    /// ``XMLRecordDecoder/matchesUnprefixedNamesInAnyNamespace``) reads the unprefixed
    /// attribute `id`, in no namespace. Matching in any namespace is for element names:
    /// `*:type` does not read `xsi:type`.
    ///
    /// The one place a key turns into an attribute name: the probe, the capture and the
    /// lookup all read attributes by it, so that they agree.
    @inline(__always)
    var attributeName: KeyName {
        // Most keys are names as written: one inlined test, no other work, per key read.
        guard isNamespaced else { return self }
        return anyNamespaceAttributeName ?? self
    }

    /// The unprefixed attribute a name in any namespace reads; nil for other names.
    private var anyNamespaceAttributeName: KeyName? {
        guard isAnyNamespace, let (_, local) = namespaceAndLocalName else { return nil }
        return KeyName(written: String(local))
    }

    init(stringLiteral name: String) {
        self.init(written: name)
    }

    /// Whether the name is read by namespace.
    @inline(__always)
    var isNamespaced: Bool {
        // `String.isEmpty` and the view's subscript are inlined where `utf8.first` is a call.
        !key.isEmpty && key.utf8[key.startIndex] == QualifiedName.separator
    }

    /// The namespace and local name of a name read by namespace; `nil` for a name compared as written.
    var namespaceAndLocalName: (namespace: Substring, local: Substring)? {
        guard isNamespaced else { return nil }
        let rest = key.utf8.dropFirst()
        guard let separator = rest.firstIndex(of: QualifiedName.separator) else { return nil }
        return (key[rest.startIndex..<separator], key[key.utf8.index(after: separator)...])
    }

    /// How messages write the name: as written, or in Clark notation (`{uri}title`).
    var spelling: String {
        guard let (namespace, local) = namespaceAndLocalName else { return key }
        return namespace.isEmpty ? QualifiedName.anyNamespacePrefix + local : "{\(namespace)}\(local)"
    }

    var description: String { spelling }

    /// The XML Schema instance namespace, whose `nil` attribute marks an element nil.
    static let schemaInstanceNamespace = "http://www.w3.org/2001/XMLSchema-instance"

    /// The attributes that can mark an element nil (``CapturedSubtree/isNil(_:)``): `nil`,
    /// and the schema instance's `nil` (by namespace, or written `xsi:nil` without
    /// namespace processing, when no URI is known).
    static func nilAttributes(processesNamespaces: Bool) -> [KeyName] {
        let schemaInstance =
            processesNamespaces
            ? KeyName(namespace: schemaInstanceNamespace, local: "nil") : KeyName(written: "xsi:nil")
        return ["nil", schemaInstance]
    }

    /// Reads a name written in a key, a pattern-like name: `local`, `prefix:local` or Clark
    /// `{uri}local`.
    ///
    /// - Parameters:
    ///   - text: The name, after the key strategy when `convertLocalName` is `nil`.
    ///   - unprefixedInAnyNamespace: Whether an unprefixed name (not a Clark one) is read as a
    ///     local name in any namespace (``XMLRecordDecoder/matchesUnprefixedNamesInAnyNamespace``).
    ///   - convertLocalName: The key strategy's conversion, applied to the local name only:
    ///     prefixes and URIs are not property names.
    init(
        parsing text: String, namespaces: NamespaceBindings, processesNamespaces: Bool,
        unprefixedInAnyNamespace: Bool = false, convertLocalName: ((String) -> String)? = nil
    ) {
        let convert = convertLocalName ?? { $0 }
        if let local = QualifiedName.anyNamespaceLocalName(of: text), !local.isEmpty {
            self.init(anyNamespace: convert(local))
        } else if let (namespace, local) = QualifiedName.clark(text) {
            let local = convert(local)
            // Without namespace processing no element is known by URI: the Clark spelling,
            // which no document name has, matches nothing.
            if !processesNamespaces {
                self.init(written: "{\(namespace)}\(local)")
            } else if namespace.isEmpty {
                self.init(written: local)
            } else {
                self.init(namespace: namespace, local: local)
            }
        } else if let prefix = QualifiedName.prefix(of: text) {
            let local = convert(QualifiedName.localPart(of: text))
            if processesNamespaces, let namespace = namespaces.uri(for: prefix) {
                self.init(namespace: namespace, local: local)
            } else {
                self.init(written: "\(prefix):\(local)")
            }
        } else if unprefixedInAnyNamespace {
            self.init(anyNamespace: convert(text))
        } else {
            self.init(written: convert(text))
        }
    }

    /// Whether an element or attribute written `written` (`prefix:local` or `local`), in
    /// namespace `namespaceURI` (`nil` for none), is the one this name reads.
    @inline(__always)
    func matches(_ written: String, namespaceURI: String?) -> Bool {
        if written == key { return true }
        guard isNamespaced else { return false }
        guard let namespaceURI else { return isAnyNamespace && matchesByNamespace(written, "") }
        return matchesByNamespace(written, namespaceURI)
    }

    /// ``matches(_:namespaceURI:)`` for a name read by namespace (a local name in any
    /// namespace matches whatever `namespaceURI` is).
    func matchesByNamespace(_ written: String, _ namespaceURI: String) -> Bool {
        guard let (namespace, local) = namespaceAndLocalName else { return false }
        return (namespace.isEmpty || namespaceURI.utf8.elementsEqual(namespace.utf8)) && Self.hasLocalName(written, local)
    }

    /// Whether `written`, a name as written (`prefix:local` or `local`), has the local name `local`.
    static func hasLocalName(_ written: String, _ local: some StringProtocol) -> Bool {
        let writtenBytes = written.utf8
        let localBytes = local.utf8
        let extra = writtenBytes.count - localBytes.count
        if extra == 0 { return writtenBytes.elementsEqual(localBytes) }
        guard extra > 1 else { return false }
        let start = writtenBytes.index(writtenBytes.startIndex, offsetBy: extra)
        return writtenBytes[writtenBytes.index(before: start)] == UInt8(ascii: ":")
            && writtenBytes[start...].elementsEqual(localBytes)
    }
}

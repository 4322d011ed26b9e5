/// The checks of names and namespaces, and the prefixes they are written with.
extension XMLWriter {
    /// An attribute's expanded name and the name it is written with on the element whose
    /// bindings begin at `bindingStart`, declaring there the prefix it needs (never one of
    /// `inUse`, the prefixes of the names already in the tag, for another namespace).
    func resolve(
        _ name: String, namespace: String?, bindingStart: Int, inUse: @autoclosure () -> Set<Substring>
    ) throws -> (uri: String, local: String, written: String) {
        let (prefix, local) = try split(name, what: "attribute")
        if let namespace, !namespace.isEmpty {
            guard namespace != NamespaceScope.xmlnsNamespace else {
                throw refusal(.invalidNamespace, "attribute \(name) in the xmlns namespace: declare namespaces with xmlns attributes")
            }
            let chosen = scope.attributePrefix(for: namespace, written: prefix, from: bindingStart, inUse: inUse())
            return (namespace, local, chosen + ":" + local)
        }
        guard let prefix else { return ("", local, local) }
        guard namespace == nil, let bound = scope.uri(boundTo: prefix), !bound.isEmpty else {
            throw refusal(.invalidNamespace, "prefix \"\(prefix)\" of attribute \(name) is bound to no namespace")
        }
        return (bound, local, name)
    }

    /// The element's prefix, declaring what its namespace needs.
    func elementPrefix(_ prefix: String?, _ local: String, namespace: String?, bindingStart: Int) throws -> String {
        let name = prefix.map { $0 + ":" + local } ?? local
        guard let namespace else {
            if prefix == "xmlns" { throw refusal(.invalidNamespace, "<\(name)>: the prefix xmlns is reserved") }
            if let prefix, prefix != "xml" {
                guard let bound = scope.uri(boundTo: prefix), !bound.isEmpty else {
                    throw refusal(.invalidNamespace, "prefix \"\(prefix)\" of <\(name)> is bound to no namespace")
                }
            }
            return prefix ?? ""
        }
        if namespace.isEmpty {
            if prefix != nil { throw refusal(.invalidNamespace, "<\(name)> has a prefix and no namespace") }
            if let inherited = scope.uri(boundTo: ""), !inherited.isEmpty, scope.declares("", from: bindingStart) {
                throw refusal(.invalidNamespace, "<\(name)> is in no namespace, and declares a default namespace")
            }
            return scope.elementPrefix(for: "", written: nil, from: bindingStart, reusesBoundPrefix: true)
        }
        if namespace == NamespaceScope.xmlnsNamespace || (namespace == NamespaceScope.xmlNamespace && prefix != "xml") {
            throw refusal(.invalidNamespace, "<\(name)> in a namespace reserved for xml and xmlns")
        }
        if prefix == "xmlns" || (prefix == "xml" && namespace != NamespaceScope.xmlNamespace) {
            throw refusal(.invalidNamespace, "<\(name)>: the prefix \(prefix ?? "") is reserved")
        }
        if let prefix, scope.declares(prefix, from: bindingStart), scope.uri(boundTo: prefix) != namespace {
            throw refusal(.invalidNamespace, "<\(name)> declares \"\(prefix)\" for another namespace")
        }
        return scope.elementPrefix(for: namespace, written: prefix, from: bindingStart, reusesBoundPrefix: true)
    }

    /// The prefix an `xmlns` or `xmlns:p` attribute declares (`""` for the default
    /// namespace), after checking the declaration may be written; `nil` for another name.
    func declaration(_ name: String, _ uri: String) throws -> String? {
        guard let prefix = Self.declaredPrefix(name) else { return nil }
        let refuse = { (message: String) in self.refusal(.invalidNamespace, message) }
        if prefix == "xml" {
            guard uri == NamespaceScope.xmlNamespace else { throw refuse("the prefix xml is bound to \(NamespaceScope.xmlNamespace) only") }
            return prefix
        }
        if prefix == "xmlns" { throw refuse("the prefix xmlns cannot be declared") }
        if !prefix.isEmpty && !XMLNameSyntax.isNCName(prefix[...]) {
            throw refusal(.invalidName, "\"\(prefix)\" is not a namespace prefix")
        }
        if !prefix.isEmpty && uri.isEmpty { throw refuse("the prefix \(prefix) cannot be undeclared in XML 1.0") }
        if uri == NamespaceScope.xmlNamespace || uri == NamespaceScope.xmlnsNamespace {
            throw refuse("\(uri) is bound to xml or xmlns only")
        }
        return prefix
    }

    /// The prefixes of the names in a start tag: the element's, and its attributes' as
    /// written.
    static func prefixes(element: Substring, attributes: [(uri: String, local: String, written: String)]) -> Set<Substring> {
        var prefixes: Set<Substring> = [element]
        for attribute in attributes {
            if let colon = QualifiedName.firstColon(in: attribute.written) { prefixes.insert(attribute.written[..<colon]) }
        }
        return prefixes
    }

    /// The prefix `name` declares when it is `xmlns` (`""`) or `xmlns:p` (`p`).
    static func declaredPrefix(_ name: String) -> String? {
        if name == "xmlns" { return "" }
        return name.hasPrefix("xmlns:") ? String(name.dropFirst(6)) : nil
    }

    /// `name`'s prefix and local part, each checked: an NCName, or two joined by one colon.
    func split(_ name: String, what: String) throws -> (prefix: String?, local: String) {
        let utf8 = name.utf8
        guard let colon = QualifiedName.firstColon(in: name) else {
            // No colon: a Name is an NCName.
            guard XMLNameSyntax.isName(name[...]) else { throw refusal(.invalidName, "\"\(name)\" is not an XML \(what) name") }
            return (nil, name)
        }
        let prefix = name[..<colon]
        let local = name[utf8.index(after: colon)...]
        guard XMLNameSyntax.isName(prefix), XMLNameSyntax.isNCName(local) else {
            throw refusal(.invalidName, "\"\(name)\" is not an XML \(what) name")
        }
        return (String(prefix), String(local))
    }

    func checkCharacters(_ text: String, in what: @autoclosure () -> String) throws {
        var text = text
        if let invalid = text.withUTF8({ XMLEscaping.firstInvalidCharacter(in: UnsafeRawBufferPointer($0)) }) {
            throw refusal(.invalidCharacter, "\(what()) holds a character XML cannot carry at byte \(invalid)")
        }
    }
}

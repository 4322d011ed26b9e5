/// A start tag on its way through an ``XMLTransform``: the name it will be written with
/// and its attributes, which a rule may change, or the decision to drop the element.
///
/// ```swift
/// transform.edit("link") { element, edit in
///     edit["rel"] = nil                                  // remove
///     edit["href"] = edit["href"].map { $0.replacingOccurrences(of: "http:", with: "https:") }
///     if element.isInside("nav") { edit.drop() }
/// }
/// ```
public struct ElementEdit: Sendable {
    /// The name written in the tags, `local` or `prefix:local` (with namespaces, the
    /// prefix must be bound where the element is written: the document's own prefixes are).
    public var name: String
    /// The element's namespace URI; `nil` for none. Changing it writes the element in that
    /// namespace with its prefix, or one bound to the namespace, declared where needed.
    /// Always `nil` without namespace processing, where names are copied as written.
    public var namespaceURI: String?
    /// The attributes written, in order. An attribute's ``ElementAttributes/Attribute/namespaceURI``
    /// decides its namespace; its prefix is declared where the copy needs it.
    public var attributes: [ElementAttributes.Attribute]
    /// The namespace declarations written on the tag in the document (prefix, URI; no
    /// prefix for the default namespace), copied as they were so that a prefix that only
    /// content mentions (`xsi:type="xs:string"`) stays bound.
    public var namespaceDeclarations: [NamespaceDeclaration]
    /// Whether the element and everything in it are left out of the output (``drop()``).
    public private(set) var isDropped = false

    /// A namespace declaration of a start tag: `xmlns="uri"` has no prefix.
    public struct NamespaceDeclaration: Sendable, Hashable {
        /// The declared prefix; `nil` for the default namespace.
        public var prefix: String?
        /// The namespace URI; empty where a default namespace is undeclared (`xmlns=""`).
        public var uri: String

        /// A declaration as written.
        public init(prefix: String?, uri: String) {
            self.prefix = prefix
            self.uri = uri
        }
    }

    /// An edit of a start tag as given.
    public init(
        name: String, namespaceURI: String? = nil, attributes: [ElementAttributes.Attribute] = [],
        namespaceDeclarations: [NamespaceDeclaration] = []
    ) {
        self.name = name
        self.namespaceURI = namespaceURI
        self.attributes = attributes
        self.namespaceDeclarations = namespaceDeclarations
    }

    /// The tag of `element` as the document wrote it, in a start handler.
    init(_ element: ElementContext) {
        self.init(
            name: element.name, namespaceURI: element.namespaceURI, attributes: Array(element.attributesReadInHandler),
            namespaceDeclarations: element.namespaceDeclarations.map { NamespaceDeclaration(prefix: $0.prefix, uri: $0.uri) })
    }

    /// The value of the attribute written `name` (`href`, `xml:lang`), or `nil`; setting it
    /// replaces the value in place or adds the attribute at the end (in no namespace, or in
    /// the namespace its prefix has on the element), and `nil` removes it.
    public subscript(name: String) -> String? {
        get { attributes.first { $0.name == name }?.value }
        set {
            guard let newValue else {
                attributes.removeAll { $0.name == name }
                return
            }
            if let index = attributes.firstIndex(where: { $0.name == name }) {
                attributes[index].value = newValue
            } else {
                attributes.append(ElementAttributes.Attribute(name: name, value: newValue))
            }
        }
    }

    /// Leaves the element, with everything in it, out of the output.
    public mutating func drop() {
        isDropped = true
    }
}

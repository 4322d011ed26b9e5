/// One element a value is encoded into, held until the value is encoded whole: its
/// attributes may come after its children in the order `encode(to:)` calls them, and a
/// start tag is written once. A record's elements are held; records are not.
final class EncodedElement {
    /// A name and the namespace it is in (`nil`: written as it is, an unprefixed name in
    /// the default namespace in scope).
    struct Name: Sendable {
        var name: String
        var namespace: String?
    }

    enum Content {
        case element(EncodedElement)
        case text(String)
    }

    let name: Name
    private(set) var attributes: [ElementAttributes.Attribute] = []
    private(set) var content: [Content] = []

    init(_ name: Name) {
        self.name = name
    }

    /// A new child named `name`, after the content so far.
    func appendChild(_ name: Name) -> EncodedElement {
        let child = EncodedElement(name)
        content.append(.element(child))
        return child
    }

    /// The last child named `name`, or a new one: the wrapper a key path (`a/b`, `a/@c`)
    /// goes through, shared by the keys that name it.
    func child(_ name: Name) -> EncodedElement {
        for item in content.reversed() {
            if case .element(let child) = item, child.name.name == name.name, child.name.namespace == name.namespace {
                return child
            }
        }
        return appendChild(name)
    }

    func appendText(_ text: String) {
        content.append(.text(text))
    }

    /// Sets attribute `name`; a second value for it replaces the first.
    func setAttribute(_ name: Name, _ value: String) {
        let attribute = ElementAttributes.Attribute(name: name.name, value: value, namespaceURI: name.namespace)
        if let index = attributes.firstIndex(where: { $0.name == name.name && $0.namespaceURI == name.namespace }) {
            attributes[index] = attribute
        } else {
            attributes.append(attribute)
        }
    }

    /// Writes the element, its attributes and content in order, at the writer's place.
    /// - Throws: ``XMLWriterError`` for a name or text the writer refuses.
    func write(to writer: XMLWriter) throws {
        try writer.startElement(name.name, namespace: name.namespace, attributes: attributes)
        for item in content {
            switch item {
            case .element(let child): try child.write(to: writer)
            case .text(let text): try writer.text(text)
            }
        }
        try writer.endElement()
    }
}

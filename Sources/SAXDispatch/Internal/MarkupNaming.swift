/// How inner markup reads the names of elements and attributes: the one place that knows
/// where a name's namespace URI, local name and prefix come from.
///
/// Names are read as written, prefix and all, with no URI: the markup writes them as they
/// were and declares nothing for them. With namespace processing, each function returns
/// the context's or attribute's URI, local name and prefix instead.
enum MarkupNaming {
    static func name(of element: ElementContext) -> MarkupName {
        MarkupName(namespaceURI: nil, localName: element.name, prefix: nil)
    }

    static func name(of attribute: ElementAttributes.Attribute) -> MarkupName {
        MarkupName(namespaceURI: nil, localName: attribute.name, prefix: nil)
    }
}

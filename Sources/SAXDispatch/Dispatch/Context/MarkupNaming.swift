/// How inner markup reads the names of elements and attributes: the one place that knows
/// where a name's namespace URI, local name and prefix come from.
///
/// With namespace processing, each name comes with its URI and the prefix the document
/// wrote, so that the markup declares what it uses; without it, names are as written,
/// prefix and all, with no URI, and the markup declares nothing for them (the `xmlns`
/// attributes are then ordinary attributes, and written as such).
enum MarkupNaming {
    static func name(of element: ElementContext) -> MarkupName {
        let parts = element.engine.names.parts(element.nameID)
        return MarkupName(namespaceURI: parts.namespaceURI, localName: parts.localName, prefix: parts.prefix)
    }

    static func name(of attribute: ElementAttributes.Attribute) -> MarkupName {
        MarkupName(namespaceURI: attribute.namespaceURI, localName: attribute.localName, prefix: attribute.prefix)
    }
}

/// Start tags copied from a parse: the element's name, its namespace declarations as the
/// document wrote them, and its attributes, so that a document read and written back keeps
/// its names and prefixes.
extension XMLWriter {
    /// Writes the start tag of the element a start handler is given, as the document wrote
    /// it: its name and prefix, its attributes, and — when the dispatcher keeps them, as an
    /// ``XMLTransform``'s does — its namespace declarations as written, so that a prefix
    /// that only content mentions (`xsi:type="xs:string"`) stays bound. Elsewhere the
    /// writer declares what the names need.
    ///
    /// ```swift
    /// dispatcher.onAnyStart { element in try writer.startElement(copying: element) }
    /// ```
    ///
    /// - Throws: As ``startElement(_:namespace:attributes:)-(_,_,KeyValuePairs<String,String>)``;
    ///   a start tag read by a parse is refused only for a document that is not
    ///   namespace-well-formed, read without namespace processing.
    public func startElement(copying element: ElementContext) throws {
        try startElement(ElementEdit(element), processesNamespaces: element.processesNamespaces)
    }

    /// Writes the start tag an edit describes: its declarations first, then its name in its
    /// namespace, then its attributes. Without namespace processing, names and `xmlns`
    /// attributes are written as they are.
    func startElement(_ edit: ElementEdit, processesNamespaces: Bool) throws {
        var attributes: [(name: String, namespace: String?, value: String)] = []
        attributes.reserveCapacity(edit.namespaceDeclarations.count + edit.attributes.count)
        for declaration in edit.namespaceDeclarations {
            attributes.append((declaration.prefix.map { "xmlns:" + $0 } ?? "xmlns", nil, declaration.uri))
        }
        for attribute in edit.attributes {
            // An attribute in no namespace is written as named: `nil`, not `""`, which the
            // writer reads as a request to resolve a prefix.
            let namespace = processesNamespaces && attribute.prefix != nil ? attribute.namespaceURI : nil
            attributes.append((attribute.name, namespace, attribute.value))
        }
        // No namespace: an unprefixed name is in none (undeclaring a default namespace in
        // scope); a prefixed one takes what its prefix is bound to where it is written.
        let namespace = processesNamespaces ? edit.namespaceURI ?? (edit.name.contains(":") ? nil : "") : nil
        try startElement(edit.name, namespace: namespace, attributes: attributes)
    }
}

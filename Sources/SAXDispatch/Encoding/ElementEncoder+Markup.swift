/// Inner markup (``XMLInnerMarkup``) written as the elements and text it holds.
extension ElementEncoder: InnerMarkupEncoding {
    /// Parses `markup` as an element's content, names as written (its namespace
    /// declarations are attributes, written again as declarations), and adds its elements
    /// and text where the slot says; in an attribute or the text, it is text.
    ///
    /// - Throws: `EncodingError.invalidValue` when the markup does not parse.
    func encodeInnerMarkup(_ markup: String) throws {
        guard let target = valueElement() else {
            writeText(markup)
            return
        }
        var open = [target]
        var dispatcher = Dispatcher()
        dispatcher.processesNamespaces = false
        dispatcher.onAnyStart { element in
            guard element.depth > 1, let parent = open.last else { return }
            let child = parent.appendChild(EncodedElement.Name(name: element.name, namespace: nil))
            for attribute in element.attributes {
                child.setAttribute(EncodedElement.Name(name: attribute.name, namespace: nil), attribute.value)
            }
            open.append(child)
        }
        dispatcher.onAnyText { _, chunk in open.last?.appendText(chunk.string) }
        dispatcher.onAnyEnd { element in if element.depth > 1 { open.removeLast() } }
        do {
            try dispatcher.parse(.string("<_>" + markup + "</_>"))
        } catch {
            throw EncodingError.invalidValue(
                markup,
                EncodingError.Context(codingPath: codingPath, debugDescription: "inner markup that does not parse", underlyingError: error))
        }
    }
}

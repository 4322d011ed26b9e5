/// An element's whole text and inner markup for `Decodable` (``XMLStringValue``,
/// ``XMLInnerMarkup``): what the capture gathered while the element streamed past, since a
/// decoder reads the subtree only after its end.
extension ElementDecoder: ElementContentSource {
    /// The whole text of the value, gathered while its element streamed past.
    func decodeWholeText() throws -> String {
        try content(XMLStringValue.self, "whole text") { $0.wholeText(in: $1) }
    }

    /// The inner markup of the value, written while its element streamed past.
    func decodeInnerMarkup() throws -> String {
        try content(XMLInnerMarkup.self, "inner markup") { $0.innerMarkup(in: $1) }
    }

    /// What `read` finds of the value's element, gathered while it streamed past: the
    /// element's own for its text key, whose value is its own text.
    private func content<T>(
        _ type: T.Type, _ what: String, _ read: (DecodedValue, CapturedSubtree) -> String?
    ) throws -> String {
        var value = self.value
        if case .key(let key) = step, session.lookup(key) == .text { value = .element(owner, mayBeWrapper: false) }
        if case .absent = value { throw missingKey() }
        if isMarkedNil { throw markedNil(T.self) }
        if let content = read(value, session.subtree) { return content }
        let name = MessageText.name(session.subtree.elements[owner].name)
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription:
                    "\(session.location(of: owner)): the \(what) of <\(name)> at \(session.elementPath(codingPath))"
                    + " was not gathered: the decoder finds the elements read whole by probing the type before"
                    + " decoding (keyPruning = .probe), and the probe did not reach this one (decoding \(session.typeName))"))
    }
}

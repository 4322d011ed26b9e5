/// A decoder that can give the whole text (``XMLStringValue``) and the inner markup
/// (``XMLInnerMarkup``) of the element it decodes: the decoder over a captured subtree,
/// and the probe, which notes that the element is read so.
protocol ElementContentSource {
    func decodeWholeText() throws -> String
    func decodeInnerMarkup() throws -> String
}

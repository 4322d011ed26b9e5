/// An element whose fate a condition decides once it has been read
/// (``XMLTransform/keep(_:if:)``, ``XMLTransform/drop(_:if:)``): its name, its attributes,
/// and the text of its child elements.
///
/// ```swift
/// transform.keep("page") { page in page.childText("ns") == "0" }
/// ```
public struct HeldElement: Sendable {
    /// The element's name as written.
    public let name: String
    /// Its attributes as written, name to value.
    public let attributes: [String: String]
    /// Each child element's own text, white space trimmed, by name as written; the first of
    /// several with one name.
    var childTexts: [String: String] = [:]
    /// The same by local name, for names written with a prefix.
    var childTextsByLocalName: [String: String] = [:]

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// The text of the first child element named `name` (as written, or its local name),
    /// white space trimmed; `nil` when it has no such child.
    public func childText(_ name: String) -> String? {
        childTexts[name] ?? childTextsByLocalName[name]
    }

    /// Records a child's text, the first of each name.
    mutating func addChild(name: String, localName: String, text: String) {
        if childTexts[name] == nil { childTexts[name] = text }
        if childTextsByLocalName[localName] == nil { childTextsByLocalName[localName] = text }
    }
}

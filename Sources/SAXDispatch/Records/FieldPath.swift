/// A record field's path, split into the element it names (relative to the record)
/// and the attribute it reads, if any.
///
/// `.` is the record element, `kind` and `nested_nonsense/name` are child paths, `//name`
/// is a `name` anywhere inside the record, `@href` the record element's attribute and
/// `link/@href` a child's. Element steps may carry attribute tests (`link[@rel='self']`).
struct FieldPath: Sendable {
    /// The path as declared, for messages.
    let text: String
    /// The element as a pattern relative to the record element (see
    /// ``Dispatcher/mount(_:at:)``); `nil` for the record element itself.
    let element: ElementPattern?
    /// The element steps as written, for messages (`facilities/toilet`); empty for the record element.
    let elementText: String
    /// The attribute the field reads, or `nil` for the element's text.
    let attribute: String?
    /// The name of the first step below the record, or `nil` when the path can start
    /// anywhere (`//`, `*`): which children of the record may hold the field.
    let firstStep: String?
    /// How many levels below the record the field's element lies; `Int.max` when any.
    let depth: Int

    /// - Precondition: `text` is a valid field path; a path is part of the program, like a pattern literal.
    init(_ text: String) {
        self.text = text
        var elementPart = text
        var attribute: String?
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if let last = parts.last, last.hasPrefix("@") {
            attribute = String(last.dropFirst())
            elementPart = parts.dropLast().joined(separator: "/")
        }
        if elementPart.hasPrefix("./") { elementPart.removeFirst(2) }
        precondition(attribute.map { !$0.isEmpty && !$0.contains("/") } ?? true, "invalid field path \(text.debugDescription): empty attribute name")
        self.attribute = attribute
        guard elementPart != "." && !elementPart.isEmpty else {
            element = nil
            elementText = ""
            firstStep = nil
            depth = 0
            return
        }
        let anywhere = elementPart.hasPrefix("//")
        let relative = anywhere ? String(elementPart.dropFirst(2)) : elementPart
        precondition(!relative.hasPrefix("/"), "invalid field path \(text.debugDescription): paths are relative to the record")
        let pattern: ElementPattern
        do {
            pattern = try ElementPattern(anywhere ? relative : "/" + relative)
        } catch {
            preconditionFailure("invalid field path \(text.debugDescription): \(error)")
        }
        element = pattern
        elementText = relative
        let steps = pattern.steps
        let floating = anywhere || steps.contains { $0.followsDescendantAxis }
        firstStep = anywhere ? nil : steps.first?.name
        depth = floating ? Int.max : steps.count
    }

    /// The path of the field's element (and attribute) below a record at `recordPath`, for messages.
    func elementPath(below recordPath: ElementPath) -> ElementPath {
        var components = recordPath.components
        if !elementText.isEmpty { components += elementText.split(separator: "/", omittingEmptySubsequences: true).map(String.init) }
        if let attribute { components.append("@" + attribute) }
        return ElementPath(components)
    }
}

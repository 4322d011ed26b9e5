/// Where a record field is, relative to the record's element: the element it names and
/// the attribute it reads, if any.
///
/// `.` is the record element, `kind` and `nested_nonsense/name` are child paths, `//name`
/// is a `name` anywhere inside the record, `@href` the record element's attribute and
/// `link/@href` a child's. Element steps may carry attribute tests (`link[@rel='self']`).
///
/// Field constructors take paths as strings, and an invalid path there is a programming
/// error that traps: only a literal written in code traps. A path that comes from input (a
/// command line, a configuration file) is checked with the throwing initializer first:
///
/// ```swift
/// let path = try RecordFieldPath(userText)      // XMLPatternError if it is not a valid path
/// let field = RecordField.text(path.description)
/// ```
public struct RecordFieldPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path as declared.
    public let description: String
    /// The element as a pattern relative to the record element (see
    /// ``Dispatcher/mount(_:at:)``); `nil` for the record element itself.
    private(set) var element: ElementPattern?
    /// The element steps as written, for messages (`facilities/toilet`); empty for the record element.
    let elementText: String
    /// The attribute the field reads, or `nil` for the element's text.
    let attribute: String?
    /// The name of the first step below the record, or `nil` when the path can start
    /// anywhere (`//`, `*`): which children of the record may hold the field.
    let firstStep: String?
    /// How many levels below the record the field's element lies; `nil` when any (`//`).
    let depth: Int?

    /// The path as declared, for messages.
    var text: String { description }

    /// Reads `text` as a field path.
    ///
    /// - Throws: ``XMLPatternError`` saying what is wrong: an absolute path, an empty
    ///   attribute name, or an element part that is not a valid ``ElementPattern``.
    public init(_ text: String) throws(XMLPatternError) {
        description = text
        var elementPart = text
        var attribute: String?
        let parts = QualifiedName.pathComponents(text)
        if let last = parts.last, last.hasPrefix("@") {
            attribute = String(last.dropFirst())
            elementPart = parts.dropLast().joined(separator: "/")
        }
        if elementPart.hasPrefix("./") { elementPart.removeFirst(2) }
        if let attribute, attribute.isEmpty || attribute.contains(where: { "[]=' \"".contains($0) })
            || (attribute.hasPrefix("{") && QualifiedName.clark(attribute) == nil)
        {
            throw XMLPatternError(.fieldPath, text: text, message: "'@' must be followed by an attribute name")
        }
        self.attribute = attribute
        guard elementPart != "." && !elementPart.isEmpty else {
            if text.isEmpty { throw XMLPatternError(.fieldPath, text: text, message: "the path is empty; use '.' for the record element") }
            element = nil
            elementText = ""
            firstStep = nil
            depth = 0
            return
        }
        let anywhere = elementPart.hasPrefix("//")
        let relative = anywhere ? String(elementPart.dropFirst(2)) : elementPart
        if relative.hasPrefix("/") {
            throw XMLPatternError(.fieldPath, text: text, message: "paths are relative to the record; drop the leading '/'")
        }
        let pattern: ElementPattern
        do {
            pattern = try ElementPattern(anywhere ? relative : "/" + relative)
        } catch {
            throw XMLPatternError(.fieldPath, text: text, message: error.message)
        }
        element = pattern
        elementText = relative
        let steps = pattern.steps
        let floating = anywhere || steps.contains { $0.followsDescendantAxis }
        firstStep = anywhere ? nil : steps.first?.name
        depth = floating ? nil : steps.count
    }

    /// Reads a literal path; an invalid literal is a programming error and stops the
    /// program, in every build configuration, with the ``XMLPatternError`` message.
    public init(stringLiteral text: String) {
        do {
            try self.init(text)
        } catch {
            stopForInvalidLiteral(
                error, literal: "the string literal \(text.debugDescription) is not a RecordFieldPath",
                initializer: "try RecordFieldPath(_:)")
        }
    }

    public static func == (lhs: RecordFieldPath, rhs: RecordFieldPath) -> Bool { lhs.description == rhs.description }

    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// This path with its unprefixed element names matching their local names in any
    /// namespace (``XMLRecord/matchingAnyNamespace()``); the attribute, which an unprefixed
    /// name puts in no namespace, stays as it is.
    func matchingUnprefixedNamesInAnyNamespace() -> RecordFieldPath {
        var copy = self
        copy.element = element?.matchingUnprefixedNamesInAnyNamespace()
        return copy
    }

    /// The path of the field's element (and attribute) below a record at `recordPath`, for
    /// messages. A `//` stays in it (an empty component): `r/item//n`, not `r/item/n`, which
    /// would name an element the value need not have come from.
    ///
    /// Error paths spell elements as the document wrote them where the error knows the
    /// element: `written`, the name of the field's element in the document, replaces the
    /// path's last step (`a:n` for `atom:n` or `{uri}n`). The steps above it keep the
    /// path's spelling: the error does not know their elements' names, and a prefix the
    /// document gave the field's element says nothing about theirs (`<x:a><y:b>`, both in
    /// one namespace).
    func elementPath(below recordPath: ElementPath, writtenAs written: String? = nil) -> ElementPath {
        var components = recordPath.components
        if !elementText.isEmpty {
            // `elementText` is the path without a leading `//`, which the pattern remembers.
            if element?.isAnchored == false { components.append("") }
            var steps = QualifiedName.pathComponents(elementText).map(String.init)
            if let written, !steps.isEmpty { steps[steps.count - 1] = written }
            components += steps
        }
        if let attribute { components.append("@" + attribute) }
        return ElementPath(components)
    }
}

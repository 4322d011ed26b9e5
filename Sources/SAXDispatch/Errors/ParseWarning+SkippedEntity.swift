/// The warnings of ``UndeclaredEntityPolicy/skipWithWarning``.
extension ParseWarning {
    /// References to an entity the document does not declare where it is read, left out.
    static func skippedEntity(_ name: String, count: Int, line: Int, column: Int) -> ParseWarning {
        let references = count == 1 ? "its reference was" : "its \(count) references were"
        return ParseWarning(
            code: .skippedEntity,
            message: "entity &\(MessageText.name(name)); is not declared in the document (a declaration in an external"
                + " DTD or after a parameter entity reference is not read): \(references) left out, the first at line"
                + " \(line), column \(column)")
    }

    /// References to undeclared entities beyond those named one by one, left out.
    static func skippedEntities(otherReferences: Int) -> ParseWarning {
        ParseWarning(
            code: .skippedEntity,
            message: "\(otherReferences) more references to other entities that the document does not declare"
                + " were left out")
    }
}

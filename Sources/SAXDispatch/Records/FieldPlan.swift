/// Compiled once per model: one field of a record with its value type erased — its path,
/// what to capture there, and which ``FieldReader`` kind reads it. Made when a
/// ``RecordField`` is declared (and completed when it joins its record's
/// ``BuildArgumentLayout``); read by ``RecordAssembler`` to mount the field's handlers, by
/// ``FieldPathTree`` for pruning, and by ``FieldReadContext`` to name the field in failures.
struct FieldPlan: Sendable {
    enum Capture: Sendable {
        /// The first occurrence's text (whitespace shaped as given) or attribute value.
        case text(WhitespacePolicy)
        /// Every occurrence's text or attribute value.
        case items(WhitespacePolicy)
        /// Nested records built from the elements at the path: the first, or every one.
        case record(RecordPlan)
        case records(RecordPlan)
        /// Nothing: the field reads where the record element is (``RecordField/byteOffset``).
        case position
    }

    var path: RecordFieldPath
    var capture: Capture
    /// Which of an element's content a text field reads: its own text, its whole text or
    /// its inner markup. Attribute and nested-record fields read no element content.
    var content = ElementContent.ownText
    /// The name given with ``RecordField/named(_:)``.
    var name: String?
    /// How the field is read (set when the field joins its record's layout): a single
    /// attribute field of a standard number or `Bool` kind converts its value as it reads it.
    var readerKind = FieldReader.Kind.closure

    var displayName: String { name ?? path.text }
}

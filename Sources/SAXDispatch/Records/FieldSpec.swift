/// What a field captures while its record is open, with its type erased: the part of a
/// ``RecordField`` the streaming side needs.
struct FieldSpec: Sendable {
    enum Capture: Sendable {
        /// The first occurrence's text (whitespace shaped as given) or attribute value.
        case text(WhitespacePolicy)
        /// Every occurrence's text or attribute value.
        case items(WhitespacePolicy)
        /// Nested records built from the elements at the path: the first, or every one.
        case record(RecordNode)
        case records(RecordNode)
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

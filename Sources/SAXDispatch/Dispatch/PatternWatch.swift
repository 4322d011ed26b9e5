/// A pattern whose matching nothing is worth a ``ParseWarning`` at the end of a parse:
/// what registered it (a handler, a record, a record's field, a decoder) and how to name
/// it in the warning.
///
/// Every pattern registered for handlers has one. Clients that register handlers for
/// their own purposes say what the pattern is to their user (``Dispatcher/labelWatch(of:role:text:parent:)``).
struct PatternWatch: Sendable {
    enum Role: Sendable {
        /// A handler's pattern.
        case pattern
        /// A record's pattern (``XMLRecord``).
        case record
        /// A record field's element path, relative to its record (``parent``).
        case field
        /// The pattern of the elements a decoder decodes (``XMLRecordDecoder``).
        case decoded
        /// A pattern whose matching nothing is not worth a warning (a client's internal handler).
        case unwatched
    }

    /// The pattern as registered in the dispatcher that holds the watch (mounted where
    /// its set was mounted).
    var pattern: ElementPattern
    var role: Role
    /// How the warning names the pattern (a field's path as written, relative to its
    /// record); `nil` for the pattern's own spelling.
    var text: String?
    /// The watch this one lies inside (a field's record): a watch whose parent matched
    /// nothing is not reported, as its parent is.
    var parent: Int?

    /// How the warning names the pattern.
    var displayText: String { text ?? pattern.description }
}

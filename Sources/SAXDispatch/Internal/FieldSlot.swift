/// Where a field's value was found: its element's start tag.
struct FieldOccurrence {
    var line: Int
    var column: Int
}

/// One occurrence of a repeated field: its text (or attribute value) once its element
/// ended, or `nil` while it is open or when it was marked nil.
struct FieldItem {
    var text: String?
    var isNil: Bool
    var occurrence: FieldOccurrence
    /// The element's depth while its text is awaited; 0 once complete.
    var openDepth: Int
}

/// What one field of an open record has captured so far.
enum FieldSlot {
    case empty
    /// The field's element started; its text comes at its end.
    case pending(FieldOccurrence, isNil: Bool, depth: Int)
    /// Text or an attribute value (the first occurrence: later ones are ignored).
    case text(String, FieldOccurrence)
    /// The element was there, marked `nil="nil"` or `xsi:nil="true"`.
    case markedNil(FieldOccurrence)
    /// Every occurrence of a repeated text or attribute field, in document order.
    case items([FieldItem])
    /// Nested records, built, in document order.
    case records([Any])
}

/// What a field's extraction knows about the record it belongs to, to build failures.
struct FieldSite {
    let recordName: String
    /// The record element, open: its path is computed only for a failure.
    let recordContext: ElementContext
    let recordOccurrence: FieldOccurrence
    let fieldName: String
    let path: FieldPath

    func failure(_ reason: FieldFailure.Reason, at occurrence: FieldOccurrence?) -> FieldFailure {
        let place = occurrence ?? recordOccurrence
        let recordPath = recordContext.path
        return FieldFailure(
            reason: reason, recordName: recordName, fieldName: fieldName, fieldPath: path.text,
            elementPath: occurrence == nil ? recordPath : path.elementPath(below: recordPath), line: place.line,
            column: place.column)
    }

    /// Converts one text, or fails naming it, its type and its place.
    func convert<Value>(_ text: String, at occurrence: FieldOccurrence, _ parse: (String) throws -> Value)
        -> Result<Value, FieldFailures>
    {
        do {
            return .success(try parse(text))
        } catch {
            let reason = FieldFailure.Reason.conversion(
                text: text, type: String(describing: Value.self), underlying: error)
            return .failure(FieldFailures([failure(reason, at: occurrence)]))
        }
    }
}

/// The failures of one field (several for a repeated field).
struct FieldFailures: Error {
    var failures: [FieldFailure]

    init(_ failures: [FieldFailure]) {
        self.failures = failures
    }
}

/// A record definition with its model type erased: what the streaming side walks.
struct RecordNode: Sendable {
    /// What to do with a record that fails, with the replacement model erased.
    enum FailurePolicy: Sendable {
        case fail
        case skip
        case replace(any Sendable)
    }

    var name: String
    var pattern: ElementPattern
    var fields: [FieldSpec]
    var policy: FailurePolicy = .fail
    /// Builds the model from the captured slots (one per field), or reports every failure.
    let assemble: @Sendable (_ slots: [FieldSlot], _ record: RecordSite) -> Result<Any, FieldFailures>
}

/// The record element an assembly is for, valid while it is open (in its end handler).
struct RecordSite {
    let name: String
    let context: ElementContext
    let occurrence: FieldOccurrence
}

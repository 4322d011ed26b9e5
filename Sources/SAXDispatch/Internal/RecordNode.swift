/// A record definition with its model type erased: what the streaming side walks.
///
/// Models travel through memory rather than as `Any`: a finished record builds its model
/// into a temporary buffer (``modelSize`` bytes), from which the handler moves it out
/// typed. Only a nested record's models are boxed, to wait in their parent's field.
struct RecordNode: Sendable {
    /// What to do with a record that fails.
    enum FailurePolicy: Sendable {
        case fail
        case skip
        /// Initializes the given memory with a copy of the replacement model.
        case replace(@Sendable (_ out: UnsafeMutableRawPointer) -> Void)
    }

    var name: String
    var pattern: ElementPattern
    var fields: [FieldSpec]
    var policy: FailurePolicy = .fail
    /// The model's size and alignment in memory.
    let modelSize: Int
    let modelAlignment: Int
    /// Builds the model from the captured slots (one per field) into `out`, uninitialized
    /// memory for it; or returns every failure and leaves `out` uninitialized.
    let assemble: @Sendable (_ slots: [FieldSlot], _ record: RecordSite, _ out: UnsafeMutableRawPointer) -> FieldFailures?
    /// Moves the model out of `model`'s memory into a box.
    let box: @Sendable (_ model: UnsafeMutableRawPointer) -> Any
}

/// The record element an assembly is for, valid while it is open (in its end handler).
struct RecordSite {
    let name: String
    let context: ElementContext
    let occurrence: FieldOccurrence
}

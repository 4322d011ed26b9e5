/// Compiled once per model: a record definition with its model type erased — pattern,
/// ``FieldPlan``s, limits, failure policy and the closure that assembles the model. Made
/// by the ``XMLRecord`` initializers (and its modifiers); read by ``RecordAssembler``,
/// which mounts one handler set per plan and calls ``assemble`` at each record's end.
///
/// Models travel through memory rather than as `Any`: a finished record builds its model
/// into a temporary buffer (``modelSize`` bytes), from which the handler moves it out
/// typed. Only a nested record's models are boxed, to wait in their parent's field.
struct RecordPlan: Sendable {
    /// What to do with a record that fails.
    enum FailurePolicy: Sendable {
        case fail
        case skip
        /// Initializes the given memory with a copy of the replacement model.
        case replace(@Sendable (_ out: UnsafeMutableRawPointer) -> Void)
    }

    var name: String
    var pattern: ElementPattern
    var fields: [FieldPlan]
    var policy: FailurePolicy = .fail
    /// The most bytes one record's lists may hold, its nested records' included
    /// (``XMLRecord/maximumRecordBytes(_:)``).
    var maximumBytes = RecordPlan.defaultMaximumBytes
    static let defaultMaximumBytes = 16 << 20
    /// The prefixes the record's pattern and field paths may use (``XMLRecord/namespaces(_:)``);
    /// records nested in it inherit them.
    var namespaces = NamespaceBindings()
    /// Whether a parse of this record on its own processes namespaces (``XMLRecord/processingNamespaces(_:)``).
    var processesNamespaces = true
    /// Whether unprefixed names in the pattern and field paths match their local names in
    /// any namespace (``XMLRecord/matchingAnyNamespace()``).
    var matchesAnyNamespace = false
    /// For a root record: deliver only the records whose start tag's `<` is at one of these
    /// offsets of the document (``XMLRecord/forEach(in:startingIn:framingFrom:safety:diagnostics:_:)``);
    /// the others are neither built nor reported.
    var byteOffsets: Range<Int>?
    /// The model's size and alignment in memory.
    let modelSize: Int
    let modelAlignment: Int
    /// Builds the model from the captured slots (one per field, taken: each is left
    /// `.empty`) into `out`, uninitialized memory for it; or returns every failure and
    /// leaves `out` uninitialized.
    typealias Assemble = @Sendable (
        _ slots: inout [CapturedField], _ record: RecordReadContext, _ out: UnsafeMutableRawPointer
    ) -> FieldFailures?

    let assemble: Assemble
    /// Moves the model out of `model`'s memory into a box.
    let box: @Sendable (_ model: UnsafeMutableRawPointer) -> Any
}

extension RecordPlan {
    /// This record with its unprefixed element names, and those of the records nested in
    /// it, matching their local names in any namespace.
    func matchingUnprefixedNamesInAnyNamespace() -> RecordPlan {
        var node = self
        node.matchesAnyNamespace = true
        node.pattern = pattern.matchingUnprefixedNamesInAnyNamespace()
        node.fields = fields.map { plan in
            var plan = plan
            plan.path = plan.path.matchingUnprefixedNamesInAnyNamespace()
            switch plan.capture {
            case .record(let nested): plan.capture = .record(nested.matchingUnprefixedNamesInAnyNamespace())
            case .records(let nested): plan.capture = .records(nested.matchingUnprefixedNamesInAnyNamespace())
            case .text, .items, .position: break
            }
            return plan
        }
        return node
    }
}

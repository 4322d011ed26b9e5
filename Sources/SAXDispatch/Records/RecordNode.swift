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
    /// The most bytes one record's lists may hold, its nested records' included
    /// (``XMLRecord/maximumRecordBytes(_:)``).
    var maximumBytes = RecordNode.defaultMaximumBytes
    static let defaultMaximumBytes = 16 << 20
    /// The prefixes the record's pattern and field paths may use (``XMLRecord/namespaces(_:)``);
    /// records nested in it inherit them.
    var namespaces = NamespaceBindings()
    /// Whether a parse of this record on its own processes namespaces (``XMLRecord/processingNamespaces(_:)``).
    var processesNamespaces = true
    /// Whether unprefixed names in the pattern and field paths match their local names in
    /// any namespace (``XMLRecord/matchingAnyNamespace()``).
    var matchesAnyNamespace = false
    /// The model's size and alignment in memory.
    let modelSize: Int
    let modelAlignment: Int
    /// Builds the model from the captured slots (one per field, taken: each is left
    /// `.empty`) into `out`, uninitialized memory for it; or returns every failure and
    /// leaves `out` uninitialized.
    typealias Assemble = @Sendable (
        _ slots: inout [FieldSlot], _ record: RecordSite, _ out: UnsafeMutableRawPointer
    ) -> FieldFailures?

    let assemble: Assemble
    /// Moves the model out of `model`'s memory into a box.
    let box: @Sendable (_ model: UnsafeMutableRawPointer) -> Any
}

extension RecordNode {
    /// This record with its unprefixed element names, and those of the records nested in
    /// it, matching their local names in any namespace.
    func matchingUnprefixedNamesInAnyNamespace() -> RecordNode {
        var node = self
        node.matchesAnyNamespace = true
        node.pattern = pattern.matchingUnprefixedNamesInAnyNamespace()
        node.fields = fields.map { spec in
            var spec = spec
            spec.path = spec.path.matchingUnprefixedNamesInAnyNamespace()
            switch spec.capture {
            case .record(let nested): spec.capture = .record(nested.matchingUnprefixedNamesInAnyNamespace())
            case .records(let nested): spec.capture = .records(nested.matchingUnprefixedNamesInAnyNamespace())
            case .text, .items: break
            }
            return spec
        }
        return node
    }
}

/// The record element an assembly is for, valid while it is open (in its end handler).
///
/// It is made for every record and read only when a field fails, so it holds the engine
/// without retaining it (the end handler's context keeps the engine alive meanwhile).
struct RecordSite {
    let name: String
    let occurrence: FieldOccurrence
    private unowned(unsafe) let engine: DispatchEngine
    private let nameID: Int32
    private let serial: UInt64
    private let depth: Int

    init(name: String, context: ElementContext, occurrence: FieldOccurrence) {
        self.name = name
        self.occurrence = occurrence
        engine = context.engine
        nameID = context.nameID
        serial = context.serial
        depth = context.depth
    }

    /// The record element's context.
    var context: ElementContext {
        ElementContext(engine: engine, nameID: nameID, serial: serial, depth: depth)
    }
}

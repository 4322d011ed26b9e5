/// Compiled once per model, run at each record's end: where the build closure's arguments
/// (the record's field values) lie in one buffer, and how each is read from its
/// ``CapturedField`` by its ``FieldReader``, moved out and, on failure, destroyed. Made by
/// the ``XMLRecord`` initializers from the fields; its ``readFields(_:_:_:)`` runs inside
/// the record plan's assemble closure.
///
/// A record's fields have different types (`String`, `Int`, a nested model). Rather than
/// passing each value back as an `Optional` or a `Result` — which, in the generic code that
/// assembles a record, costs a runtime metadata lookup per field per record — each field
/// writes its value into a slot of one temporary buffer, and the build closure's arguments
/// are moved out of it. Generic code touches only the field types themselves, whose
/// metadata the record already has.
struct BuildArgumentLayout: Sendable {
    /// The fields' plans, in field order, shared with every record's ``FieldReadContext``.
    private(set) var planList = FieldPlanList([])
    private var offsets: [Int] = []
    /// Per field, how it is read (each plan's `readerKind`, kept dense here for the loop over
    /// the fields); the closures of the fields that a ``FieldReader/Kind/closure`` reads
    /// (`nil` for the others: the loop copies no closure for them).
    private var readerKinds: [FieldReader.Kind] = []
    private var readerClosures: [FieldReader.Closure?] = []
    private var destroyers: [@Sendable (UnsafeMutableRawPointer) -> Void] = []
    private var size = 0
    private var alignment = 1

    /// Adds a field after the others.
    mutating func append<Value>(_ field: RecordField<Value>) {
        let fieldAlignment = MemoryLayout<Value>.alignment
        let offset = (size + fieldAlignment - 1) / fieldAlignment * fieldAlignment
        offsets.append(offset)
        size = offset + MemoryLayout<Value>.size
        alignment = max(alignment, fieldAlignment)
        var plan = field.plan
        plan.readerKind = field.reader.kind
        planList = FieldPlanList(planList.plans + [plan])
        readerKinds.append(field.reader.kind)
        readerClosures.append(field.reader.closure)
        destroyers.append { $0.assumingMemoryBound(to: Value.self).deinitialize(count: 1) }
    }

    /// Reads every field from its slot, taking the slot's contents (each slot is left
    /// `.empty`: a copy of it would cost a retain and a release per field). When all
    /// succeed, calls `body` with the values, and `body` must take each one out, in field
    /// order (``BuildArguments/take(_:)``); otherwise destroys the values that were read and
    /// returns every failure.
    func readFields(
        _ slots: inout [CapturedField], _ record: RecordReadContext, _ body: (inout BuildArguments) -> FieldFailures?
    ) -> FieldFailures? {
        withUnsafePointer(to: record) { record in
            withUnsafeTemporaryAllocation(byteCount: max(size, 1), alignment: alignment) { buffer in
                guard let base = buffer.baseAddress else { preconditionFailure("a temporary allocation of at least one byte has an address") }
                precondition(slots.count == readerKinds.count, "a record's slot array has one slot per field")
                var failures: [FieldFailure] = []
                // One site for all fields, pointed at each in turn, holding nothing: copies
                // of the record's parts per field would cost a retain each.
                var site = FieldReadContext(record: record, plans: planList, index: 0)
                for index in readerKinds.indices {
                    let out = base + offsets[index]
                    site.index = index
                    var slot = CapturedField.empty
                    swap(&slot, &slots[index])
                    let kind = readerKinds[index]
                    let failed =
                        if kind == .closure, let read = readerClosures[index] {
                            read(slot, site, out)
                        } else {
                            FieldReader.read(kind, consume slot, site, into: out)
                        }
                    if let failed {
                        add(failed, of: site, to: &failures, base)
                    } else if _slowPath(!failures.isEmpty) {
                        destroyers[index](out)
                    }
                }
                guard failures.isEmpty else { return FieldFailures(failures) }
                return offsets.withUnsafeBufferPointer { offsets in
                    var values = BuildArguments(base: base, offsets: offsets)
                    return body(&values)
                }
            }
        }
    }

    /// Adds the failures of the field `site` points at; at the first failing field, destroys
    /// the values read before it (the record will not be built).
    @inline(never)
    private func add(
        _ failed: FieldFailures, of site: FieldReadContext, to failures: inout [FieldFailure], _ base: UnsafeMutableRawPointer
    ) {
        if failures.isEmpty {
            for earlier in 0..<site.index { destroyers[earlier](base + offsets[earlier]) }
        }
        failures += failed.failures
        // A failure must name something, or the record would be built from unwritten memory.
        if failures.isEmpty { failures.append(site.failure(.missing, at: nil)) }
    }
}

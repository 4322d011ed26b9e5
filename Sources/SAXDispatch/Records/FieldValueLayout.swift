/// Where a record's field values are laid out while the record is assembled, and how
/// each is read, moved out and, on failure, destroyed.
///
/// A record's fields have different types (`String`, `Int`, a nested model). Rather than
/// passing each value back as an `Optional` or a `Result` — which, in the generic code that
/// assembles a record, costs a runtime metadata lookup per field per record — each field
/// writes its value into a slot of one temporary buffer, and the build closure's arguments
/// are moved out of it. Generic code touches only the field types themselves, whose
/// metadata the record already has.
struct FieldValueLayout: Sendable {
    private(set) var specs: [FieldSpec] = [] {
        didSet { specTable = FieldSpecTable(specs) }
    }
    private var specTable = FieldSpecTable([])
    private var offsets: [Int] = []
    /// Per field, how it is read (each spec's `readerKind`, kept dense here for the loop over
    /// the fields); the closures of the fields that a ``FieldReader/Kind/closure`` reads
    /// (`nil` for the others: the loop copies no closure for them).
    private var readerKinds: [FieldReader.Kind] = []
    private var readerClosures: [FieldExtract?] = []
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
        var spec = field.spec
        spec.readerKind = field.reader.kind
        specs.append(spec)
        readerKinds.append(field.reader.kind)
        readerClosures.append(field.reader.closure)
        destroyers.append { $0.assumingMemoryBound(to: Value.self).deinitialize(count: 1) }
    }

    /// Reads every field from its slot, taking the slot's contents (each slot is left
    /// `.empty`: a copy of it would cost a retain and a release per field). When all
    /// succeed, calls `body` with the values, and `body` must take each one out, in field
    /// order (``FieldValues/take(_:)``); otherwise destroys the values that were read and
    /// returns every failure.
    func extract(
        _ slots: inout [FieldSlot], _ record: RecordSite, _ body: (inout FieldValues) -> FieldFailures?
    ) -> FieldFailures? {
        withUnsafePointer(to: record) { record in
            withUnsafeTemporaryAllocation(byteCount: max(size, 1), alignment: alignment) { buffer in
                guard let base = buffer.baseAddress else { preconditionFailure("a temporary allocation of at least one byte has an address") }
                precondition(slots.count == readerKinds.count, "a record's slot array has one slot per field")
                var failures: [FieldFailure] = []
                // One site for all fields, pointed at each in turn, holding nothing: copies
                // of the record's parts per field would cost a retain each.
                var site = FieldSite(record: record, specs: specTable, index: 0)
                for index in readerKinds.indices {
                    let out = base + offsets[index]
                    site.index = index
                    var slot = FieldSlot.empty
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
                    var values = FieldValues(base: base, offsets: offsets)
                    return body(&values)
                }
            }
        }
    }

    /// Adds the failures of the field `site` points at; at the first failing field, destroys
    /// the values read before it (the record will not be built).
    @inline(never)
    private func add(
        _ failed: FieldFailures, of site: FieldSite, to failures: inout [FieldFailure], _ base: UnsafeMutableRawPointer
    ) {
        if failures.isEmpty {
            for earlier in 0..<site.index { destroyers[earlier](base + offsets[earlier]) }
        }
        failures += failed.failures
        // A failure must name something, or the record would be built from unwritten memory.
        if failures.isEmpty { failures.append(site.failure(.missing, at: nil)) }
    }
}

/// The values of a record's fields, read into ``FieldValueLayout``'s buffer, for the
/// build closure to take out one by one in field order.
struct FieldValues {
    private let base: UnsafeMutableRawPointer
    private let offsets: UnsafeBufferPointer<Int>
    private var index = 0

    init(base: UnsafeMutableRawPointer, offsets: UnsafeBufferPointer<Int>) {
        self.base = base
        self.offsets = offsets
    }

    /// Moves the next field's value out; `type` must be that field's value type.
    @inline(__always)
    mutating func take<Value>(_ type: Value.Type) -> Value {
        defer { index += 1 }
        return (base + offsets[index]).assumingMemoryBound(to: Value.self).move()
    }
}

extension UnsafeMutableRawPointer {
    /// Initializes the memory here with one value of type `T`: what
    /// `initializeMemory(as:repeating:count: 1)` does, without the loop that generic code
    /// otherwise calls out of line for every field of every record.
    @inline(__always)
    func initialize<T>(as type: T.Type, to value: consuming T) {
        bindMemory(to: T.self, capacity: 1).initialize(to: value)
    }
}

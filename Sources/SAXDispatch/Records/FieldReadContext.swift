/// Conversion to the model: what a ``FieldReader`` knows about the record its field
/// belongs to, to convert text and to name a failure (its field, element path and place).
///
/// It is made for every record and pointed at each field in turn, and used only when a
/// field fails, so it refers to the record and the field declarations without holding
/// them: it is valid only during the record's assembly (``BuildArgumentLayout/readFields(_:_:_:)``),
/// which keeps both alive.
struct FieldReadContext {
    private let recordContext: UnsafePointer<RecordReadContext>
    unowned(unsafe) let plans: FieldPlanList
    var index: Int

    init(record: UnsafePointer<RecordReadContext>, plans: FieldPlanList, index: Int) {
        recordContext = record
        self.plans = plans
        self.index = index
    }

    var record: RecordReadContext { recordContext.pointee }
    var plan: FieldPlan { plans.plans[index] }

    func failure(_ reason: FieldFailure.Reason, at occurrence: CapturePosition?) -> FieldFailure {
        let place = occurrence ?? record.occurrence
        let context = record.context
        let recordPath = context.path
        let path = plan.path
        let written = occurrence.flatMap { $0.nameID >= 0 ? context.engine.names.string($0.nameID) : nil }
        return FieldFailure(
            reason: reason, recordName: record.name, fieldName: plan.displayName, fieldPath: path.text,
            elementPath: occurrence == nil ? recordPath : path.elementPath(below: recordPath, writtenAs: written),
            line: place.line, column: place.column)
    }

    /// Converts one text into `out` (uninitialized memory for a `Value`), or fails naming
    /// it, its type and its place and leaves `out` uninitialized.
    ///
    /// Generic code here touches only `Value` itself, never `Optional<Value>` or
    /// `Result<Value, …>`: those would cost a metadata lookup per field per record.
    func convert<Value>(
        _ text: String, at occurrence: CapturePosition, into out: UnsafeMutableRawPointer,
        _ parse: (String) throws -> Value
    ) -> FieldFailures? {
        do {
            out.initialize(as: Value.self, to: try parse(text))
            return nil
        } catch {
            return FieldFailures([conversionFailure(text, as: Value.self, error, at: occurrence)])
        }
    }

    /// The failure of `text` that did not convert to `type`.
    func conversionFailure(
        _ text: String, as type: Any.Type, _ error: any Error, at occurrence: CapturePosition
    ) -> FieldFailure {
        failure(.conversion(text: text, type: String(describing: type), underlying: error), at: occurrence)
    }
}

/// Conversion to the model: the record element a model is being built for, made by the
/// ``RecordAssembler`` at the element's end and valid while it is open (in its end
/// handler); ``FieldReadContext`` and the failure policy read it to name a failure.
///
/// It is made for every record and read only when a field fails, so it holds the engine
/// without retaining it (the end handler's context keeps the engine alive meanwhile).
struct RecordReadContext {
    let name: String
    let occurrence: CapturePosition
    private unowned(unsafe) let engine: DispatchEngine
    private let nameID: Int32
    private let serial: UInt64
    private let depth: Int

    init(name: String, context: ElementContext, occurrence: CapturePosition) {
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

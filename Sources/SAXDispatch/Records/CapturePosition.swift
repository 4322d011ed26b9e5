/// A per-record value: where a captured value was found — its element's start tag — kept
/// with it in its ``CapturedField`` (and with the open record itself), read only to place
/// a failure.
struct CapturePosition {
    var line: Int
    var column: Int
    /// The element's name in the parse's name table, for messages: error paths name it as
    /// the document wrote it. -1 when unknown.
    var nameID: Int32 = -1

    init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Where `element`'s start tag is (one lookup of its frame for both numbers).
    init(_ element: ElementContext) {
        let position = element.engine.position(depth: element.depth, serial: element.serial)
        self.init(line: position.line, column: position.column)
        nameID = element.nameID
    }
}

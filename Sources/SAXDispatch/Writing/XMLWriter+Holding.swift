/// Output held back until the caller knows whether it stays: an element written while
/// it is read, then kept or taken back whole once its end shows which
/// (``XMLTransform/keep(_:if:)``).
extension XMLWriter {
    /// Where a hold began: what the writer was then, to go back to.
    struct Hold {
        fileprivate let count: Int
        fileprivate let scope: NamespaceScope
        fileprivate let open: OpenElementStack.Snapshot
        fileprivate let attributes: [(uri: String, local: String, written: String)]
        fileprivate let isOpen: Bool
        fileprivate let state: State
        fileprivate let wasHolding: Bool
    }

    /// Begins holding what is written from here on in the buffer (holds nest).
    func beginHold() -> Hold {
        recordCopiedAttributes()
        defer { holdsBuffer = true }
        return Hold(
            count: buffer.count, scope: scope, open: open.snapshot(), attributes: startTagAttributes, isOpen: startTagIsOpen,
            state: state, wasHolding: holdsBuffer)
    }

    /// How many bytes are held since `hold` began.
    func heldBytes(since hold: Hold) -> Int { buffer.count - hold.count }

    /// Ends `hold`: what was written since stays when `keeps`, and is otherwise taken
    /// back with the names it declared, as if it had never been written.
    ///
    /// - Throws: ``XMLWriterError/Code/outputFailed`` when what was held reaches an output
    ///   that fails.
    func endHold(_ hold: Hold, keeps: Bool) throws {
        if !keeps { takeBack(hold) }
        holdsBuffer = hold.wasHolding
        try flushIfFull()
    }

    /// Drops what was written since `hold` began and the names it declared: the writer is
    /// as it was then, but for the hold itself, which goes on.
    func takeBack(_ hold: Hold) {
        buffer.truncate(to: hold.count)
        let abandoned = scope
        scope = hold.scope
        scope.continueGenerations(after: abandoned)
        open.restore(hold.open)
        startTagAttributes = hold.attributes
        startTagIsOpen = hold.isOpen
        state = hold.state
    }
}

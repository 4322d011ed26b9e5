/// Tells one parse from the next, for handler sets whose state belongs to a parse: what
/// a failed parse left open, or name ids interned in its name table.
///
/// A parse is known by its engine's name table, which is held: another parse's table
/// cannot then be mistaken for it at the same address, as an `ObjectIdentifier` could.
struct ParseIdentity {
    private var names: NameTable?

    /// Whether `engine` runs another parse than the one seen last; it becomes the one seen.
    mutating func isNew(_ engine: DispatchEngine) -> Bool {
        if names === engine.names { return false }
        names = engine.names
        return true
    }
}

/// Which children of an element a `Decodable` type reads, learned by ``KeyProbe``: the
/// capture keeps those and skips the rest.
///
/// A schema belongs to one decode of one type and is only changed by the thread that
/// runs that parse.
final class KeySchema {
    /// The children read, by element name, each with what it reads in turn.
    private(set) var children: [String: KeySchema] = [:]
    /// Children of other names are captured with this element's own schema: the element
    /// is read as a list whose wrapper children may have any name.
    var readsAnyChildAsItem = false
    /// Everything inside is captured: the type asked for `allKeys`, or its probe failed
    /// before it had asked for all it reads.
    var capturesEverything = false

    /// The schema of child `name`, created when first asked for.
    func child(_ name: String) -> KeySchema {
        if let existing = children[name] { return existing }
        let schema = KeySchema()
        children[name] = schema
        return schema
    }

    /// How a child called `name` is captured.
    func capture(ofChild name: String) -> ChildCapture {
        if capturesEverything { return .everything }
        if let schema = children[name] { return schema.capturesEverything ? .everything : .pruned(schema) }
        if readsAnyChildAsItem { return .pruned(self) }
        return .skipped
    }

    /// Whether a child called `name` is captured.
    func captures(_ name: String) -> Bool {
        capturesEverything || readsAnyChildAsItem || children[name] != nil
    }
}

/// How the capture treats one child element.
enum ChildCapture {
    /// Left out, with everything inside it.
    case skipped
    /// Captured with everything inside it.
    case everything
    /// Captured with the children this schema reads.
    case pruned(KeySchema)
}

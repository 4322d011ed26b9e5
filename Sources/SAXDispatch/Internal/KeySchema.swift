/// Which children of an element a `Decodable` type reads, learned by ``KeyProbe``: the
/// capture keeps those and skips the rest.
///
/// A schema belongs to one decode of one type and is only changed by the thread that
/// runs that parse.
///
/// A type reads a handful of names, so they are kept in arrays and compared in turn:
/// cheaper, per element captured, than hashing the name.
final class KeySchema {
    // Read per element captured, changed only by the probe and by what decodes learn,
    // never re-entrantly: no runtime exclusivity checks.
    /// The names of the children read, and what each reads in turn (same order).
    @exclusivity(unchecked) private(set) var childNames: [String] = []
    @exclusivity(unchecked) private(set) var childSchemas: [KeySchema] = []
    /// The attributes read, by name (a key that may name a child or an attribute is both),
    /// and those that say an element is nil.
    @exclusivity(unchecked) private(set) var attributes = AttributeNameSet(["nil", "xsi:nil"])
    /// Children of other names are captured with this element's own schema: the element
    /// is read as a list whose wrapper children may have any name.
    @exclusivity(unchecked) var readsAnyChildAsItem = false
    /// Everything inside is captured: the type asked for `allKeys`, or its probe failed
    /// before it had asked for all it reads.
    @exclusivity(unchecked) var capturesEverything = false
    /// The element's whole text is read (``XMLStringValue``): it is gathered while the
    /// element is open.
    @exclusivity(unchecked) var readsWholeText = false
    /// How many names decodes taught this schema after the probe
    /// (``DecodingSession/maximumLearnedNames``).
    @exclusivity(unchecked) var learnedNameCount = 0

    /// Whether this element or one below it is read whole.
    var readsWholeTextAnywhere: Bool {
        readsWholeText || childSchemas.contains { $0.readsWholeTextAnywhere }
    }

    /// The schema of child `name`, if it is read.
    func schema(ofChild name: String) -> KeySchema? {
        childNames.firstIndex(of: name).map { childSchemas[$0] }
    }

    /// The schema of child `name`, created when first asked for.
    func child(_ name: String) -> KeySchema {
        if let existing = schema(ofChild: name) { return existing }
        let schema = KeySchema()
        childNames.append(name)
        childSchemas.append(schema)
        return schema
    }

    /// Notes that attribute `name` is read.
    func readAttribute(_ name: String) {
        attributes.insert(name)
    }

    /// The index in ``attributes`` of the attribute name `cString` spells, if it is read.
    @inline(__always)
    func attributeIndex(of cString: UnsafePointer<CChar>) -> Int? {
        attributes.index(of: cString)
    }

    /// The name of attribute `index` of ``attributes``.
    func attributeName(at index: Int) -> String {
        attributes.names[index]
    }

    /// Whether attribute `name` is captured.
    func captures(attribute name: String) -> Bool {
        capturesEverything || attributes.contains(name)
    }

    /// How a child called `name` is captured.
    func capture(ofChild name: String) -> ChildCapture {
        if capturesEverything { return .everything }
        if let schema = schema(ofChild: name) { return schema.capturesEverything ? .everything : .pruned(schema) }
        if readsAnyChildAsItem { return .pruned(self) }
        return .skipped
    }

    /// Whether a child called `name` is captured.
    func captures(_ name: String) -> Bool {
        capturesEverything || readsAnyChildAsItem || childNames.contains(name)
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

/// Compiled once per decoded type, refined by decodes: which children and attributes of
/// an element a `Decodable` type reads, learned by ``KeyProbe`` (and by decodes that ask
/// for more). ``SubtreeCapture`` reads it per element to keep those and skip the rest.
///
/// A schema belongs to one decode of one type and is only changed by the thread that
/// runs that parse.
///
/// A type reads a handful of names, so they are kept in arrays and compared in turn:
/// cheaper, per element captured, than hashing the name.
final class KeySchema {
    // Read per element captured, changed only by the probe and by what decodes learn,
    // never re-entrantly: no runtime exclusivity checks.
    /// The names of the children read (``KeyName/key``), and what each reads in turn (same order).
    @exclusivity(unchecked) private(set) var childNames: [String] = []
    @exclusivity(unchecked) private(set) var childSchemas: [KeySchema] = []
    /// The children read by namespace URI and local name, with the index of their schema
    /// in ``childSchemas``: looked at only for an element in a namespace.
    @exclusivity(unchecked) private(set) var namespacedChildNames: [(namespace: String, local: String, index: Int)] = []
    /// The attributes read, by name (a key that may name a child or an attribute is both),
    /// and those that say an element is nil.
    let attributes: AttributeNameSet
    /// Children of other names are captured with this element's own schema: the element
    /// is read as a list whose wrapper children may have any name.
    @exclusivity(unchecked) var readsAnyChildAsItem = false {
        didSet { skippedChildren.removeAll() }
    }
    /// Everything inside is captured: the type asked for `allKeys`, or its probe failed
    /// before it had asked for all it reads.
    @exclusivity(unchecked) var capturesEverything = false {
        didSet { skippedChildren.removeAll() }
    }
    /// The children found left out so far, by name id: what must stay true is that every
    /// change that makes this schema capture more empties it (``child(_:)``,
    /// ``readsAnyChildAsItem``, ``capturesEverything``), as a decode may teach it a name
    /// between two elements.
    @exclusivity(unchecked) private var skippedChildren = SkippedChildNames()
    /// The element's whole text is read (``XMLStringValue``): it is gathered while the
    /// element is open.
    @exclusivity(unchecked) var readsWholeText = false
    /// The element's inner markup is read (``XMLInnerMarkup``): it is written while the
    /// element is open.
    @exclusivity(unchecked) var readsInnerMarkup = false
    /// How many names decodes taught this schema after the probe
    /// (``DecodingSession/maximumLearnedNames``).
    @exclusivity(unchecked) var learnedNameCount = 0
    /// Whether the document's names come resolved by namespace: which nil attributes there are to find.
    let processesNamespaces: Bool

    init(processesNamespaces: Bool) {
        self.processesNamespaces = processesNamespaces
        attributes = AttributeNameSet(
            KeyName.nilAttributes(processesNamespaces: processesNamespaces), processesNamespaces: processesNamespaces)
    }

    /// Whether this element or one below it is read whole or as markup.
    var readsContentAnywhere: Bool {
        readsContent || childSchemas.contains { $0.readsContentAnywhere }
    }

    /// Whether this element is read whole or as markup.
    var readsContent: Bool { readsWholeText || readsInnerMarkup }

    /// The schema of the children `name` reads, if it is read.
    func schema(ofChild name: KeyName) -> KeySchema? {
        childNames.firstIndex(of: name.key).map { childSchemas[$0] }
    }

    /// The schema of the children `name` reads, created when first asked for.
    func child(_ name: KeyName) -> KeySchema {
        if let existing = schema(ofChild: name) { return existing }
        let schema = KeySchema(processesNamespaces: processesNamespaces)
        if let (namespace, local) = name.namespaceAndLocalName {
            namespacedChildNames.append((String(namespace), String(local), childSchemas.count))
        }
        childNames.append(name.key)
        childSchemas.append(schema)
        skippedChildren.removeAll()
        return schema
    }

    /// Notes that attribute `name` is read.
    func readAttribute(_ name: KeyName) {
        attributes.insert(name)
    }

    /// Whether attribute `name` is captured.
    func captures(attribute name: KeyName) -> Bool {
        capturesEverything || attributes.contains(name)
    }

    /// How a child written `name` (`prefix:local` or `local`) in namespace `namespaceURI` is captured.
    func capture(ofChild name: String, namespaceURI: String?) -> ChildCapture {
        if capturesEverything { return .everything }
        var schema = childNames.firstIndex(of: name).map { childSchemas[$0] }
        if !namespacedChildNames.isEmpty, let namespaced = namespacedSchema(name, namespaceURI) {
            // Two keys read the child (`title` and `{uri}title`): what either reads is kept.
            if schema != nil { return .everything }
            schema = namespaced
        }
        if let schema { return schema.capturesEverything ? .everything : .pruned(schema) }
        if readsAnyChildAsItem { return .pruned(self) }
        return .skipped
    }

    /// Whether children whose name the parse's table interned as `id` are known to be left
    /// out (``capture(ofChild:namespaceURI:)`` said ``ChildCapture/skipped`` for them in
    /// `epoch`, and this schema has not changed since): then neither their name nor a
    /// lookup by name is needed.
    @inline(__always)
    func skipsChild(named id: Int32, in epoch: NameEpoch) -> Bool {
        skippedChildren.contains(id, in: epoch)
    }

    /// Notes that ``capture(ofChild:namespaceURI:)`` said ``ChildCapture/skipped`` for
    /// children whose name the parse's table interned as `id`, in `epoch`.
    func noteSkippedChild(named id: Int32, in epoch: NameEpoch) {
        skippedChildren.insert(id, in: epoch)
    }

    /// Whether some key reads children by namespace: only then does a child's namespace
    /// decide whether it is captured.
    @inline(__always)
    var readsChildrenByNamespace: Bool { !namespacedChildNames.isEmpty && !capturesEverything }

    /// The schema of the children a key reads that a child written `name` in namespace
    /// `namespaceURI` is, if any: by the name as written first, then by namespace.
    func schema(ofChildWritten name: String, namespaceURI: String?) -> KeySchema? {
        if let index = childNames.firstIndex(of: name) { return childSchemas[index] }
        return namespacedSchema(name, namespaceURI)
    }

    /// Whether a key reads children written `name` in namespace `namespaceURI`.
    func readsChild(_ name: String, namespaceURI: String?) -> Bool {
        if childNames.contains(name) { return true }
        return namespacedSchema(name, namespaceURI) != nil
    }

    /// The schema of the children read by namespace that a child written `name` in
    /// namespace `namespaceURI` (`nil`: none) is. A key's empty URI is a local name in any
    /// namespace or none (``KeyName/init(anyNamespace:)``).
    private func namespacedSchema(_ name: String, _ namespaceURI: String?) -> KeySchema? {
        for child in namespacedChildNames
        where (child.namespace.isEmpty || child.namespace == namespaceURI) && KeyName.hasLocalName(name, child.local) {
            return childSchemas[child.index]
        }
        return nil
    }

    /// Names as written (``KeyName/key``) whose children and attribute are both known to be
    /// captured (``captures(_:)``, ``captures(attribute:)``): what a schema captures only
    /// grows, so a name stays in it. A few at most: memory stays bounded whatever the keys.
    @exclusivity(unchecked) private var namesKnownCaptured: [String] = []
    static let maximumNamesKnownCaptured = 16

    /// Whether ``noteCaptures(childAndAttribute:)`` noted `key`, compared by its bits first
    /// (the key a type reads has the same bits at every element).
    @inline(__always)
    func isKnownToCapture(childAndAttribute key: String) -> Bool {
        for name in namesKnownCaptured where name.isStoredAlike(key) { return true }
        return false
    }

    /// Notes that children and the attribute named `key` (as written) are captured.
    func noteCaptures(childAndAttribute key: String) {
        guard namesKnownCaptured.count < Self.maximumNamesKnownCaptured else { return }
        namesKnownCaptured.append(key)
    }

    /// Whether the children `name` reads are captured.
    func captures(_ name: KeyName) -> Bool {
        capturesEverything || readsAnyChildAsItem || childNames.contains(name.key)
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

/// Compiled once per assembler from the root ``RecordPlan``, consulted while matching: the
/// elements below a record element that its fields, and the fields of the records
/// nested in it, can reach, as a tree of names. An element whose path from the record
/// element leaves the tree holds nothing the record reads, so it can be skipped with
/// everything inside it.
///
/// A field's element path adds its steps; a nested record's path adds its steps and then
/// the nested record's own fields below them, so a parent's field that passes through a
/// nested record's element (`a/b` next to a record at `a`) keeps what it needs. A step
/// that can be anything (`*`, `//`) keeps everything below where it starts. Attribute
/// tests are ignored: they can only keep more.
///
/// Names are compared as keys of one parse (``NameKeys``), looked up on first use in it:
/// a field's names are the patterns' names, resolved through the same bindings.
struct FieldPathTree {
    private struct Node {
        var children: [(name: String, namespace: String?, node: Int)] = []
        /// Everything below this element may be read.
        var keepsAll = false
    }

    private var nodes = [Node()]
    /// The parse whose name table the ids below belong to.
    private var parse = ParseIdentity()
    /// Per node, its children's keys in that parse, in the order of `children`.
    private var childKeys: [[Int32]] = []

    init(_ record: RecordPlan) {
        add(record, below: 0, inherited: NamespaceBindings())
    }

    /// Whether some field may read below the record element, so that anything is skipped at all.
    var rulesOutAnything: Bool { !nodes[0].keepsAll }

    private mutating func add(_ record: RecordPlan, below start: Int, inherited: NamespaceBindings) {
        let bindings = record.namespaces.inheriting(inherited)
        for field in record.fields {
            // A field reading an element's whole text or inner markup reads everything inside it.
            let readsSubtree = field.content != .ownText && field.path.attribute == nil
            guard let element = field.path.element?.resolvingPrefixes(bindings) else {
                if readsSubtree { nodes[start].keepsAll = true }
                continue
            }
            var node = start
            for (index, step) in element.steps.enumerated() {
                if nodes[node].keepsAll { break }
                // A path that starts anywhere (`//name`) or continues anywhere keeps it all.
                if step.followsDescendantAxis || (index == 0 && !element.isAnchored) {
                    nodes[node].keepsAll = true
                    break
                }
                guard let name = step.name else {
                    nodes[node].keepsAll = true
                    break
                }
                node = child(of: node, named: name, namespace: step.namespace)
            }
            switch field.capture {
            case .record(let nested), .records(let nested):
                if !nodes[node].keepsAll { add(nested, below: node, inherited: bindings) }
            case .text, .items, .position:
                if readsSubtree { nodes[node].keepsAll = true }
            }
        }
    }

    private mutating func child(of node: Int, named name: String, namespace: String?) -> Int {
        if let existing = nodes[node].children.first(where: { $0.name == name && $0.namespace == namespace }) {
            return existing.node
        }
        nodes.append(Node())
        nodes[node].children.append((name, namespace, nodes.count - 1))
        return nodes.count - 1
    }

    /// Whether the open element at stack index `top`, below the record element at index
    /// `recordIndex`, is on a path some field may read.
    mutating func reaches(top: Int, below recordIndex: Int, in engine: DispatchEngine) -> Bool {
        guard top > recordIndex else { return true }
        if parse.isNew(engine) { lookUpKeys(in: engine) }
        var node = 0
        for index in (recordIndex + 1)...top {
            if nodes[node].keepsAll { return true }
            let key = engine.stack[index].key
            let keys = childKeys[node]
            guard let position = keys.firstIndex(where: { engine.keys.accepts(key, $0) }) else { return false }
            // One element may be accepted by two children (`meta` and `*:meta`, or a name
            // and its namespaced spelling), each leading to other fields: following one
            // would hide the other's, so the element is taken as reaching a field.
            if keys[(position + 1)...].contains(where: { engine.keys.accepts(key, $0) }) { return true }
            node = nodes[node].children[position].node
        }
        return true
    }

    /// The keys of the children's names in the engine's parse, resolving the prefixes
    /// that the records left unbound through the dispatcher's bindings, as its patterns are.
    private mutating func lookUpKeys(in engine: DispatchEngine) {
        childKeys = nodes.map { node in
            node.children.map { child in
                engine.keys.key(
                    ofPatternName: child.name,
                    namespace: engine.namespaces.namespace(ofName: child.name, resolved: child.namespace))
            }
        }
    }
}

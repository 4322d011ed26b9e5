/// The general entities a document declared, as expat processed the declarations (a
/// declaration after an unread parameter entity reference is not processed, and expat
/// reports only the first declaration of a name), with the names each internal entity's
/// replacement text refers to.
///
/// The driver asks it whether an entity reference in an attribute value expands in full:
/// expat drops a reference to an undeclared entity from an attribute value without a word
/// when the document has an external subset or a parameter entity reference, also inside
/// the replacement text of an entity that is declared.
///
/// What must stay true: it holds no more than the names of the declared entities and of
/// the references in their replacement text, which the driver charges to expat's heap
/// budget (``declare(_:replacementText:)`` returns the bytes to charge).
struct DeclaredEntities {
    /// The names referenced in each declared entity's replacement text (none for an
    /// external or unparsed entity, which expat rejects in an attribute value itself).
    private var references: [String: [String]] = [:]
    /// Entities whose expansion was found to refer only to declared entities: declarations
    /// only ever add names, so a finding stays true.
    private var expandsInFull: Set<String> = []

    /// The entities XML predefines, which need no declaration.
    static let predefined: Set<String> = ["lt", "gt", "amp", "quot", "apos"]

    var isEmpty: Bool { references.isEmpty }

    /// Records a declaration, unless the name was declared before (the first one binds).
    /// - Parameter replacementText: The internal entity's replacement text in UTF-8 (as expat
    ///   reports it, character references already replaced), `nil` for an external one.
    /// - Returns: The bytes of names now held.
    mutating func declare(_ name: String, replacementText: UnsafeRawBufferPointer?) -> Int {
        guard references[name] == nil else { return 0 }
        var names: [String] = []
        if let replacementText { names = Self.referencedNames(in: replacementText) }
        references[name] = names
        return names.reduce(name.utf8.count) { $0 + $1.utf8.count }
    }

    /// Whether `name` is declared or predefined.
    func isDeclared(_ name: String) -> Bool {
        references[name] != nil || Self.predefined.contains(name)
    }

    /// The first undeclared name that a reference to `name` leads to, through the
    /// replacement texts of the entities it expands to; `nil` when it expands in full.
    /// Walks without recursion, each entity once: a cycle is expat's own error.
    mutating func undeclaredName(reachedFrom name: String) -> String? {
        if Self.predefined.contains(name) || expandsInFull.contains(name) { return nil }
        guard references[name] != nil else { return name }
        var visited: Set<String> = [name]
        var pending = [name]
        while let next = pending.popLast() {
            for referenced in references[next] ?? [] where !visited.contains(referenced) {
                if Self.predefined.contains(referenced) || expandsInFull.contains(referenced) { continue }
                guard references[referenced] != nil else { return referenced }
                visited.insert(referenced)
                pending.append(referenced)
            }
        }
        expandsInFull.formUnion(visited)
        return nil
    }

    /// The distinct names of the entity references (`&name;`, not `&#…;`) in UTF-8 text.
    static func referencedNames(in text: UnsafeRawBufferPointer) -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        var index = 0
        while index < text.count {
            guard text[index] == 0x26 else {
                index += 1
                continue
            }
            let start = index + 1
            var end = start
            while end < text.count && text[end] != 0x3B && text[end] != 0x26 && !isSpaceOrQuote(text[end]) { end += 1 }
            if end < text.count && text[end] == 0x3B && end > start && text[start] != 0x23 {
                let name = String(decoding: UnsafeRawBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
                if seen.insert(name).inserted { names.append(name) }
            }
            index = max(end, start)
        }
        return names
    }

    static func isSpaceOrQuote(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, 0x22, 0x27, 0x3C: true
        default: false
        }
    }
}

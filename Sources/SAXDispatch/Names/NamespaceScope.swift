/// The namespace bindings in scope where XML is being written, and the prefixes names get:
/// the one place that decides what a writer declares (``XMLWriter``, and the markup a
/// parse captures).
///
/// Bindings are kept outermost first, each element's after its ancestors': a prefix (`""`
/// for the default namespace) and its URI (`""` undeclares the default namespace). An
/// element's bindings begin at ``count`` when its start tag is written and are dropped by
/// ``end(at:)`` with its end tag.
///
/// What must stay true: a name written with a prefix is bound, where it is written, to the
/// URI it was given; `xml` is never declared and `xmlns` never bound; a prefix is declared
/// at most once on one element.
struct NamespaceScope {
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"

    /// A binding: where its prefix begins in ``text``, and how long its prefix and its URI
    /// (which follows the prefix) are.
    private struct Binding {
        var start: Int
        var prefixCount: Int
        var uriCount: Int
    }

    /// The bindings in scope, outermost first.
    private var entries: [Binding] = []
    /// The bindings' prefixes and URIs as UTF-8, one after another: a copied tag's
    /// declarations are bound from the bytes the parse reported, without a string made.
    /// The bytes past the last binding's are those of bindings dropped, written over by the
    /// next declaration.
    private var text: [UInt8] = []
    /// Names the bindings in scope: one generation is always the same bindings, so what a
    /// name was found bound to stays so while the generation is the same. A scope that drops
    /// an element's bindings returns to the generation it had before them, and declaring what
    /// was declared before on the same bindings gives the generation it gave then (when it
    /// is remembered): the elements of records that each declare the same namespaces meet
    /// the same few generations.
    private(set) var generation: UInt64 = 1
    /// Names the default namespace's binding alone, as ``generation`` names them all: an
    /// unprefixed name is bound as it was while this is the same. 1 while none is bound (or
    /// it is undeclared); one generation per URI remembered.
    private(set) var defaultNamespaceGeneration: UInt64 = 1
    /// The generation of the first `i` bindings, and their default namespace's, for each `i`
    /// up to ``count``.
    private var generations: [(all: UInt64, defaultNamespace: UInt64)] = [(1, 1)]
    /// The latest generation given: a new one is past it.
    private var latestGeneration: UInt64 = 1
    /// Generations given to declarations before, by the generation declared on.
    private var declarationGenerations = DeclarationGenerations()

    /// Where the next element's bindings begin.
    var count: Int { entries.count }

    /// The bindings in scope, outermost first, as strings.
    var bindings: [(prefix: String, uri: String)] { declared(from: 0) }

    /// The URI `prefix` (`""`: the default namespace) is bound to, `""` where the default
    /// namespace was undeclared, `nil` where it is unbound.
    func uri(boundTo prefix: String) -> String? {
        if prefix == "xml" { return Self.xmlNamespace }
        return innermost(prefix).map { index in string(uriOf: entries[index]) }
    }

    /// The bindings an element declared, its own beginning at `start`.
    func declared(from start: Int) -> [(prefix: String, uri: String)] {
        entries[start...].map { (string(prefixOf: $0), string(uriOf: $0)) }
    }

    /// Whether the element whose bindings begin at `start` declares `prefix`.
    func declares(_ prefix: String, from start: Int) -> Bool {
        entries[start...].contains { entry in withBytes(of: entry) { written, _ in bytesEqual(prefix, written) } }
    }

    mutating func declare(_ prefix: String, _ uri: String) {
        var prefix = prefix
        var uri = uri
        prefix.withUTF8 { prefix in uri.withUTF8 { uri in declare(prefix: UnsafeRawBufferPointer(prefix), uri: UnsafeRawBufferPointer(uri)) } }
    }

    /// Binds `prefix` (UTF-8; empty for the default namespace) to `uri` (UTF-8; empty
    /// undeclares the default namespace) on the element whose bindings are the last.
    mutating func declare(prefix: UnsafeRawBufferPointer, uri: UnsafeRawBufferPointer) {
        let start = entries.last.map { $0.start + $0.prefixCount + $0.uriCount } ?? 0
        let end = start + prefix.count + uri.count
        if text.count < end { text.append(contentsOf: repeatElement(0, count: max(end - text.count, text.count))) }
        text.withUnsafeMutableBytes { text in
            UnsafeMutableRawBufferPointer(rebasing: text[start..<(start + prefix.count)]).copyMemory(from: prefix)
            UnsafeMutableRawBufferPointer(rebasing: text[(start + prefix.count)..<end]).copyMemory(from: uri)
        }
        entries.append(Binding(start: start, prefixCount: prefix.count, uriCount: uri.count))
        generation = generation(declaring: prefix, uri, on: generation)
        if prefix.isEmpty {
            // On generation 0, which names no bindings: the URI alone.
            defaultNamespaceGeneration = uri.isEmpty ? 1 : generation(declaring: prefix, uri, on: 0)
        }
        generations.append((generation, defaultNamespaceGeneration))
    }

    /// The generation of the bindings of generation `base` with `prefix` bound to `uri`:
    /// the one given before, when it is remembered, else a new one.
    private mutating func generation(
        declaring prefix: UnsafeRawBufferPointer, _ uri: UnsafeRawBufferPointer, on base: UInt64
    ) -> UInt64 {
        if let known = declarationGenerations.generation(declaring: prefix, uri, on: base) { return known }
        latestGeneration &+= 1
        declarationGenerations.remember(latestGeneration, declaring: prefix, uri, on: base)
        return latestGeneration
    }

    /// Drops the bindings of the element that ends, which began at `start`.
    mutating func end(at start: Int) {
        guard start < entries.count else { return }
        // An element declares few: they are dropped from the last, the generations with them.
        repeat {
            entries.removeLast()
            generations.removeLast()
        } while entries.count > start
        (generation, defaultNamespaceGeneration) = generations[start]
    }

    /// Whether `prefix` (UTF-8; empty for the default namespace) is bound to `uri` (UTF-8;
    /// empty for none) here: an unbound prefix to none, `xml` always to its own.
    func binds(prefix: UnsafeRawBufferPointer, to uri: UnsafeRawBufferPointer) -> Bool {
        if bytesEqual("xml", prefix) { return bytesEqual(Self.xmlNamespace, uri) }
        guard let index = innermost(where: { bytesEqual($0, prefix) }) else { return uri.isEmpty }
        return withBytes(of: entries[index]) { _, bound in bytesEqual(bound, uri) }
    }

    /// Whether `prefix` (`""`: the default namespace) is bound to the URI `uri`, which is
    /// not empty: as ``uri(boundTo:)`` would say, without a string made.
    private func isBound(_ prefix: String, to uri: String) -> Bool {
        if prefix == "xml" { return uri == Self.xmlNamespace }
        guard let index = innermost(prefix) else { return false }
        return withBytes(of: entries[index]) { _, bound in bytesEqual(uri, bound) }
    }

    /// The index of the innermost binding of `prefix`, if it is bound.
    private func innermost(_ prefix: String) -> Int? {
        innermost { bytesEqual(prefix, $0) }
    }

    /// The index of the innermost binding whose prefix (UTF-8) `matches`, if there is one.
    @inline(__always)
    private func innermost(where matches: (UnsafeRawBufferPointer) -> Bool) -> Int? {
        var index = entries.count
        while index > 0 {
            index -= 1
            if withBytes(of: entries[index], { prefix, _ in matches(prefix) }) { return index }
        }
        return nil
    }

    /// Calls `body` with a binding's prefix and URI as UTF-8, valid during the call.
    @inline(__always)
    private func withBytes<Result>(
        of entry: Binding, _ body: (_ prefix: UnsafeRawBufferPointer, _ uri: UnsafeRawBufferPointer) -> Result
    ) -> Result {
        text.withUnsafeBytes { text in
            let uriStart = entry.start + entry.prefixCount
            return body(
                UnsafeRawBufferPointer(rebasing: text[entry.start..<uriStart]),
                UnsafeRawBufferPointer(rebasing: text[uriStart..<(uriStart + entry.uriCount)]))
        }
    }

    private func string(prefixOf entry: Binding) -> String {
        withBytes(of: entry) { prefix, _ in UTF8Text.string(prefix) }
    }

    private func string(uriOf entry: Binding) -> String {
        withBytes(of: entry) { _, uri in UTF8Text.string(uri) }
    }

    /// Makes a scope restored from a copy give new generations past those `other`, the scope
    /// it replaces, gave since the copy, which other bindings may have had. (The copy's own
    /// generations still name the bindings they named.)
    mutating func continueGenerations(after other: NamespaceScope) {
        latestGeneration = max(latestGeneration, other.latestGeneration)
    }

    mutating func removeAll() {
        entries.removeAll()
        text.removeAll(keepingCapacity: true)
        generations.removeSubrange(1...)
        (generation, defaultNamespaceGeneration) = generations[0]
    }

    /// The prefix an element in `uri` (`nil` or `""`: none) is written with, declaring what
    /// it needs on the element whose bindings begin at `start`: `written` (`nil` for none)
    /// bound to `uri` if it is not; with no prefix written and `reusesBoundPrefix`, a
    /// prefix bound to `uri` in scope, or else the default namespace. An unprefixed
    /// element in no namespace where a default namespace is in scope undeclares it.
    mutating func elementPrefix(for uri: String?, written: String?, from start: Int, reusesBoundPrefix: Bool) -> String {
        let prefix = written ?? ""
        guard let uri, !uri.isEmpty else {
            if written == nil, let inherited = innermost(""), entries[inherited].uriCount > 0 { declare("", "") }
            return prefix
        }
        if written == nil && reusesBoundPrefix && !isBound("", to: uri) {
            if let bound = boundPrefix(for: uri) { return bound }
            if declares("", from: start) {
                // The element's own attributes declare another default namespace.
                var number = 1
                while !usable("ns\(number)", for: uri, from: start) { number += 1 }
                return "ns\(number)"
            }
        }
        if prefix != "xml" && !isBound(prefix, to: uri) { declare(prefix, uri) }
        return prefix
    }

    /// The prefix an attribute in `uri` is written with on the element whose bindings begin
    /// at `start`: `written` where it is bound to `uri` or can be declared there, else a
    /// prefix bound to `uri` in scope, else a free one (`ns1`, `ns2`…), declared. A prefix
    /// in `inUse` (those of the names already in the tag) is never declared again: that
    /// would change what those names mean.
    mutating func attributePrefix(
        for uri: String, written: String?, from start: Int, inUse: Set<Substring> = []
    ) -> String {
        if let written, !written.isEmpty, usable(written, for: uri, from: start, inUse: inUse) { return written }
        if let bound = boundPrefix(for: uri) { return bound }
        var number = 1
        while !usable("ns\(number)", for: uri, from: start, inUse: inUse) { number += 1 }
        return "ns\(number)"
    }

    /// A non-empty prefix bound to `uri` and not rebound since, the innermost first.
    private func boundPrefix(for uri: String) -> String? {
        if uri == Self.xmlNamespace { return "xml" }
        var index = entries.count
        while index > 0 {
            index -= 1
            let entry = entries[index]
            guard entry.prefixCount > 0, withBytes(of: entry, { _, bound in bytesEqual(uri, bound) }) else { continue }
            // Not rebound since: the innermost binding of its prefix.
            if withBytes(of: entry, { prefix, _ in innermost { bytesEqual($0, prefix) } }) == index { return string(prefixOf: entry) }
        }
        return nil
    }

    /// Whether a name in `uri` may be written with `prefix` on the element whose bindings
    /// begin at `start`: it is bound to `uri` already, or is declared there now (when this
    /// returns `true`), as that element has not bound it to anything else and no name in
    /// its tag uses it (`inUse`).
    private mutating func usable(_ prefix: String, for uri: String, from start: Int, inUse: Set<Substring> = []) -> Bool {
        if isBound(prefix, to: uri) { return true }
        if prefix == "xml" || prefix == "xmlns" || uri == Self.xmlNamespace { return false }
        if declares(prefix, from: start) || inUse.contains(prefix[...]) { return false }
        declare(prefix, uri)
        return true
    }
}

/// The generations a ``NamespaceScope`` gave declarations, each by the generation it was
/// declared on, its prefix and URI: a few, in slots chosen by a hash, a later one taking
/// an earlier one's slot, so that what is kept stays bounded whatever the document declares.
/// A declaration not found gets a new generation, which costs only the work a generation
/// saves.
private struct DeclarationGenerations {
    private struct Entry {
        /// 0 for a slot nothing was remembered in: no generation is 0.
        var generation: UInt64 = 0
        var base: UInt64 = 0
        var prefixCount = 0
        var uriCount = 0
    }

    private static let slotCount = 64
    /// The bytes of each slot's prefix and URI, one after another, at `slot * slotBytes`: a
    /// declaration longer than that is not remembered.
    private static let slotBytes = 128
    private var slots: [Entry] = []
    private var text: [UInt8] = []

    func generation(declaring prefix: UnsafeRawBufferPointer, _ uri: UnsafeRawBufferPointer, on base: UInt64) -> UInt64? {
        guard !slots.isEmpty else { return nil }
        let slot = Self.slot(prefix, uri, base)
        let entry = slots[slot]
        guard entry.generation != 0, entry.base == base, entry.prefixCount == prefix.count, entry.uriCount == uri.count
        else { return nil }
        let start = slot * Self.slotBytes
        let same = text.withUnsafeBytes { text in
            bytesEqual(UnsafeRawBufferPointer(rebasing: text[start..<(start + prefix.count)]), prefix)
                && bytesEqual(UnsafeRawBufferPointer(rebasing: text[(start + prefix.count)..<(start + prefix.count + uri.count)]), uri)
        }
        return same ? entry.generation : nil
    }

    mutating func remember(
        _ generation: UInt64, declaring prefix: UnsafeRawBufferPointer, _ uri: UnsafeRawBufferPointer, on base: UInt64
    ) {
        guard prefix.count + uri.count <= Self.slotBytes else { return }
        if slots.isEmpty {
            slots = Array(repeating: Entry(), count: Self.slotCount)
            text = Array(repeating: 0, count: Self.slotCount * Self.slotBytes)
        }
        let slot = Self.slot(prefix, uri, base)
        slots[slot] = Entry(generation: generation, base: base, prefixCount: prefix.count, uriCount: uri.count)
        let start = slot * Self.slotBytes
        text.withUnsafeMutableBytes { text in
            UnsafeMutableRawBufferPointer(rebasing: text[start...]).copyMemory(from: prefix)
            UnsafeMutableRawBufferPointer(rebasing: text[(start + prefix.count)...]).copyMemory(from: uri)
        }
    }

    /// A slot from the base generation and the lengths of the prefix and URI: declarations
    /// are made per element, and most differ in their base or their lengths.
    @inline(__always)
    private static func slot(_ prefix: UnsafeRawBufferPointer, _ uri: UnsafeRawBufferPointer, _ base: UInt64) -> Int {
        let mixed = (base ^ UInt64(truncatingIfNeeded: uri.count) << 20 ^ UInt64(truncatingIfNeeded: prefix.count) << 40)
            &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 58)
    }
}

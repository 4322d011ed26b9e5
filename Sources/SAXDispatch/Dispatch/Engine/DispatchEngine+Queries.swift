/// What handler contexts, attribute views and text chunks ask the engine about the open
/// elements, and the checks that they are used only while their element or event lasts.
extension DispatchEngine {
    /// The names of the open elements, root first.
    var currentPath: ElementPath {
        path(depth: stack.count)
    }

    /// The names of the open elements down to the one at `depth` (1 for the root), root first.
    func path(depth: Int) -> ElementPath {
        ElementPath((0..<min(depth, stack.count)).map { names.string(stack[$0].name) })
    }

    /// Checks that the element a context was made for is still open and returns its depth.
    func checkedFrameCount(depth: Int, serial: UInt64) -> Int {
        precondition(
            depth <= stack.count && stack[depth - 1].serial == serial,
            "ElementContext used after its element ended; copy the values you need inside the handler")
        return depth
    }

    /// The start tag position of an open element, captured at its start.
    func position(depth: Int, serial: UInt64) -> (line: Int, column: Int, byteOffset: Int) {
        let frame = stack[checkedFrameCount(depth: depth, serial: serial) - 1]
        return (frame.line, frame.column, frame.byteOffset)
    }

    /// The attributes of the element whose start handlers are running, if `serial` is its.
    /// - Parameter checked: Whether the view holds the engine, to check on every use that
    ///   the start handler has not returned. The library's own handlers, which read the
    ///   view before they return, leave it out: no retain and release per element.
    func attributes(for serial: UInt64, checked: Bool = true) -> ElementAttributes {
        guard let pairs = currentAttributes, serial == attributesSerial else { return .empty }
        let count = Self.attributeCount(pairs)
        let specified = startTagsMayCarryDefaults ? min(count, specifiedAttributeCount) : count
        return ElementAttributes(
            engine: checked ? self : nil, serial: serial, pairs: pairs, count: count, specifiedCount: specified)
    }

    func checkAttributes(serial: UInt64) {
        precondition(
            currentAttributes != nil && serial == attributesSerial,
            "ElementAttributes used after its start handler returned; copy the values you need inside the handler")
    }

    // Inlinable, so that a text handler's `chunk.count` compiles to a compare in its own
    // module rather than a call into the library per chunk.
    @inlinable
    func checkChunk(serial: UInt64) {
        precondition(
            serial == chunkSerial, "TextChunk used after its text handler returned; copy the text inside the handler")
    }

    /// The unbound pattern prefixes that no element the parse read was written with
    /// (``ParseWarning/unseenPrefix(_:)``).
    func unseenPatternPrefixes() -> [String] {
        guard !unboundPatternPrefixes.isEmpty else { return [] }
        var unseen = unboundPatternPrefixes.filter { !prefixesSeenInEarlierDocuments.contains($0) }
        for id in Int32(keys.patternNameCount)..<Int32(names.count) where !unseen.isEmpty {
            if let prefix = QualifiedName.prefix(of: names.string(id)) { unseen.removeAll { $0 == prefix } }
        }
        return unseen
    }

    /// Whether the document's root element started: the end of input is then a truncated document.
    var rootStarted: Bool { serial > serialAtDocumentStart }

    /// Whether the document's root element started and ended: what follows is the
    /// document's end, or the next document of a concatenated input.
    var documentRootEnded: Bool { rootStarted && stack.isEmpty }

    /// The next document of a concatenated input begins: its root element is still to come.
    func beginDocument() {
        serialAtDocumentStart = serial
    }
}

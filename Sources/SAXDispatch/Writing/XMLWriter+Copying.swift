#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Start tags copied from a parse: the element's name, its namespace declarations as the
/// document wrote them, and its attributes, so that a document read and written back keeps
/// its names and prefixes.
extension XMLWriter {
    /// Writes the start tag of the element a start handler is given, as the document wrote
    /// it: its name and prefix, its attributes, and — when the dispatcher keeps them, as an
    /// ``XMLTransform``'s does — its namespace declarations as written, so that a prefix
    /// that only content mentions (`xsi:type="xs:string"`) stays bound. Elsewhere the
    /// writer declares what the names need.
    ///
    /// ```swift
    /// dispatcher.onAnyStart { element in try writer.startElement(copying: element) }
    /// ```
    ///
    /// - Throws: As ``startElement(_:namespace:attributes:)-(_,_,KeyValuePairs<String,String>)``;
    ///   a start tag read by a parse is refused only for a document that is not
    ///   namespace-well-formed, read without namespace processing.
    public func startElement(copying element: ElementContext) throws {
        if try startElementCopiedAsItIs(element) { return }
        try startElement(ElementEdit(element), processesNamespaces: element.processesNamespaces)
    }

    /// Writes the start tag of `element` from the parse's bytes when nothing in it needs
    /// working out: its namespace declarations (with namespace processing) written as the
    /// document wrote them, and then its prefix (or the default namespace) and every
    /// prefixed attribute's prefix bound in the writer's scope to the namespace the parse
    /// found; without namespace processing, no name with a colon and no `xmlns` attribute.
    /// A parse checked its names and characters; the writer checks only what its own scope
    /// says. `false`, with nothing written and the scope as it was, for every other tag,
    /// which ``startElement(_:processesNamespaces:)`` writes.
    private func startElementCopiedAsItIs(_ element: ElementContext) throws -> Bool {
        try startElement(copying: element, localName: nil, leavingOut: 0)
    }

    /// Writes the start tag of `element` as ``startElementCopiedAsItIs(_:)`` does, with its
    /// local name replaced by `localName` (its prefix and namespace kept) and without the
    /// attributes `leftOut` has a bit for (bit 0 for the first attribute expat reports): the
    /// edits a transform makes most, without making strings of the tag. `false`, with nothing
    /// written and the scope as it was, where ``startElementCopiedAsItIs(_:)`` would give it;
    /// `localName` must be a name (an NCName with namespace processing).
    func startElement(copying element: ElementContext, localName: String?, leavingOut leftOut: UInt64) throws -> Bool {
        try checkWritable()
        guard state != .epilog else { return false }
        let engine = element.engine
        let names = engine.names
        let id = element.nameID
        let processesNamespaces = element.processesNamespaces
        let bindingStart = scope.count
        // Most start tags: no attribute or declaration, and a name copied before in this scope.
        if localName == nil, element.hasNoAttributesInHandler,
            !processesNamespaces || !engine.startTagHasNamespaceDeclarations,
            let written = copiedNameCache.writtenName(id, of: names, at: copyGenerations(processesNamespaces))
        {
            closeStartTag()
            beginLine(for: .element)
            copiedAttributeNames.truncate(to: 0)
            copiedStartTagIsRaw = false
            buffer.append(UInt8(ascii: "<"))
            buffer.appendBytes(written)
            open.push(written: written, bindingStart: bindingStart)
            try finishCopiedStartTag()
            return true
        }
        var declares = false
        if processesNamespaces {
            if engine.startTagHasNamespaceDeclarations {
                declares = true
                engine.forEachStartTagNamespaceDeclaration { prefix, uri in
                    if let prefix, bytesEqual("xml", prefix) { return }
                    scope.declare(prefix: prefix ?? UnsafeRawBufferPointer(start: nil, count: 0), uri: uri)
                }
            }
            if !copiedNameCache.copiesAsItIs(id, of: names, at: copyGenerations(true)) {
                guard let isUnprefixed = scopeBinds(reportedName: names.bytes(id)) else {
                    scope.end(at: bindingStart)
                    return false
                }
                // The name is kept once the tag is written (below).
                copiedNameCache.remember(id, of: names, at: copyGenerations(true), isUnprefixed: isUnprefixed, written: nil)
            }
        } else if !copiedNameCache.copiesAsItIs(id, of: names, at: .withoutNamespaces) {
            guard !names.bytes(id).contains(UInt8(ascii: ":")) else { return false }
            copiedNameCache.remember(id, of: names, at: .withoutNamespaces, isUnprefixed: false, written: nil)
        }
        let attributes = element.attributesReadInHandler
        if attributes.count > 0 {
            guard let pairs = attributes.pairs else {
                scope.end(at: bindingStart)
                return false
            }
            for index in 0..<attributes.count {
                guard let name = pairs[2 * index], copiesAsItIs(attribute: name, processesNamespaces: processesNamespaces) else {
                    scope.end(at: bindingStart)
                    return false
                }
            }
        }
        // The name as written, kept since an earlier tag of it, or made now.
        let kept = localName == nil ? copiedNameCache.writtenName(id, of: names, at: copyGenerations(processesNamespaces)) : nil
        var name = kept == nil ? names.string(id) : ""
        if let localName {
            guard processesNamespaces || !localName.utf8.contains(UInt8(ascii: ":")) else {
                scope.end(at: bindingStart)
                return false
            }
            name = renamed(name, id: id, in: names, to: localName)
        }
        // A tag with attributes or declarations is copied from the bytes the document wrote
        // when they read back the same anywhere — with its new name and without the attributes
        // left out spliced in; the rest are written from what the parse reported.
        let raw =
            (attributes.count > 0 || declares) && attributes.specifiedCount == attributes.count
            ? engine.currentStartTagBytes() : nil
        closeStartTag()
        beginLine(for: .element)
        copiedAttributeNames.truncate(to: 0)
        if let raw,
            appendSplicedStartTag(
                raw, name: localName == nil ? nil : name, attributes: attributes, leavingOut: leftOut)
        {
            copiedStartTagIsRaw = true
        } else {
            copiedStartTagIsRaw = false
            buffer.append(UInt8(ascii: "<"))
            if let kept { buffer.appendBytes(kept) } else { appendUTF8(name) }
            if declares {
                engine.forEachStartTagNamespaceDeclaration { prefix, uri in appendDeclaration(prefix: prefix, uri: uri) }
            }
            if attributes.count > 0, let pairs = attributes.pairs {
                for index in 0..<attributes.count {
                    guard let name = pairs[2 * index], let value = pairs[2 * index + 1] else { continue }
                    if Self.isLeftOut(index, by: leftOut) { continue }
                    buffer.append(UInt8(ascii: " "))
                    appendCopiedAttributeName(UnsafeRawBufferPointer(start: name, count: strlen(name)))
                    buffer.append(UInt8(ascii: "="))
                    buffer.append(UInt8(ascii: "\""))
                    XMLEscaping.appendAttributeValue(UnsafeRawBufferPointer(start: value, count: strlen(value)), to: &buffer)
                    buffer.append(UInt8(ascii: "\""))
                }
            }
        }
        if let kept {
            open.push(written: kept, bindingStart: bindingStart)
        } else {
            name.withUTF8 { open.push(written: UnsafeRawBufferPointer($0), bindingStart: bindingStart) }
            if localName == nil && !declares {
                copiedNameCache.remember(
                    id, of: names, at: copyGenerations(processesNamespaces), isUnprefixed: nil, written: name)
            }
        }
        try finishCopiedStartTag()
        return true
    }

    /// What follows a copied start tag written up to its attributes' end: the tag stays open
    /// for what is added to it, and the buffer is handed on once full.
    @inline(__always)
    private func finishCopiedStartTag() throws {
        if !startTagAttributes.isEmpty { startTagAttributes.removeAll(keepingCapacity: true) }
        startTagIsCopied = true
        startTagIsOpen = true
        state = .inRoot
        try flushIfFull()
    }

    /// `name` (an element's name as written, `prefix:local` or `local`) with its local name
    /// replaced by `localName`; the last answer is kept, since a rename meets one name often.
    private func renamed(_ name: String, id: Int32, in names: NameTable, to localName: String) -> String {
        if let last = lastRenamed, last.id == id, last.names === names, last.localName == localName { return last.name }
        let result = QualifiedName.firstColon(in: name).map { name[...$0] + localName } ?? localName
        lastRenamed = (id, names, localName, result)
        return result
    }

    /// Writes the start tag `raw` (from its `<` to its `>` or `/>`, as the document wrote
    /// it) up to where it closes, with its name replaced by `name` when one is given and
    /// without the attributes `leftOut` has a bit for — each cut
    /// with the white space before it — and keeps what it wrote in ``copiedStartTag``, where
    /// the attributes' names are read if they are asked for. `false`, with nothing written,
    /// when the tag holds another number of attributes than `attributes` reports.
    ///
    /// Expat reports a tag's attributes in the order they are written, without its namespace
    /// declarations under namespace processing (which are copied, never left out): the
    /// attribute a scan of the bytes finds is the one reported at the same place.
    private func appendSplicedStartTag(
        _ raw: UnsafeRawBufferPointer, name: String?, attributes: ElementAttributes, leavingOut leftOut: UInt64
    ) -> Bool {
        // Up to its `>` or `/>`: the end tag or the `>` before content closes it.
        let end = raw[raw.count - 2] == UInt8(ascii: "/") ? raw.count - 2 : raw.count - 1
        let written = buffer.count
        guard name != nil || leftOut != 0 else {
            buffer.appendBytes(UnsafeRawBufferPointer(rebasing: raw[..<end]))
            copiedStartTag.truncate(to: 0)
            copiedStartTag.appendBytes(buffer.bytes(from: written))
            return true
        }
        var index = 1
        while index < end && !StartTagBytes.endsName(raw[index]) { index += 1 }
        if let name {
            buffer.append(UInt8(ascii: "<"))
            appendUTF8(name)
        } else {
            buffer.appendBytes(UnsafeRawBufferPointer(rebasing: raw[..<index]))
        }
        guard leftOut != 0 else {
            buffer.appendBytes(UnsafeRawBufferPointer(rebasing: raw[index..<end]))
            copiedStartTag.truncate(to: 0)
            copiedStartTag.appendBytes(buffer.bytes(from: written))
            return true
        }
        // What is kept is copied in runs: from `kept` to where an attribute left out begins.
        var attribute = 0
        var kept = index
        while let span = StartTagBytes.nextAttribute(in: raw, from: index, end: end) {
            defer { index = span.end }
            if StartTagBytes.isNamespaceDeclaration(in: raw, at: span.nameStart) { continue }
            guard attribute < attributes.count else {
                buffer.truncate(to: written)
                return false
            }
            attribute += 1
            if Self.isLeftOut(attribute - 1, by: leftOut) {
                buffer.appendBytes(UnsafeRawBufferPointer(rebasing: raw[kept..<index]))
                kept = span.end
            }
        }
        guard attribute == attributes.count else {
            buffer.truncate(to: written)
            return false
        }
        index = kept
        buffer.appendBytes(UnsafeRawBufferPointer(rebasing: raw[index..<end]))
        copiedStartTag.truncate(to: 0)
        copiedStartTag.appendBytes(buffer.bytes(from: written))
        return true
    }

    /// Whether the attribute at `index` among those reported is one `leftOut` has a bit for.
    @inline(__always)
    private static func isLeftOut(_ index: Int, by leftOut: UInt64) -> Bool {
        index < UInt64.bitWidth && leftOut >> UInt64(index) & 1 != 0
    }

    /// Writes an attribute's name as expat reports it (`local`, or with namespace processing
    /// `uri SEP local SEP prefix`) as the document wrote it, and notes it, with its
    /// namespace, in ``copiedAttributeNames``: the written name, a 0 byte, the URI, a 0 byte.
    private func appendCopiedAttributeName(_ reported: UnsafeRawBufferPointer) {
        let parts = QualifiedName.byteParts(of: reported)
        let written = buffer.count
        if let prefix = parts.prefix {
            buffer.appendBytes(prefix)
            buffer.append(UInt8(ascii: ":"))
        }
        buffer.appendBytes(parts.localName)
        copiedAttributeNames.appendBytes(buffer.bytes(from: written))
        copiedAttributeNames.append(0)
        if let uri = parts.namespaceURI { copiedAttributeNames.appendBytes(uri) }
        copiedAttributeNames.append(0)
    }

    /// Whether an attribute, named as expat reports it, is written as the document wrote it:
    /// without namespace processing, a name with no colon that is not `xmlns`; with it, an
    /// unprefixed name, or a prefixed one whose prefix the writer's scope binds to the
    /// attribute's namespace.
    private func copiesAsItIs(attribute name: UnsafePointer<CChar>, processesNamespaces: Bool) -> Bool {
        // Most names are short and in no namespace: their first bytes are read one by one,
        // and only a longer name is measured and searched.
        var hasColon = false
        var short = 0
        while short < 16 {
            let byte = UInt8(bitPattern: name[short])
            if byte == 0 || byte == QualifiedName.separator { break }
            if byte == UInt8(ascii: ":") { hasColon = true }
            short += 1
        }
        let length = name[short] == 0 ? short : short + strlen(name + short)
        // A colon is part of a name only without namespace processing (else the URI's).
        guard UInt8(bitPattern: name[short]) == QualifiedName.separator
            || (short == 16 && memchr(name + short, Int32(QualifiedName.separator), length - short) != nil)
        else {
            if !hasColon && short < length { hasColon = memchr(name + short, Int32(UInt8(ascii: ":")), length - short) != nil }
            return !hasColon && !(length == 5 && memcmp(name, "xmlns", 5) == 0)
        }
        // An attribute in a namespace has a prefix: `uri SEP local SEP prefix`.
        guard processesNamespaces else { return false }
        let parts = QualifiedName.byteParts(of: UnsafeRawBufferPointer(start: name, count: length))
        guard let prefix = parts.prefix, let uri = parts.namespaceURI else { return false }
        // The attributes of one element, and of its siblings, mostly share one prefix.
        if verifiedAttributeBinding.matches(prefix: prefix, uri: uri, generation: scope.generation) {
            return true
        }
        guard scope.binds(prefix: prefix, to: uri) else { return false }
        verifiedAttributeBinding.remember(prefix: prefix, uri: uri, generation: scope.generation)
        return true
    }

    /// Whether the writer's scope binds the prefix of a name as expat reports it with
    /// namespace processing (`local`, `uri SEP local` or `uri SEP local SEP prefix`) to its
    /// namespace: no prefix to the default namespace (none when unbound). `nil` when it does
    /// not; else whether the name is unprefixed (so bound as it is while the default
    /// namespace is).
    private func scopeBinds(reportedName bytes: UnsafeRawBufferPointer) -> Bool? {
        let parts = QualifiedName.byteParts(of: bytes)
        let none = UnsafeRawBufferPointer(start: nil, count: 0)
        guard scope.binds(prefix: parts.prefix ?? none, to: parts.namespaceURI ?? none) else { return nil }
        return parts.prefix == nil
    }

    /// The generations a copied name's entry in ``copiedNameCache`` is checked against: the
    /// scope's with namespace processing (a prefix is bound or not), and ones that never
    /// change without (a name copies as it is when it has no colon).
    @inline(__always)
    private func copyGenerations(_ processesNamespaces: Bool) -> CopiedNameCache.Generations {
        processesNamespaces
            ? CopiedNameCache.Generations(all: scope.generation, defaultNamespace: scope.defaultNamespaceGeneration)
            : .withoutNamespaces
    }

    /// Puts the names of a copied start tag's attributes where ``attribute(_:namespace:value:)``
    /// and a restored state look for them, before either needs them.
    func recordCopiedAttributes() {
        guard startTagIsCopied else { return }
        startTagIsCopied = false
        if copiedStartTagIsRaw { noteAttributesOfCopiedStartTag() }
        // Pairs of a written name and its namespace URI (empty for none), each ended by a 0.
        let fields = copiedAttributeNames.bytes(from: 0).split(separator: 0, omittingEmptySubsequences: false)
        var index = 0
        while index + 1 < fields.count {
            let written = String(decoding: fields[index], as: UTF8.self)
            let uri = String(decoding: fields[index + 1], as: UTF8.self)
            let local = QualifiedName.firstColon(in: written).map { String(written[written.utf8.index(after: $0)...]) } ?? written
            startTagAttributes.append((uri, local, written))
            index += 2
        }
        copiedAttributeNames.truncate(to: 0)
    }

    /// Notes the attributes of the start tag copied as the document wrote it in
    /// ``copiedAttributeNames``, as ``appendCopiedAttributeName(_:)`` does: each name as
    /// written and its namespace, by the scope the tag is in. Declarations are not attributes.
    private func noteAttributesOfCopiedStartTag() {
        copiedStartTagIsRaw = false
        let tag = copiedStartTag.bytes(from: 0)
        var index = 1
        while index < tag.count && !StartTagBytes.endsName(tag[index]) { index += 1 }
        while let span = StartTagBytes.nextAttribute(in: tag, from: index, end: tag.count) {
            index = span.end
            let name = StartTagBytes.name(in: tag, from: span.nameStart)
            if StartTagBytes.isNamespaceDeclaration(name) { continue }
            let text = String(decoding: name, as: UTF8.self)
            let prefix = QualifiedName.firstColon(in: text).map { String(text[..<$0]) }
            copiedAttributeNames.appendBytes(name)
            copiedAttributeNames.append(0)
            if let prefix { copiedAttributeNames.append(utf8: scope.uri(boundTo: prefix) ?? "") }
            copiedAttributeNames.append(0)
        }
    }

    /// Writes the start tag an edit describes: its declarations first, then its name in its
    /// namespace, then its attributes. Without namespace processing, names and `xmlns`
    /// attributes are written as they are.
    func startElement(_ edit: ElementEdit, processesNamespaces: Bool) throws {
        var attributes: [(name: String, namespace: String?, value: String)] = []
        attributes.reserveCapacity(edit.namespaceDeclarations.count + edit.attributes.count)
        for declaration in edit.namespaceDeclarations {
            attributes.append((declaration.prefix.map { "xmlns:" + $0 } ?? "xmlns", nil, declaration.uri))
        }
        for attribute in edit.attributes {
            // An attribute in no namespace is written as named: `nil`, not `""`, which the
            // writer reads as a request to resolve a prefix.
            let namespace = processesNamespaces && attribute.prefix != nil ? attribute.namespaceURI : nil
            attributes.append((attribute.name, namespace, attribute.value))
        }
        // No namespace: an unprefixed name is in none (undeclaring a default namespace in
        // scope); a prefixed one takes what its prefix is bound to where it is written.
        let namespace = processesNamespaces ? edit.namespaceURI ?? (QualifiedName.firstColon(in: edit.name) != nil ? nil : "") : nil
        try startElement(edit.name, namespace: namespace, attributes: attributes)
    }
}


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
    /// working out: no namespace declaration on it, its prefix (or the default namespace)
    /// bound in the writer's scope to the element's namespace, and every attribute
    /// unprefixed, in no namespace, not a declaration. A parse checked its names and
    /// characters; the writer checks only what its own scope says. `false`, with nothing
    /// written, for every other tag, which ``startElement(_:processesNamespaces:)`` writes.
    private func startElementCopiedAsItIs(_ element: ElementContext) throws -> Bool {
        try checkWritable()
        guard state != .epilog else { return false }
        let engine = element.engine
        let names = engine.names
        let id = element.nameID
        if element.processesNamespaces {
            guard !engine.startTagHasNamespaceDeclarations else { return false }
            if !isBoundAsCopied(id, in: names) {
                let parts = names.parts(id)
                guard (scope.uri(boundTo: parts.prefix ?? "") ?? "") == (parts.namespaceURI ?? "") else { return false }
                rememberBoundAsCopied(id, in: names)
            }
        } else {
            guard !names.bytes(id).contains(UInt8(ascii: ":")) else { return false }
        }
        let attributes = element.attributesReadInHandler
        if attributes.count > 0 {
            guard let pairs = attributes.pairs else { return false }
            for index in 0..<attributes.count {
                guard let name = pairs[2 * index], Self.isPlainAttributeName(name) else { return false }
            }
        }
        let name = names.string(id)
        closeStartTag()
        beginLine(for: .element)
        buffer.append(UInt8(ascii: "<"))
        appendUTF8(name)
        if !copiedAttributeNames.isEmpty { copiedAttributeNames.removeAll(keepingCapacity: true) }
        if attributes.count > 0, let pairs = attributes.pairs {
            for index in 0..<attributes.count {
                guard let name = pairs[2 * index], let value = pairs[2 * index + 1] else { continue }
                let nameBytes = UnsafeRawBufferPointer(start: name, count: strlen(name))
                buffer.append(UInt8(ascii: " "))
                buffer.appendBytes(nameBytes)
                buffer.append(UInt8(ascii: "="))
                buffer.append(UInt8(ascii: "\""))
                XMLEscaping.appendAttributeValue(UnsafeRawBufferPointer(start: value, count: strlen(value)), to: &buffer)
                buffer.append(UInt8(ascii: "\""))
                copiedAttributeNames.append(contentsOf: nameBytes)
                copiedAttributeNames.append(0)
            }
        }
        open.append(OpenElement(given: name, written: name, bindingStart: scope.count))
        if !startTagAttributes.isEmpty { startTagAttributes.removeAll(keepingCapacity: true) }
        startTagIsCopied = true
        startTagIsOpen = true
        state = .inRoot
        try flushIfFull()
        return true
    }

    /// Whether a start tag of name `id` was found to copy as it is in the scope as it is now.
    @inline(__always)
    private func isBoundAsCopied(_ id: Int32, in names: NameTable) -> Bool {
        copiedNames === names && Int(id) < copiedNameGenerations.count
            && copiedNameGenerations[Int(id)] == scope.generation
    }

    private func rememberBoundAsCopied(_ id: Int32, in names: NameTable) {
        if copiedNames !== names {
            copiedNames = names
            copiedNameGenerations.removeAll(keepingCapacity: true)
        }
        let index = Int(id)
        if copiedNameGenerations.count <= index {
            copiedNameGenerations += repeatElement(0, count: index + 1 - copiedNameGenerations.count)
        }
        copiedNameGenerations[index] = scope.generation
    }

    /// Whether an attribute name as expat reports it is an unprefixed name in no namespace
    /// that declares nothing: no `:` (a prefix, without namespace processing), no separator
    /// byte (a namespace, with it), not `xmlns` or `xmlns:…`.
    private static func isPlainAttributeName(_ name: UnsafePointer<CChar>) -> Bool {
        var cursor = name
        while cursor.pointee != 0 {
            let byte = UInt8(bitPattern: cursor.pointee)
            if byte == UInt8(ascii: ":") || byte == QualifiedName.separator { return false }
            cursor += 1
        }
        let length = cursor - name
        return !(length == 5 && memcmp(name, "xmlns", 5) == 0)
    }

    /// Puts the names of a copied start tag's attributes where ``attribute(_:namespace:value:)``
    /// and a restored state look for them, before either needs them.
    func recordCopiedAttributes() {
        guard startTagIsCopied else { return }
        startTagIsCopied = false
        for name in copiedAttributeNames.split(separator: 0, omittingEmptySubsequences: true) {
            let written = String(decoding: name, as: UTF8.self)
            startTagAttributes.append(("", written, written))
        }
        copiedAttributeNames.removeAll(keepingCapacity: true)
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
        let namespace = processesNamespaces ? edit.namespaceURI ?? (edit.name.contains(":") ? nil : "") : nil
        try startElement(edit.name, namespace: namespace, attributes: attributes)
    }
}

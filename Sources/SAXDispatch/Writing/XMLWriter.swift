/// Writes an XML document as a stream, in constant memory: start and end tags, attributes,
/// text, CDATA sections, comments and processing instructions, in the order they come,
/// gathered in a buffer of about ``XMLOutput/chunkSize`` bytes and handed to the output as
/// it fills.
///
/// ```swift
/// let writer = try XMLWriter(to: .file("feed.xml"), options: .indented)
/// try writer.startElement("feed", namespace: "http://www.w3.org/2005/Atom")
/// for entry in entries {
///     try writer.startElement("entry", namespace: "http://www.w3.org/2005/Atom")
///     try writer.element("title", namespace: "http://www.w3.org/2005/Atom", text: entry.title)
///     try writer.endElement()
/// }
/// try writer.endElement()
/// try writer.finish()
/// ```
///
/// **Well-formed, or an error.** Every call checks what it would write and throws
/// ``XMLWriterError`` rather than write anything that would not be well-formed XML 1.0 with
/// namespaces: a name that is not an XML name, an end tag that does not match, a second
/// root element, text outside the root, `--` in a comment, `?>` in a processing
/// instruction, a character XML cannot carry (U+0000, other C0 controls, U+FFFE, U+FFFF).
/// A refused call writes nothing, so the document can go on.
///
/// **Escaping.** Text escapes `&`, `<`, `>` and carriage returns; attribute values also
/// `"`, tabs and line feeds, so that they read back as written after attribute-value
/// normalisation; `]]>` in a CDATA section is split between two sections.
///
/// **Namespaces.** An element or attribute given a `namespace` is written with a prefix
/// bound to it: the one written in its name (`"atom:link"`) if any, declared where it is not
/// bound; otherwise a prefix already bound to the URI in scope, else the default namespace
/// (or, for an attribute, a new prefix `ns1`, `ns2`…), declared on the element. Without a
/// `namespace`, a name is written as given: its prefix must be bound in scope (by an
/// `xmlns:p` attribute, which may be among the element's own). `namespace: ""` puts an
/// unprefixed element in no namespace, undeclaring a default namespace in scope.
///
/// An `XMLWriter` is used by one thread at a time.
public final class XMLWriter {
    // The state below is the writer's own: only its extensions (`XMLWriter+*.swift`) use it.
    // The writer is used by one thread at a time and no access to its state overlaps
    // another (no call hands a property inout to code that reaches the writer again), so
    // the hot properties skip the run-time exclusivity checks, as the engine's do.
    let output: XMLOutput
    var sink: any XMLOutputWriter
    let options: Options
    /// The output's ``XMLOutput/chunkSize``: the buffer is handed over once it holds as much.
    let chunkSize: Int
    @exclusivity(unchecked) var buffer = TextBuffer()
    @exclusivity(unchecked) var scope = NamespaceScope()
    @exclusivity(unchecked) var open = OpenElementStack()
    /// The attributes of the start tag being written, while it takes more: their expanded
    /// names (namespace URI, local name) and the names written.
    @exclusivity(unchecked) var startTagAttributes: [(uri: String, local: String, written: String)] = []
    @exclusivity(unchecked) var startTagIsOpen = false
    /// Whether the open start tag was copied from a parse (``startElement(copying:)``):
    /// its attributes' names are then in ``copiedAttributeNames``, not yet in ``startTagAttributes``.
    @exclusivity(unchecked) var startTagIsCopied = false
    /// The names of a copied start tag's attributes, each followed by a 0 byte.
    @exclusivity(unchecked) var copiedAttributeNames = TextBuffer(capacity: 256)
    /// The copied start tag as written from the document's bytes, when it was written so:
    /// its attributes' names are read from it only when asked for (``copiedAttributeNames``
    /// is empty then).
    @exclusivity(unchecked) var copiedStartTag = TextBuffer(capacity: 256)
    @exclusivity(unchecked) var copiedStartTagIsRaw = false
    /// The last name a copied start tag was renamed to: name id, table, local name given, name written.
    @exclusivity(unchecked) var lastRenamed: (id: Int32, names: NameTable, localName: String, name: String)?
    /// What start tags copied so far told of the parse's element names (``CopiedNameCache``).
    @exclusivity(unchecked) var copiedNameCache = CopiedNameCache()
    @exclusivity(unchecked) var verifiedAttributeBinding = VerifiedBinding()
    @exclusivity(unchecked) var state = State.prolog
    /// Whether the buffer is kept from the output while calls that must all be written or
    /// none run (``atomically(_:)``).
    @exclusivity(unchecked) var holdsBuffer = false

    enum State {
        case prolog, inRoot, epilog, finished, failed
    }

    /// Makes a writer to `output`, which it opens (a file is created, or emptied).
    ///
    /// - Throws: ``XMLWriterError`` with ``XMLWriterError/Code/outputFailed`` when a file
    ///   cannot be created; what a writer of your own's maker throws, as it is.
    public init(to output: XMLOutput, options: Options = .compact) throws {
        self.output = output
        self.options = options
        sink = try output.makeWriter()
        chunkSize = output.chunkSize
        buffer = TextBuffer(capacity: output.chunkSize + 1024)
        if options.writesDeclaration {
            buffer.appendBytes(#"<?xml version="1.0" encoding="UTF-8"?>"#)
            buffer.append(UInt8(ascii: "\n"))
        }
    }

    /// How many elements are open.
    public var depth: Int { open.count }

    // MARK: Elements

    /// Writes a start tag, with the namespace declarations its names need.
    ///
    /// ```swift
    /// try writer.startElement("link", attributes: ["rel": "alternate", "href": url])
    /// try writer.startElement("p:item", namespace: "urn:p")        // <p:item xmlns:p="urn:p">
    /// try writer.startElement("r", attributes: ["xmlns:x": "urn:x", "x:id": "1"])
    /// ```
    ///
    /// - Parameters:
    ///   - name: The element's name, `local` or `prefix:local`.
    ///   - namespace: The namespace URI the element is in; `nil` writes `name` as it is,
    ///     in the default namespace in scope (its prefix must be bound); `""` puts an
    ///     unprefixed element in no namespace.
    ///   - attributes: Its attributes, in order, names as written (`xmlns` and `xmlns:p`
    ///     declare namespaces; a prefixed name's prefix must be bound). Attributes in a
    ///     namespace, by URI: ``attribute(_:namespace:value:)``.
    /// - Throws: ``XMLWriterError``: ``XMLWriterError/Code/invalidName``,
    ///   ``XMLWriterError/Code/invalidNamespace``, ``XMLWriterError/Code/invalidAttribute``
    ///   (the same name twice), ``XMLWriterError/Code/invalidCharacter`` in a value,
    ///   ``XMLWriterError/Code/outsideRootElement`` for a second root.
    public func startElement(_ name: String, namespace: String? = nil, attributes: KeyValuePairs<String, String> = [:]) throws {
        try startElement(name, namespace: namespace, attributes: attributes.map { ($0.key, nil, $0.value) })
    }

    /// Writes a start tag with attributes as a parse reports them: each written with its
    /// prefix where that can be bound to its namespace, as
    /// ``attribute(_:namespace:value:)`` writes one. A document copied through keeps its
    /// names:
    ///
    /// ```swift
    /// dispatcher.onAnyStart { element in
    ///     try writer.startElement(element.name, namespace: element.namespaceURI, attributes: element.attributes)
    /// }
    /// ```
    ///
    /// - Throws: As ``startElement(_:namespace:attributes:)-(_,_,KeyValuePairs<String,String>)``.
    public func startElement(
        _ name: String, namespace: String?, attributes: some Sequence<ElementAttributes.Attribute>
    ) throws {
        try startElement(name, namespace: namespace, attributes: attributes.map { ($0.name, $0.namespaceURI, $0.value) })
    }

    /// Writes a start tag: every name and value checked, and the declarations they need
    /// worked out, before anything is written.
    func startElement(_ name: String, namespace: String?, attributes: [(name: String, namespace: String?, value: String)]) throws {
        try checkWritable()
        guard state != .epilog else { throw refusal(.outsideRootElement, "a second root element <\(name)>") }
        let (prefix, local) = try split(name, what: "element")
        for attribute in attributes { try checkCharacters(attribute.value, in: "the value of attribute \(attribute.name)") }

        // The scope is restored if a check fails.
        let bindingStart = scope.count
        var tagAttributes: [(uri: String, local: String, written: String)] = []
        var declarations: [(prefix: String, uri: String)] = []
        var written: [(name: String, value: String)] = []
        do {
            for attribute in attributes where attribute.namespace == nil {
                guard let declared = try declaration(attribute.name, attribute.value) else { continue }
                if scope.declares(declared, from: bindingStart) || declarations.contains(where: { $0.prefix == declared }) {
                    throw refusal(.invalidAttribute, "namespace prefix \"\(declared)\" declared twice on <\(name)>")
                }
                if declared != "xml" { scope.declare(declared, attribute.value) }
                declarations.append((declared, attribute.value))
            }
            let elementPrefix = try self.elementPrefix(prefix, local, namespace: namespace, bindingStart: bindingStart)
            for attribute in attributes where attribute.namespace != nil || Self.declaredPrefix(attribute.name) == nil {
                let resolved = try resolve(
                    attribute.name, namespace: attribute.namespace, bindingStart: bindingStart,
                    inUse: Self.prefixes(element: elementPrefix[...], attributes: tagAttributes))
                if tagAttributes.contains(where: { $0.uri == resolved.uri && $0.local == resolved.local }) {
                    throw refusal(.invalidAttribute, "attribute \(attribute.name) twice on <\(name)>")
                }
                tagAttributes.append(resolved)
                written.append((resolved.written, attribute.value))
            }
            closeStartTag()
            beginLine(for: .element)
            let writtenName = elementPrefix.isEmpty ? local : elementPrefix + ":" + local
            buffer.append(UInt8(ascii: "<"))
            appendUTF8(writtenName)
            // The writer's own declarations, then the user's with the attributes, in order.
            for binding in scope.declared(from: bindingStart)
            where !declarations.contains(where: { $0.prefix == binding.prefix && $0.uri == binding.uri }) {
                appendDeclaration(binding)
            }
            for declaration in declarations { appendDeclaration(declaration) }
            for attribute in written { appendAttribute(attribute.name, attribute.value) }
            open.push(written: writtenName, given: name, bindingStart: bindingStart)
            startTagAttributes = tagAttributes
            startTagIsOpen = true
            state = .inRoot
            try flushIfFull()
        } catch let error as XMLWriterError {
            scope.end(at: bindingStart)
            throw error
        }
    }

    /// Adds an attribute to the start tag just written, before any content.
    ///
    /// ```swift
    /// try writer.startElement("schema")
    /// try writer.attribute("type", namespace: "http://www.w3.org/2001/XMLSchema-instance", value: "xs:string")
    /// ```
    ///
    /// - Parameters:
    ///   - name: `local` or `prefix:local`.
    ///   - namespace: The attribute's namespace URI: its prefix is the one in `name` where
    ///     that can be bound to it on this element, else one bound to it in scope, else a
    ///     new one (`ns1`…), declared here. `nil`: `name` as written, its prefix bound in scope.
    ///   - value: The value, escaped.
    /// - Throws: ``XMLWriterError``: ``XMLWriterError/Code/invalidAttribute`` once content
    ///   was written or for a name the element has, and the codes of
    ///   ``startElement(_:namespace:attributes:)-(_,_,KeyValuePairs<String,String>)``.
    public func attribute(_ name: String, namespace: String? = nil, value: String) throws {
        try checkWritable()
        guard startTagIsOpen, !open.isEmpty else {
            throw refusal(.invalidAttribute, "attribute \(name) after the start tag's content began")
        }
        recordCopiedAttributes()
        try checkCharacters(value, in: "the value of attribute \(name)")
        let bindingStart = open.top.bindingStart
        if let declared = try declaration(name, value) {
            // A namespace declaration: in scope from this element on. It may not change
            // what the names already written in the tag mean.
            if scope.declares(declared, from: bindingStart) {
                throw refusal(.invalidAttribute, "namespace prefix \"\(declared)\" declared twice on <\(open.topGiven)>")
            }
            if declared != "xml" && Self.prefixes(element: open.topPrefix, attributes: startTagAttributes).contains(declared[...]) {
                throw refusal(.invalidNamespace, "declaring \"\(declared)\" on <\(open.topGiven)> would change the namespace of a name in its tag")
            }
            if declared != "xml" { scope.declare(declared, value) }
            appendAttribute(name, value)
            return
        }
        let before = scope.count
        let resolved = try resolve(
            name, namespace: namespace, bindingStart: bindingStart,
            inUse: Self.prefixes(element: open.topPrefix, attributes: startTagAttributes))
        if startTagAttributes.contains(where: { $0.uri == resolved.uri && $0.local == resolved.local }) {
            scope.end(at: before)
            throw refusal(.invalidAttribute, "attribute \(name) twice on <\(open.topGiven)>")
        }
        for binding in scope.declared(from: before) { appendDeclaration(binding) }
        startTagAttributes.append(resolved)
        appendAttribute(resolved.written, value)
    }

    /// Writes the end tag of the innermost open element (`<name/>` when it had no content).
    ///
    /// - Parameter name: When given, the name the element was started with, checked.
    /// - Throws: ``XMLWriterError/Code/mismatchedEndTag`` with no element open, or when
    ///   `name` is another.
    public func endElement(_ name: String? = nil) throws {
        try checkWritable()
        guard !open.isEmpty else {
            throw refusal(.mismatchedEndTag, "an end tag\(name.map { " </\($0)>" } ?? "") with no element open")
        }
        if let name, !open.topIsGiven(name) {
            throw refusal(.mismatchedEndTag, "the end tag </\(name)> closes <\(open.topGiven)>")
        }
        let element = open.top
        if startTagIsOpen {
            buffer.append(UInt8(ascii: "/"))
            buffer.append(UInt8(ascii: ">"))
            startTagIsOpen = false
            startTagIsCopied = false
        } else {
            if element.hasChildren && !element.hasText { beginLine(for: .endTag) }
            buffer.append(UInt8(ascii: "<"))
            buffer.append(UInt8(ascii: "/"))
            buffer.appendBytes(open.topWrittenBytes)
            buffer.append(UInt8(ascii: ">"))
        }
        open.pop()
        scope.end(at: element.bindingStart)
        if open.isEmpty { state = .epilog }
        try flushIfFull()
    }

    /// Writes an element with only text in it: its start tag, the text, its end tag.
    ///
    /// - Throws: As ``startElement(_:namespace:attributes:)-(_,_,KeyValuePairs<String,String>)`` and ``text(_:)``.
    public func element(
        _ name: String, namespace: String? = nil, attributes: KeyValuePairs<String, String> = [:], text: String
    ) throws {
        try checkCharacters(text, in: "the text of <\(name)>")
        try startElement(name, namespace: namespace, attributes: attributes)
        try self.text(text)
        try endElement()
    }

    // MARK: Output

    /// Hands what is gathered to the output now.
    ///
    /// - Throws: ``XMLWriterError/Code/outputFailed``, or what a writer of your own throws.
    public func flush() throws {
        try checkWritable()
        try writeBuffer()
    }

    /// Ends the document: checks it is complete, writes what is gathered and closes the
    /// output (a file; a descriptor given stays open). The writer takes no more calls.
    ///
    /// - Throws: ``XMLWriterError/Code/unfinishedDocument`` while elements are open or
    ///   before a root element was written (the writer is unchanged and can go on);
    ///   ``XMLWriterError/Code/outputFailed``.
    public func finish() throws {
        try checkWritable()
        guard open.isEmpty else {
            throw refusal(.unfinishedDocument, "<\(open.topGiven)> and \(open.count - 1) more elements are open")
        }
        guard state == .epilog else { throw refusal(.unfinishedDocument, "the document has no root element") }
        if options.indentation != nil { buffer.append(UInt8(ascii: "\n")) }
        try writeBuffer()
        do {
            try sink.close()
        } catch {
            state = .failed
            throw error
        }
        state = .finished
    }

    // MARK: Internals

    @inline(__always)
    func checkWritable() throws {
        if _fastPath(state != .finished && state != .failed) { return }
        try refuseWriting()
    }

    private func refuseWriting() throws {
        switch state {
        case .finished: throw refusal(.unfinishedDocument, "the document was finished")
        case .failed: throw refusal(.outputFailed, "an earlier write to the output failed")
        default: break
        }
    }

    func refusal(_ code: XMLWriterError.Code, _ message: String) -> XMLWriterError {
        XMLWriterError(code: code, message: message, output: output.name)
    }

    /// Appends a string's UTF-8 bytes as they are.
    @inline(__always)
    func appendUTF8(_ string: String) {
        buffer.append(utf8: string)
    }

    func appendDeclaration(_ binding: (prefix: String, uri: String)) {
        var prefix = binding.prefix
        var uri = binding.uri
        prefix.withUTF8 { prefix in
            uri.withUTF8 { uri in appendDeclaration(prefix: UnsafeRawBufferPointer(prefix), uri: UnsafeRawBufferPointer(uri)) }
        }
    }

    /// Writes a declaration as a parse reported it (UTF-8; no prefix for the default namespace).
    func appendDeclaration(prefix: UnsafeRawBufferPointer?, uri: UnsafeRawBufferPointer) {
        buffer.append(UInt8(ascii: " "))
        buffer.append(utf8: "xmlns")
        if let prefix, !prefix.isEmpty {
            buffer.append(UInt8(ascii: ":"))
            buffer.appendBytes(prefix)
        }
        buffer.append(UInt8(ascii: "="))
        buffer.append(UInt8(ascii: "\""))
        XMLEscaping.appendAttributeValue(uri, to: &buffer)
        buffer.append(UInt8(ascii: "\""))
    }

    func appendAttribute(_ name: String, _ value: String) {
        buffer.append(UInt8(ascii: " "))
        appendUTF8(name)
        buffer.append(UInt8(ascii: "="))
        buffer.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { XMLEscaping.appendAttributeValue(UnsafeRawBufferPointer($0), to: &buffer) }
        buffer.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    func closeStartTag() {
        guard startTagIsOpen else { return }
        buffer.append(UInt8(ascii: ">"))
        startTagIsOpen = false
        startTagIsCopied = false
        if !startTagAttributes.isEmpty { startTagAttributes.removeAll(keepingCapacity: true) }
    }

    enum LineStart { case element, endTag }

    /// With indentation, a line break and the indentation before markup on a line of its
    /// own: not inside an element with text, and not before the first root.
    @inline(__always)
    func beginLine(for kind: LineStart) {
        guard options.indentation != nil else { return }
        if !open.isEmpty && kind == .element {
            open.markTopHasChildren()
            if open.top.hasText { return }
        }
        guard let indentation = options.indentation, !buffer.isEmpty || state != .prolog else { return }
        if state == .prolog && buffer.last == UInt8(ascii: "\n") { return }
        buffer.append(UInt8(ascii: "\n"))
        // An element's start tag is indented by the elements around it; its end tag, which is
        // written while it is still open, at the same depth.
        let depth = kind == .endTag ? open.count - 1 : open.count
        for _ in 0..<(indentation * depth) { buffer.append(UInt8(ascii: " ")) }
    }

    @inline(__always)
    func flushIfFull() throws {
        if _slowPath(buffer.count >= chunkSize) && !holdsBuffer { try writeBuffer() }
    }

    func writeBuffer() throws {
        guard !buffer.isEmpty else { return }
        do {
            try sink.write(buffer.bytes(from: 0))
        } catch {
            state = .failed
            throw error
        }
        buffer.truncate(to: 0)
    }
}

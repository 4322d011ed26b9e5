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
    /// How the document is laid out.
    public struct Options: Sendable {
        /// Spaces per level of nesting before each start tag, end tag, comment and
        /// processing instruction on a line of its own; `nil` (the default) writes no white
        /// space of its own. Inside an element, nothing is added once text was written in it;
        /// the white space added before its first text stays, part of its content. Indent
        /// documents whose elements hold text or elements, not both.
        public var indentation: Int?
        /// Whether the document begins with `<?xml version="1.0" encoding="UTF-8"?>` (the
        /// default). The output is always UTF-8.
        public var writesDeclaration: Bool

        /// Options as given.
        public init(indentation: Int? = nil, writesDeclaration: Bool = true) {
            self.indentation = indentation
            self.writesDeclaration = writesDeclaration
        }

        /// No white space added, and the XML declaration.
        public static let compact = Options()
        /// Two spaces a level, and the XML declaration.
        public static let indented = Options(indentation: 2)
    }

    private let output: XMLOutput
    private var sink: any XMLOutputWriter
    private let options: Options
    private var buffer: [UInt8] = []
    private var scope = NamespaceScope()
    private var open: [OpenElement] = []
    /// The attributes of the start tag being written, while it takes more: their expanded
    /// names (namespace URI, local name) and the names written.
    private var startTagAttributes: [(uri: String, local: String, written: String)] = []
    private var startTagIsOpen = false
    private var state = State.prolog

    private enum State {
        case prolog, inRoot, epilog, finished, failed
    }

    private struct OpenElement {
        /// The name as given to ``XMLWriter/startElement(_:namespace:attributes:)-(_,_,KeyValuePairs<String,String>)``.
        let given: String
        /// The name written in its tags, and its prefix (`""` for none).
        let written: [UInt8]
        let prefix: String
        let bindingStart: Int
        var hasChildren = false
        var hasText = false
    }

    /// Makes a writer to `output`, which it opens (a file is created, or emptied).
    ///
    /// - Throws: ``XMLWriterError`` with ``XMLWriterError/Code/outputFailed`` when a file
    ///   cannot be created; what a writer of your own's maker throws, as it is.
    public init(to output: XMLOutput, options: Options = .compact) throws {
        self.output = output
        self.options = options
        sink = try output.makeWriter()
        buffer.reserveCapacity(output.chunkSize + 1024)
        if options.writesDeclaration {
            buffer.append(contentsOf: #"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)
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
    private func startElement(_ name: String, namespace: String?, attributes: [(name: String, namespace: String?, value: String)]) throws {
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
                let resolved = try resolve(attribute.name, namespace: attribute.namespace, bindingStart: bindingStart)
                if tagAttributes.contains(where: { $0.uri == resolved.uri && $0.local == resolved.local }) {
                    throw refusal(.invalidAttribute, "attribute \(attribute.name) twice on <\(name)>")
                }
                tagAttributes.append(resolved)
                written.append((resolved.written, attribute.value))
            }
            closeStartTag()
            beginLine(for: .element)
            let writtenName = Array((elementPrefix.isEmpty ? local : elementPrefix + ":" + local).utf8)
            buffer.append(UInt8(ascii: "<"))
            buffer.append(contentsOf: writtenName)
            // The writer's own declarations, then the user's with the attributes, in order.
            for binding in scope.declared(from: bindingStart)
            where !declarations.contains(where: { $0.prefix == binding.prefix && $0.uri == binding.uri }) {
                appendDeclaration(binding)
            }
            for declaration in declarations { appendDeclaration(declaration) }
            for attribute in written { appendAttribute(attribute.name, attribute.value) }
            open.append(OpenElement(given: name, written: writtenName, prefix: elementPrefix, bindingStart: bindingStart))
            startTagAttributes = tagAttributes
            startTagIsOpen = true
            state = .inRoot
            try flushIfFull()
        } catch let error as XMLWriterError {
            scope.end(at: bindingStart)
            throw error
        }
    }

    /// An attribute's expanded name and the name it is written with on the element whose
    /// bindings begin at `bindingStart`, declaring there the prefix it needs.
    private func resolve(
        _ name: String, namespace: String?, bindingStart: Int
    ) throws -> (uri: String, local: String, written: String) {
        let (prefix, local) = try split(name, what: "attribute")
        if let namespace, !namespace.isEmpty {
            guard namespace != NamespaceScope.xmlnsNamespace else {
                throw refusal(.invalidNamespace, "attribute \(name) in the xmlns namespace: declare namespaces with xmlns attributes")
            }
            let chosen = scope.attributePrefix(for: namespace, written: prefix, from: bindingStart)
            return (namespace, local, chosen + ":" + local)
        }
        guard let prefix else { return ("", local, local) }
        guard namespace == nil, let bound = scope.uri(boundTo: prefix), !bound.isEmpty else {
            throw refusal(.invalidNamespace, "prefix \"\(prefix)\" of attribute \(name) is bound to no namespace")
        }
        return (bound, local, name)
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
        guard startTagIsOpen, let element = open.last else {
            throw refusal(.invalidAttribute, "attribute \(name) after the start tag's content began")
        }
        try checkCharacters(value, in: "the value of attribute \(name)")
        let bindingStart = element.bindingStart
        if let declared = try declaration(name, value) {
            // A namespace declaration: in scope from this element on. It may not change
            // what the names already written in the tag mean.
            if scope.declares(declared, from: bindingStart) {
                throw refusal(.invalidAttribute, "namespace prefix \"\(declared)\" declared twice on <\(element.given)>")
            }
            let usedPrefixes = [element.prefix] + startTagAttributes.compactMap { $0.written.split(separator: ":").dropLast().first.map(String.init) }
            if declared != "xml" && usedPrefixes.contains(declared) {
                throw refusal(.invalidNamespace, "declaring \"\(declared)\" on <\(element.given)> would change the namespace of a name in its tag")
            }
            if declared != "xml" { scope.declare(declared, value) }
            appendAttribute(name, value)
            return
        }
        let before = scope.count
        let resolved = try resolve(name, namespace: namespace, bindingStart: bindingStart)
        if startTagAttributes.contains(where: { $0.uri == resolved.uri && $0.local == resolved.local }) {
            scope.end(at: before)
            throw refusal(.invalidAttribute, "attribute \(name) twice on <\(element.given)>")
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
        guard let element = open.last else {
            throw refusal(.mismatchedEndTag, "an end tag\(name.map { " </\($0)>" } ?? "") with no element open")
        }
        if let name, name != element.given {
            throw refusal(.mismatchedEndTag, "the end tag </\(name)> closes <\(element.given)>")
        }
        open.removeLast()
        if startTagIsOpen {
            buffer.append(contentsOf: "/>".utf8)
            startTagIsOpen = false
        } else {
            if element.hasChildren && !element.hasText { beginLine(for: .endTag) }
            buffer.append(contentsOf: "</".utf8)
            buffer.append(contentsOf: element.written)
            buffer.append(UInt8(ascii: ">"))
        }
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

    // MARK: Content

    /// Writes character data, escaped. Outside the root element only white space may be
    /// written.
    ///
    /// - Throws: ``XMLWriterError/Code/invalidCharacter``,
    ///   ``XMLWriterError/Code/outsideRootElement``.
    public func text(_ text: String) throws {
        try checkWritable()
        var text = text
        try text.withUTF8 { try self.text(UnsafeRawBufferPointer($0)) }
    }

    /// Writes UTF-8 character data, escaped (see ``text(_:)``).
    func text(_ utf8: UnsafeRawBufferPointer) throws {
        guard !utf8.isEmpty else { return }
        if let invalid = XMLEscaping.firstInvalidCharacter(in: utf8) {
            throw refusal(.invalidCharacter, "text holds a character XML cannot carry at byte \(invalid)")
        }
        guard state == .inRoot else {
            guard utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
                throw refusal(.outsideRootElement, "text outside the root element")
            }
            // As it is: a character reference (`&#13;`) may not stand outside the root.
            buffer.append(contentsOf: utf8)
            return try flushIfFull()
        }
        closeStartTag()
        open[open.count - 1].hasText = true
        XMLEscaping.appendText(utf8, to: &buffer)
        try flushIfFull()
    }

    /// Writes `text` as a CDATA section (two or more where it holds `]]>`), inside the
    /// root element.
    ///
    /// - Throws: ``XMLWriterError/Code/invalidCharacter``,
    ///   ``XMLWriterError/Code/outsideRootElement``.
    public func cdata(_ text: String) throws {
        try checkWritable()
        try checkCharacters(text, in: "a CDATA section")
        guard state == .inRoot else { throw refusal(.outsideRootElement, "a CDATA section outside the root element") }
        closeStartTag()
        open[open.count - 1].hasText = true
        var text = text
        text.withUTF8 { XMLEscaping.appendCDATA(UnsafeRawBufferPointer($0), to: &buffer) }
        try flushIfFull()
    }

    /// Writes a comment, `<!--text-->`, anywhere in the document.
    ///
    /// - Throws: ``XMLWriterError/Code/invalidComment`` for `--` in `text` or a `-` at its
    ///   end; ``XMLWriterError/Code/invalidCharacter``.
    public func comment(_ text: String) throws {
        try checkWritable()
        try checkCharacters(text, in: "a comment")
        if text.utf8.last == UInt8(ascii: "-") || text.contains("--") {
            throw refusal(.invalidComment, "a comment may hold neither \"--\" nor end with \"-\"")
        }
        closeStartTag()
        beginLine(for: .element)
        buffer.append(contentsOf: "<!--".utf8)
        buffer.append(contentsOf: text.utf8)
        buffer.append(contentsOf: "-->".utf8)
        try flushIfFull()
    }

    /// Writes a processing instruction, `<?target data?>`, anywhere in the document.
    ///
    /// - Throws: ``XMLWriterError/Code/invalidName`` for a target that is not an NCName;
    ///   ``XMLWriterError/Code/invalidProcessingInstruction`` for the target `xml` (in any
    ///   case) or `?>` in `data`; ``XMLWriterError/Code/invalidCharacter``.
    public func processingInstruction(_ target: String, _ data: String = "") throws {
        try checkWritable()
        guard XMLNameSyntax.isNCName(target[...]) else {
            throw refusal(.invalidName, "\"\(target)\" is not a processing instruction target")
        }
        guard target.lowercased() != "xml" else {
            throw refusal(.invalidProcessingInstruction, "the target \"xml\" is reserved for the XML declaration")
        }
        try checkCharacters(data, in: "a processing instruction")
        guard !data.contains("?>") else { throw refusal(.invalidProcessingInstruction, "processing instruction data holds \"?>\"") }
        closeStartTag()
        beginLine(for: .element)
        buffer.append(contentsOf: "<?".utf8)
        buffer.append(contentsOf: target.utf8)
        if !data.isEmpty {
            buffer.append(UInt8(ascii: " "))
            buffer.append(contentsOf: data.utf8)
        }
        buffer.append(contentsOf: "?>".utf8)
        try flushIfFull()
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
            throw refusal(.unfinishedDocument, "<\(open.last?.given ?? "")> and \(open.count - 1) more elements are open")
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

    private func checkWritable() throws {
        switch state {
        case .finished: throw refusal(.unfinishedDocument, "the document was finished")
        case .failed: throw refusal(.outputFailed, "an earlier write to the output failed")
        default: break
        }
    }

    private func refusal(_ code: XMLWriterError.Code, _ message: String) -> XMLWriterError {
        XMLWriterError(code: code, message: message, output: output.name)
    }

    /// The element's prefix, declaring what its namespace needs.
    private func elementPrefix(_ prefix: String?, _ local: String, namespace: String?, bindingStart: Int) throws -> String {
        let name = prefix.map { $0 + ":" + local } ?? local
        guard let namespace else {
            if prefix == "xmlns" { throw refusal(.invalidNamespace, "<\(name)>: the prefix xmlns is reserved") }
            if let prefix, prefix != "xml" {
                guard let bound = scope.uri(boundTo: prefix), !bound.isEmpty else {
                    throw refusal(.invalidNamespace, "prefix \"\(prefix)\" of <\(name)> is bound to no namespace")
                }
            }
            return prefix ?? ""
        }
        if namespace.isEmpty {
            if prefix != nil { throw refusal(.invalidNamespace, "<\(name)> has a prefix and no namespace") }
            if let inherited = scope.uri(boundTo: ""), !inherited.isEmpty, scope.declares("", from: bindingStart) {
                throw refusal(.invalidNamespace, "<\(name)> is in no namespace, and declares a default namespace")
            }
            return scope.elementPrefix(for: "", written: nil, from: bindingStart, reusesBoundPrefix: true)
        }
        if namespace == NamespaceScope.xmlnsNamespace || (namespace == NamespaceScope.xmlNamespace && prefix != "xml") {
            throw refusal(.invalidNamespace, "<\(name)> in a namespace reserved for xml and xmlns")
        }
        if prefix == "xmlns" || (prefix == "xml" && namespace != NamespaceScope.xmlNamespace) {
            throw refusal(.invalidNamespace, "<\(name)>: the prefix \(prefix ?? "") is reserved")
        }
        if let prefix, scope.declares(prefix, from: bindingStart), scope.uri(boundTo: prefix) != namespace {
            throw refusal(.invalidNamespace, "<\(name)> declares \"\(prefix)\" for another namespace")
        }
        return scope.elementPrefix(for: namespace, written: prefix, from: bindingStart, reusesBoundPrefix: true)
    }

    /// The prefix an `xmlns` or `xmlns:p` attribute declares (`""` for the default
    /// namespace), after checking the declaration may be written; `nil` for another name.
    private func declaration(_ name: String, _ uri: String) throws -> String? {
        guard let prefix = Self.declaredPrefix(name) else { return nil }
        let refuse = { (message: String) in self.refusal(.invalidNamespace, message) }
        if prefix == "xml" {
            guard uri == NamespaceScope.xmlNamespace else { throw refuse("the prefix xml is bound to \(NamespaceScope.xmlNamespace) only") }
            return prefix
        }
        if prefix == "xmlns" { throw refuse("the prefix xmlns cannot be declared") }
        if !prefix.isEmpty && !XMLNameSyntax.isNCName(prefix[...]) {
            throw refusal(.invalidName, "\"\(prefix)\" is not a namespace prefix")
        }
        if !prefix.isEmpty && uri.isEmpty { throw refuse("the prefix \(prefix) cannot be undeclared in XML 1.0") }
        if uri == NamespaceScope.xmlNamespace || uri == NamespaceScope.xmlnsNamespace {
            throw refuse("\(uri) is bound to xml or xmlns only")
        }
        return prefix
    }

    /// The prefix `name` declares when it is `xmlns` (`""`) or `xmlns:p` (`p`).
    private static func declaredPrefix(_ name: String) -> String? {
        if name == "xmlns" { return "" }
        return name.hasPrefix("xmlns:") ? String(name.dropFirst(6)) : nil
    }

    /// `name`'s prefix and local part, each checked: an NCName, or two joined by one colon.
    private func split(_ name: String, what: String) throws -> (prefix: String?, local: String) {
        let parts = name.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        switch parts.count {
        case 1 where XMLNameSyntax.isNCName(parts[0]):
            return (nil, name)
        case 2 where XMLNameSyntax.isNCName(parts[0]) && XMLNameSyntax.isNCName(parts[1]):
            return (String(parts[0]), String(parts[1]))
        default:
            throw refusal(.invalidName, "\"\(name)\" is not an XML \(what) name")
        }
    }

    private func checkCharacters(_ text: String, in what: String) throws {
        var text = text
        if let invalid = text.withUTF8({ XMLEscaping.firstInvalidCharacter(in: UnsafeRawBufferPointer($0)) }) {
            throw refusal(.invalidCharacter, "\(what) holds a character XML cannot carry at byte \(invalid)")
        }
    }

    private func appendDeclaration(_ binding: (prefix: String, uri: String)) {
        appendAttribute(binding.prefix.isEmpty ? "xmlns" : "xmlns:" + binding.prefix, binding.uri)
    }

    private func appendAttribute(_ name: String, _ value: String) {
        buffer.append(UInt8(ascii: " "))
        buffer.append(contentsOf: name.utf8)
        buffer.append(contentsOf: "=\"".utf8)
        var value = value
        value.withUTF8 { XMLEscaping.appendAttributeValue(UnsafeRawBufferPointer($0), to: &buffer) }
        buffer.append(UInt8(ascii: "\""))
    }

    private func closeStartTag() {
        guard startTagIsOpen else { return }
        buffer.append(UInt8(ascii: ">"))
        startTagIsOpen = false
        startTagAttributes.removeAll(keepingCapacity: true)
    }

    private enum LineStart { case element, endTag }

    /// With indentation, a line break and the indentation before markup on a line of its
    /// own: not inside an element with text, and not before the first root.
    private func beginLine(for kind: LineStart) {
        if !open.isEmpty && kind == .element {
            open[open.count - 1].hasChildren = true
            if open[open.count - 1].hasText { return }
        }
        guard let indentation = options.indentation, !buffer.isEmpty || state != .prolog else { return }
        if state == .prolog && buffer.last == UInt8(ascii: "\n") { return }
        buffer.append(UInt8(ascii: "\n"))
        buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indentation * open.count))
    }

    private func flushIfFull() throws {
        if buffer.count >= output.chunkSize { try writeBuffer() }
    }

    private func writeBuffer() throws {
        guard !buffer.isEmpty else { return }
        do {
            try buffer.withUnsafeBytes { try sink.write($0) }
        } catch {
            state = .failed
            throw error
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

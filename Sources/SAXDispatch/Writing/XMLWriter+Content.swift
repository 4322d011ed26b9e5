/// Character data, CDATA sections, comments and processing instructions.
extension XMLWriter {
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
    ///
    /// - Parameter isFromParse: Whether the bytes are character data a parse reported,
    ///   whose characters the parser checked: they are not scanned again.
    func text(_ utf8: UnsafeRawBufferPointer, isFromParse: Bool = false) throws {
        try checkWritable()
        guard !utf8.isEmpty else { return }
        if !isFromParse, let invalid = XMLEscaping.firstInvalidCharacter(in: utf8) {
            throw refusal(.invalidCharacter, "text holds a character XML cannot carry at byte \(invalid)")
        }
        guard state == .inRoot else {
            guard utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
                throw refusal(.outsideRootElement, "text outside the root element")
            }
            // As it is: a character reference (`&#13;`) may not stand outside the root.
            buffer.appendBytes(utf8)
            return try flushIfFull()
        }
        closeStartTag()
        if options.indentation != nil { open.markTopHasText() }
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
        if options.indentation != nil { open.markTopHasText() }
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
        buffer.appendBytes("<!--")
        buffer.append(utf8: text)
        buffer.appendBytes("-->")
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
        buffer.appendBytes("<?")
        buffer.append(utf8: target)
        if !data.isEmpty {
            buffer.append(UInt8(ascii: " "))
            buffer.append(utf8: data)
        }
        buffer.appendBytes("?>")
        try flushIfFull()
    }
}

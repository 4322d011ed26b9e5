extension XMLRecordDecoder {
    /// Decodes each element matching `pattern` in a document as a `T`, and calls `body`
    /// with it once the element has ended, in document order, in constant memory.
    ///
    /// ```swift
    /// try XMLRecordDecoder().forEach(Page.self, at: "/mediawiki/page", in: .file("dump.xml")) { page in
    ///     print(page.title)
    /// }
    /// ```
    ///
    /// Outside the matched elements nothing is dispatched; an element matching inside a
    /// matched element is part of it, not decoded on its own.
    ///
    /// - Parameters:
    ///   - type: The type to decode each element as.
    ///   - pattern: Which elements (any ``ElementPattern``).
    ///   - input: The document: a file, a string, bytes, a descriptor, a reader (``XMLInput``).
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    ///   - onWarning: Receives the warnings of the parse once the document has been read:
    ///     the pattern that matched no element, with the names the document had instead
    ///     (``ParseWarning``), and what else the document warned of.
    ///   - body: Receives each value, in document order, once its element has ended (a few
    ///     dozen may be decoded in a row; all before this call returns or throws); an error
    ///     it throws ends the parse and is rethrown as it is.
    /// - Returns: How many values were decoded.
    /// - Throws: ``XMLDecodingError`` for an element that does not decode (the
    ///   `DecodingError`, with the input's name, line, column, element path and text), ``XMLParseError``
    ///   for an element larger than ``maximumRecordBytes`` (``XMLParseError/Code/recordSizeLimitExceeded``), a
    ///   malformed document or a broken ``SafetyProfile`` limit, ``XMLInputError`` if the
    ///   input cannot be opened or read, or what `body` or a custom reader throws. Values
    ///   delivered before the error stay delivered.
    @discardableResult
    public func forEach<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, in input: XMLInput, safety: SafetyProfile = .default,
        onWarning: ((ParseWarning) -> Void)? = nil, _ body: (T) throws -> Void
    ) throws -> Int {
        try withoutActuallyEscaping(body) { body in
            var count = 0
            var dispatcher = dispatcherOwningDocument(T.self, at: pattern, safety: safety) { value in
                count += 1
                try body(value)
            }
            if let onWarning { dispatcher.onWarning(onWarning) }
            do {
                try dispatcher.parse(input)
            } catch let error as HandlerError {
                throw error.underlying
            }
            return count
        }
    }

    /// Every matching element of a document, decoded, in document order. Holds them all:
    /// use ``forEach(_:at:in:safety:onWarning:_:)`` for documents of any size.
    ///
    /// An empty array can mean a document without such elements or a pattern that matched
    /// nothing for want of the right name: `onWarning` tells them apart (see
    /// ``forEach(_:at:in:safety:onWarning:_:)``).
    ///
    /// ```swift
    /// let animals = try XMLRecordDecoder().all(Animal.self, at: "animals/animal", in: .file("zoo.xml")) { print($0) }
    /// ```
    ///
    /// - Throws: As ``forEach(_:at:in:safety:onWarning:_:)``.
    public func all<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, in input: XMLInput, safety: SafetyProfile = .default,
        onWarning: ((ParseWarning) -> Void)? = nil
    ) throws -> [T] {
        var values: [T] = []
        try forEach(T.self, at: pattern, in: input, safety: safety, onWarning: onWarning) { values.append($0) }
        return values
    }

    /// Decodes a document's root element as a `T`.
    ///
    /// ```swift
    /// let account = try XMLRecordDecoder().decode(Account.self, from: .string(xml))
    /// ```
    ///
    /// - Throws: `DecodingError.valueNotFound` for a document without a root element, and
    ///   the errors of ``forEach(_:at:in:safety:onWarning:_:)``.
    public func decode<T: Decodable>(_ type: T.Type, from input: XMLInput, safety: SafetyProfile = .default) throws -> T {
        var value: T?
        try forEach(T.self, at: "/*", in: input, safety: safety) { value = $0 }
        guard let value else {
            throw DecodingError.valueNotFound(
                T.self, .init(codingPath: [], debugDescription: "the document has no root element"))
        }
        return value
    }

    /// `pattern` as this decoder reads it: with ``matchesUnprefixedNamesInAnyNamespace``,
    /// its unprefixed names match their local names in any namespace.
    func readPattern(_ pattern: ElementPattern) -> ElementPattern {
        matchesUnprefixedNamesInAnyNamespace ? pattern.matchingUnprefixedNamesInAnyNamespace() : pattern
    }

    /// A dispatcher that reads only the elements matching `pattern` from a document and
    /// decodes each as a `T` for `deliver`.
    func dispatcherOwningDocument<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, safety: SafetyProfile, deliver: @escaping (T) throws -> Void
    ) -> Dispatcher {
        var dispatcher = Dispatcher()
        dispatcher.safety = safety
        dispatcher.processesNamespaces = processesNamespaces
        dispatcher.namespaces = namespaces
        // Outside the matched elements nothing is dispatched: for an anchored pattern the
        // parser's subtree filter skips it at a few bit operations an element.
        if pattern.isAnchored {
            try? dispatcher.skipAll(except: readPattern(pattern))
            dispatcher.keptSubtreesCountSkippedNames = true
        }
        dispatcher.onDecoded(T.self, at: pattern, using: self, deliver)
        return dispatcher
    }
}

extension Dispatcher {
    /// Decodes each element matching `pattern` as a `T` and calls `handler` with it as the
    /// element ends, next to this dispatcher's other handlers.
    ///
    /// ```swift
    /// var dispatcher = Dispatcher()
    /// dispatcher.onDecoded(Animal.self, at: "animals/animal") { animals.append($0) }
    /// dispatcher.onEnd("zoo/name") { _, text in zooName = text }
    /// try dispatcher.parse(.file("zoo.xml"))
    /// ```
    ///
    /// An element that does not decode ends the parse with a ``HandlerError`` wrapping the
    /// ``XMLDecodingError`` (or the ``XMLParseError`` for an element larger than
    /// ``XMLRecordDecoder/maximumRecordBytes``), whose description the handler error's is.
    ///
    /// The prefixes of `pattern` resolve through the decoder's ``XMLRecordDecoder/namespaces``
    /// first, then through this dispatcher's ``namespaces``; this dispatcher's
    /// ``processesNamespaces`` decides how the document is read.
    ///
    /// Next to other handlers, each value arrives at its element's end tag. When decoded
    /// values are the dispatcher's only handlers, up to 64 finished elements may be decoded
    /// in a row, which is faster; they still arrive in document order, before the parse call
    /// returns and before any later error (see "When values arrive" in the Codable article).
    ///
    /// - Parameters:
    ///   - type: The type to decode each element as.
    ///   - pattern: Which elements.
    ///   - decoder: The conventions and limits (``XMLRecordDecoder`` defaults unless given).
    ///   - handler: Receives each value as its element ends; an error it throws ends the
    ///     parse, wrapped in a ``HandlerError``.
    public mutating func onDecoded<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, using decoder: XMLRecordDecoder = XMLRecordDecoder(),
        _ handler: @escaping (T) throws -> Void
    ) {
        let session = DecodingSession(T.self, options: decoder)
        let slot = ElementDecoder.Slot()
        let capture = SubtreeCapture(
            subtree: session.subtree, rootSchema: { session.schemaForNextElement() },
            wholeTextSchema: session.wholeTextSchema, limit: decoder.maximumRecordBytes, whitespace: decoder.whitespace
        ) { _, root in
            try handler(try session.decode(T.self, root: root, reusing: slot))
        }
        session.recordPath = { [unowned capture] in capture.pathOfDeliveredRecord() }
        // The decoder's bindings resolve the pattern's prefixes; what they leave unbound,
        // this dispatcher's resolve when it parses.
        mount(capture.handlers(), at: decoder.readPattern(pattern).resolvingPrefixes(decoder.namespaces))
    }
}

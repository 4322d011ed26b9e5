#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension XMLRecordDecoder {
    /// Decodes each element matching `pattern` in a file as a `T`, and calls `body` with it
    /// once the element has ended, in document order, in constant memory.
    ///
    /// ```swift
    /// try XMLRecordDecoder().forEach(Page.self, at: "/mediawiki/page", contentsOfFile: "dump.xml") { page in
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
    ///   - path: The path of the file to read.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    ///   - body: Receives each value, in document order, once its element has ended (a few
    ///     dozen may be decoded in a row; all before this call returns or throws); an error
    ///     it throws ends the parse and is rethrown as it is.
    /// - Returns: How many values were decoded.
    /// - Throws: `DecodingError` for an element that does not decode (its description has
    ///   the line, column, element path and text), ``RecordSizeLimitError`` for an element
    ///   larger than ``maximumRecordBytes``, ``XMLParseError`` for a malformed document,
    ///   ``XMLInputError`` if the file cannot be read, or what `body` throws. Values
    ///   delivered before the error stay delivered.
    @discardableResult
    public func forEach<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, contentsOfFile path: String, safety: SafetyProfile = .default,
        _ body: (T) throws -> Void
    ) throws -> Int {
        try run(T.self, at: pattern, source: path, safety: safety, body) { try $0.parse(contentsOfFile: path) }
    }

    /// Decodes each matching element of a local file named by a `file:` URL. See
    /// ``forEach(_:at:contentsOfFile:safety:_:)``.
    ///
    /// - Throws: As ``forEach(_:at:contentsOfFile:safety:_:)``, with ``XMLInputError`` also
    ///   when `url` is not a `file:` URL.
    @discardableResult
    public func forEach<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, contentsOf url: URL, safety: SafetyProfile = .default,
        _ body: (T) throws -> Void
    ) throws -> Int {
        try run(T.self, at: pattern, source: url.isFileURL ? url.path : url.absoluteString, safety: safety, body) {
            try $0.parse(contentsOf: url)
        }
    }

    /// Decodes each matching element of a document held in a string. See
    /// ``forEach(_:at:contentsOfFile:safety:_:)``.
    ///
    /// - Throws: `DecodingError` for an element that does not decode, ``RecordSizeLimitError``
    ///   for an element larger than ``maximumRecordBytes``,
    ///   ``XMLParseError`` for a malformed document or a broken ``SafetyProfile`` limit,
    ///   or what `body` throws. Values delivered before the error stay delivered.
    @discardableResult
    public func forEach<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, in xml: String, safety: SafetyProfile = .default,
        _ body: (T) throws -> Void
    ) throws -> Int {
        try run(T.self, at: pattern, source: nil, safety: safety, body) { try $0.parse(xml) }
    }

    /// Decodes each matching element of a document held in memory as bytes. See
    /// ``forEach(_:at:contentsOfFile:safety:_:)``.
    ///
    /// - Throws: `DecodingError` for an element that does not decode, ``RecordSizeLimitError``
    ///   for an element larger than ``maximumRecordBytes``,
    ///   ``XMLParseError`` for a malformed document or a broken ``SafetyProfile`` limit,
    ///   or what `body` throws. Values delivered before the error stay delivered.
    @discardableResult
    public func forEach<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, in bytes: some Sequence<UInt8>, safety: SafetyProfile = .default,
        _ body: (T) throws -> Void
    ) throws -> Int {
        try run(T.self, at: pattern, source: nil, safety: safety, body) { try $0.parse(bytes) }
    }

    /// Decodes each matching element read from an open file descriptor (standard input, a
    /// pipe); the descriptor is not closed. See ``forEach(_:at:contentsOfFile:safety:_:)``.
    ///
    /// - Parameters:
    ///   - type: The type to decode each element as.
    ///   - pattern: Which elements (any ``ElementPattern``).
    ///   - fileDescriptor: An open descriptor, read in chunks of ``Dispatcher/defaultChunkSize`` bytes.
    ///   - source: A name for the input in error descriptions.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    ///   - body: Receives each value as its element ends; an error it throws ends the parse
    ///     and is rethrown as it is.
    /// - Returns: How many values were decoded.
    /// - Throws: As ``forEach(_:at:contentsOfFile:safety:_:)``, with ``XMLInputError`` when
    ///   a read fails.
    @discardableResult
    public func forEach<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, fileDescriptor: Int32, source: String? = nil,
        safety: SafetyProfile = .default, _ body: (T) throws -> Void
    ) throws -> Int {
        try run(T.self, at: pattern, source: source, safety: safety, body) {
            try $0.parse(fileDescriptor: fileDescriptor, source: source)
        }
    }

    /// Decodes each matching element of a document you feed yourself, piece by piece.
    ///
    /// ```swift
    /// try decoder.forEach(Item.self, at: "item", feeding: { parser in
    ///     for chunk in chunks { try parser.feed(chunk) }
    /// }) { print($0.title) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode each element as.
    ///   - pattern: Which elements (any ``ElementPattern``).
    ///   - source: A name for the input in error descriptions.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    ///   - feed: Feeds the document to the parser it receives, then returns; the parse is
    ///     finished for you if `feed` did not finish it.
    ///   - body: Receives each value as its element ends; an error it throws ends the parse
    ///     and is rethrown as it is.
    /// - Returns: How many values were decoded.
    /// - Throws: As ``forEach(_:at:contentsOfFile:safety:_:)``, and what `feed` throws.
    @discardableResult
    public func forEach<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, source: String? = nil, safety: SafetyProfile = .default,
        feeding feed: (PushParser) throws -> Void, _ body: (T) throws -> Void
    ) throws -> Int {
        try run(T.self, at: pattern, source: source, safety: safety, body) { dispatcher in
            let parser = PushParser(dispatcher, source: source)
            try feed(parser)
            return try parser.finish()
        }
    }

    /// Every matching element of a file, decoded, in document order. Holds them all: use
    /// ``forEach(_:at:contentsOfFile:safety:_:)`` for documents of any size.
    ///
    /// - Throws: `DecodingError` for an element that does not decode, ``RecordSizeLimitError``
    ///   for an element larger than ``maximumRecordBytes``,
    ///   ``XMLParseError`` for a malformed document or a broken ``SafetyProfile`` limit,
    ///   or ``XMLInputError`` if the file cannot be opened or read.
    public func all<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, contentsOfFile path: String, safety: SafetyProfile = .default
    ) throws -> [T] {
        var values: [T] = []
        try forEach(T.self, at: pattern, contentsOfFile: path, safety: safety) { values.append($0) }
        return values
    }

    /// Every matching element of a document held in a string, decoded, in document order.
    ///
    /// - Throws: `DecodingError` for an element that does not decode, ``RecordSizeLimitError``
    ///   for an element larger than ``maximumRecordBytes``,
    ///   or ``XMLParseError`` for a malformed document or a broken ``SafetyProfile`` limit.
    public func all<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, in xml: String, safety: SafetyProfile = .default
    ) throws -> [T] {
        var values: [T] = []
        try forEach(T.self, at: pattern, in: xml, safety: safety) { values.append($0) }
        return values
    }

    /// Decodes a document's root element as a `T`.
    ///
    /// ```swift
    /// let account = try XMLRecordDecoder().decode(Account.self, from: xml)
    /// ```
    ///
    /// - Throws: As ``forEach(_:at:contentsOfFile:safety:_:)``.
    public func decode<T: Decodable>(_ type: T.Type, from xml: String, safety: SafetyProfile = .default) throws -> T {
        try root(T.self) { pattern, body in try forEach(T.self, at: pattern, in: xml, safety: safety, body) }
    }

    /// Decodes the root element of a document held in memory as bytes, as `decode(_:from:safety:)`
    /// does for a string.
    ///
    /// - Throws: As ``forEach(_:at:contentsOfFile:safety:_:)``.
    public func decode<T: Decodable>(
        _ type: T.Type, from bytes: some Sequence<UInt8>, safety: SafetyProfile = .default
    ) throws -> T {
        try root(T.self) { pattern, body in try forEach(T.self, at: pattern, in: bytes, safety: safety, body) }
    }

    /// Decodes the root element of a file, as `decode(_:from:safety:)` does for a string.
    ///
    /// - Throws: As ``forEach(_:at:contentsOfFile:safety:_:)``.
    public func decode<T: Decodable>(
        _ type: T.Type, contentsOfFile path: String, safety: SafetyProfile = .default
    ) throws -> T {
        try root(T.self) { pattern, body in try forEach(T.self, at: pattern, contentsOfFile: path, safety: safety, body) }
    }

    private func root<T>(_ type: T.Type, _ forEach: (ElementPattern, (T) throws -> Void) throws -> Int) throws -> T {
        var value: T?
        _ = try forEach("/*") { value = $0 }
        guard let value else { throw DecodingError.valueNotFound(T.self, .init(codingPath: [], debugDescription: "the document has no root element")) }
        return value
    }

    private func run<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, source: String?, safety: SafetyProfile, _ body: (T) throws -> Void,
        _ parse: (Dispatcher) throws -> ParseOutcome
    ) throws -> Int {
        try withoutActuallyEscaping(body) { body in
            var count = 0
            let dispatcher = dispatcherOwningDocument(T.self, at: pattern, source: source, safety: safety) { value in
                count += 1
                try body(value)
            }
            do {
                _ = try parse(dispatcher)
            } catch let error as HandlerError {
                throw error.underlying
            }
            return count
        }
    }

    /// A dispatcher that reads only the elements matching `pattern` from a document and
    /// decodes each as a `T` for `deliver`.
    func dispatcherOwningDocument<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, source: String?, safety: SafetyProfile,
        deliver: @escaping (T) throws -> Void
    ) -> Dispatcher {
        var dispatcher = Dispatcher()
        dispatcher.safety = safety
        dispatcher.processesNamespaces = processesNamespaces
        dispatcher.namespaces = namespaces
        // Outside the matched elements nothing is dispatched: for an anchored pattern the
        // parser's subtree filter skips it at a few bit operations an element.
        if pattern.isAnchored { try? dispatcher.skipAll(except: pattern) }
        dispatcher.onDecoded(T.self, at: pattern, using: self, source: source, deliver)
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
    /// try dispatcher.parse(contentsOfFile: "zoo.xml")
    /// ```
    ///
    /// An element that does not decode ends the parse with a ``HandlerError`` wrapping the
    /// `DecodingError` (or ``RecordSizeLimitError``).
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
        onDecoded(T.self, at: pattern, using: decoder, source: nil, handler)
    }

    mutating func onDecoded<T: Decodable>(
        _ type: T.Type, at pattern: ElementPattern, using decoder: XMLRecordDecoder, source: String?,
        _ handler: @escaping (T) throws -> Void
    ) {
        let session = DecodingSession(T.self, options: decoder, source: source)
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
        mount(capture.handlers(), at: pattern.resolvingPrefixes(decoder.namespaces))
    }
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The attributes of a start tag: a view borrowed from the parser, valid only
/// during the start handler.
///
/// Lookups compare bytes in place; a `String` is made only for what you read.
///
/// ```swift
/// dispatcher.onStart("border") { element in
///     kind = element.attributes["type"]            // String?
///     for attribute in element.attributes { print(attribute.name, attribute.value) }
/// }
/// ```
///
/// Values are as expat reports them: entity and character references replaced and
/// whitespace normalized, with defaults declared in the internal DTD subset filled in.
public struct ElementAttributes: Sequence {
    let engine: DispatchEngine?
    let serial: UInt64
    let pairs: UnsafePointer<UnsafePointer<CChar>?>?
    /// The number of attributes.
    public let count: Int
    /// The number of attributes written in the start tag. They come first; the rest were
    /// filled in from defaults declared in the DTD's internal subset.
    public let specifiedCount: Int

    static var empty: ElementAttributes {
        ElementAttributes(engine: nil, serial: 0, pairs: nil, count: 0, specifiedCount: 0)
    }

    /// One attribute, copied out of the parser.
    public struct Attribute: Sendable, Hashable {
        /// The attribute's name as the document wrote it: `prefix:local`, or `local`.
        public var name: String
        /// The attribute's namespace URI: `nil` for an unprefixed attribute (which is in
        /// no namespace, whatever the default namespace) or without namespace processing.
        public var namespaceURI: String?
        /// The attribute's name without its prefix.
        public var localName: String
        /// The prefix the document wrote the name with, or `nil`.
        public var prefix: String?
        /// The attribute's value, normalized by expat.
        public var value: String
        /// Whether the value is a default from an `<!ATTLIST …>` declaration rather than
        /// written in the start tag. A document can inject attributes this way; code that
        /// trusts an attribute (`admin="true"`) should check that it was written.
        public var isDefaulted: Bool

        /// Creates an attribute value, for comparisons in tests. Without a namespace, the
        /// local name and prefix are read from `name` (`prefix:local`).
        public init(name: String, value: String, isDefaulted: Bool = false, namespaceURI: String? = nil) {
            self.name = name
            self.value = value
            self.isDefaulted = isDefaulted
            self.namespaceURI = namespaceURI
            prefix = QualifiedName.prefix(of: name)
            localName = QualifiedName.localPart(of: name)
        }

        init(parts: QualifiedName.Parts, value: String, isDefaulted: Bool) {
            name = parts.qualifiedName
            namespaceURI = parts.namespaceURI
            localName = parts.localName
            prefix = parts.prefix
            self.value = value
            self.isDefaulted = isDefaulted
        }
    }

    /// Whether the start tag has no attributes.
    public var isEmpty: Bool { count == 0 }

    /// The value of the attribute named `name`, or `nil` if the element has none.
    ///
    /// `name` is the name as the document wrote it (`href`, `xlink:href`), or a name in
    /// Clark notation (`{http://www.w3.org/1999/xlink}href`), which finds the attribute
    /// whatever prefix the document gave it. An unprefixed attribute is in no namespace.
    public subscript(name: String) -> String? {
        cString(of: name).map(UTF8Text.string(cString:))
    }

    /// The value of the attribute named `name` as expat's C string, valid only while the
    /// start handler runs: for the library's own code that reads the bytes without making
    /// a `String` (a number field converts them directly).
    func cString(of name: String) -> UnsafePointer<CChar>? {
        // `index(of:)` checked that the attributes are still valid.
        guard let index = index(of: name) else { return nil }
        return pairs?[2 * index + 1]
    }

    /// The value of the first attribute `matcher` finds as expat's C string, valid only
    /// while the start handler runs.
    func cString(matching matcher: AttributeNameMatcher) -> UnsafePointer<CChar>? {
        guard count > 0 else { return nil }
        if let engine { engine.checkAttributes(serial: serial) }
        guard let pairs else { return nil }
        for index in 0..<count {
            if let name = pairs[2 * index], matcher.matches(name) { return pairs[2 * index + 1] }
        }
        return nil
    }

    /// The value of the first attribute `matcher` finds, for the library's own lookups,
    /// whose matchers are made once.
    func value(matching matcher: AttributeNameMatcher) -> String? {
        guard count > 0 else { return nil }
        if let engine { engine.checkAttributes(serial: serial) }
        guard let pairs else { return nil }
        for index in 0..<count {
            if let name = pairs[2 * index], matcher.matches(name), let value = pairs[2 * index + 1] {
                return UTF8Text.string(cString: value)
            }
        }
        return nil
    }

    /// Whether the element has an attribute named `name`.
    public func contains(_ name: String) -> Bool {
        index(of: name) != nil
    }

    /// Whether the attribute named `name` was written in the start tag, as opposed to
    /// missing or filled in from a DTD default.
    public func isSpecified(_ name: String) -> Bool {
        index(of: name).map { $0 < specifiedCount } ?? false
    }

    /// The attribute at a position in document order.
    public subscript(position: Int) -> Attribute {
        precondition(position >= 0 && position < count, "attribute index \(position) out of range 0..<\(count)")
        guard let name = pointer(2 * position) else {
            return Attribute(name: "", value: "", isDefaulted: position >= specifiedCount)
        }
        return Attribute(
            parts: QualifiedName.parts(of: UnsafeRawBufferPointer(start: name, count: strlen(name))),
            value: string(2 * position + 1), isDefaulted: position >= specifiedCount)
    }

    /// The attributes as a dictionary, for code that wants to keep them.
    public var dictionary: [String: String] {
        var result = [String: String](minimumCapacity: count)
        for attribute in self { result[attribute.name] = attribute.value }
        return result
    }

    /// Returns an iterator over the attributes in document order.
    public func makeIterator() -> Iterator {
        Iterator(attributes: self)
    }

    /// The number of attributes.
    public var underestimatedCount: Int { count }

    /// Iterates attributes in document order.
    public struct Iterator: IteratorProtocol {
        let attributes: ElementAttributes
        var position = 0

        /// The next attribute, copied out of the parser, or nil after the last.
        public mutating func next() -> Attribute? {
            guard position < attributes.count else { return nil }
            defer { position += 1 }
            return attributes[position]
        }
    }

    /// The position of the attribute named `name`; checks once that the attributes are
    /// still valid (the start handler is running), rather than at every name compared.
    private func index(of name: String) -> Int? {
        guard count > 0 else { return nil }
        if let engine { engine.checkAttributes(serial: serial) }
        guard let pairs else { return nil }
        var name = name
        let found = name.withUTF8 { wanted -> Int? in
            // Names that differ in their first byte (most do) are told apart without a call.
            guard let first = wanted.first else { return nil }
            let leading = CChar(bitPattern: first)
            for index in 0..<count {
                if let candidate = pairs[2 * index], candidate.pointee == leading, cStringEquals(candidate, wanted) {
                    return index
                }
            }
            return nil
        }
        if found != nil { return found }
        // With namespace processing on, expat spells a prefixed attribute `uri␁local␁prefix`:
        // a name as written with a prefix, or in Clark notation, is found by its parts.
        guard name.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "{") }) else { return nil }
        let matcher = AttributeNameMatcher(lookup: name)
        return (0..<count).first { index in pairs[2 * index].map(matcher.matches) ?? false }
    }

    /// Calls `body` with the name and value of every attribute, in order, as expat's C
    /// strings (valid only during the call).
    func forEachPair(_ body: (UnsafePointer<CChar>, UnsafePointer<CChar>) throws -> Void) rethrows {
        guard count > 0 else { return }
        if let engine { engine.checkAttributes(serial: serial) }
        guard let pairs else { return }
        for index in 0..<count {
            guard let name = pairs[2 * index], let value = pairs[2 * index + 1] else { continue }
            try body(name, value)
        }
    }

    private func pointer(_ slot: Int) -> UnsafePointer<CChar>? {
        if let engine { engine.checkAttributes(serial: serial) }
        return pairs?[slot]
    }

    private func string(_ slot: Int) -> String {
        pointer(slot).map { UTF8Text.string(cString: $0) } ?? ""
    }
}

@available(*, unavailable)
extension ElementAttributes: Sendable {}

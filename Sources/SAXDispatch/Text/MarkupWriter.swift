/// An element's or attribute's name as the markup writer takes it: the namespace URI it
/// is in (`nil` for none), its local name and the prefix it was written with (`nil` for
/// none).
///
/// Without namespace processing, names arrive as written, prefix and all, in `localName`,
/// with no URI: they are written unchanged and nothing is declared for them.
struct MarkupName: Hashable {
    var namespaceURI: String?
    var localName: String
    var prefix: String?
}

/// Serializes element events as an XML fragment that stands alone: what lies between an
/// element's start and end tags, to be parsed again on its own.
///
/// Start tags carry their attributes; text is escaped (`&amp;`, `&lt;`, `&gt;`, and
/// `&#13;` for a carriage return, which a parser would otherwise turn into a line feed);
/// attribute values escape `"` and the whitespace characters that attribute-value
/// normalization would turn into spaces (`&#9;`, `&#10;`, `&#13;`). An element without
/// content is written `<name/>`. CDATA sections arrive as text and are written as
/// escaped text; comments and processing instructions never arrive.
///
/// Namespaces: where an element's or attribute's prefix (or, for an element, the default
/// namespace) is not bound to its URI by an enclosing element of the fragment, the element
/// declares it (`xmlns:p="…"`, `xmlns="…"`), and an unprefixed element in no namespace
/// inside one that declared a default namespace undeclares it (`xmlns=""`). The top-level
/// elements of the fragment therefore declare everything they use, as the fragment has
/// no enclosing element. A namespaced attribute without a usable prefix (none, or one
/// its element binds to another URI) gets one that is free (`ns1`, …). The `xml` prefix
/// is never declared.
///
/// A class: several open fragments (nested elements whose inner markup is wanted) each
/// have one, kept in an array and written to in turn.
final class MarkupWriter {
    static let xmlNamespace = NamespaceScope.xmlNamespace

    /// The fragment so far, UTF-8.
    private(set) var bytes: [UInt8] = []
    /// The namespace bindings declared by the open elements of the fragment.
    private var scope = NamespaceScope()
    /// The open elements: the name written in their tags, and where their bindings start.
    private var open: [(name: [UInt8], bindingStart: Int)] = []
    /// Whether the innermost open element's start tag still lacks its `>`: it is written
    /// `/>` if the element ends before any content.
    private(set) var startTagIsOpen = false

    var count: Int { bytes.count }

    /// The fragment as a `String`.
    var string: String {
        bytes.withUnsafeBytes { UTF8Text.string($0) }
    }

    /// Empties the writer for another fragment.
    func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        scope.removeAll()
        open.removeAll()
        startTagIsOpen = false
    }

    /// Writes a start tag, with the namespace declarations its names need.
    func startElement(_ name: MarkupName, attributes: [(name: MarkupName, value: String)]) {
        closeStartTag()
        let bindingStart = scope.count
        let elementPrefix = scope.elementPrefix(
            for: name.namespaceURI, written: name.prefix, from: bindingStart, reusesBoundPrefix: false)
        var attributeNames: [String] = []
        attributeNames.reserveCapacity(attributes.count)
        for attribute in attributes {
            attributeNames.append(attributeName(attribute.name, bindingStart: bindingStart))
        }
        let qualified = Self.qualified(elementPrefix, name.localName)
        bytes.append(UInt8(ascii: "<"))
        bytes.append(contentsOf: qualified)
        for binding in scope.declared(from: bindingStart) {
            bytes.append(contentsOf: binding.prefix.isEmpty ? Array(" xmlns=\"".utf8) : Array(" xmlns:\(binding.prefix)=\"".utf8))
            appendEscaped(binding.uri, inAttribute: true)
            bytes.append(UInt8(ascii: "\""))
        }
        for (attribute, written) in zip(attributes, attributeNames) {
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: written.utf8)
            bytes.append(contentsOf: "=\"".utf8)
            appendEscaped(attribute.value, inAttribute: true)
            bytes.append(UInt8(ascii: "\""))
        }
        open.append((qualified, bindingStart))
        startTagIsOpen = true
    }

    /// Writes character data, escaped.
    func text(_ piece: UnsafeRawBufferPointer) {
        guard !piece.isEmpty else { return }
        closeStartTag()
        appendEscaped(piece, inAttribute: false)
    }

    /// Writes the end tag of the innermost open element (`/>` if it had no content).
    /// The fragment with the innermost open element's end tag added, the writer unchanged:
    /// an element's outer markup read by its end handler, before its end tag is written.
    var closed: [UInt8] {
        guard let element = open.last else { return bytes }
        if startTagIsOpen { return bytes + Array("/>".utf8) }
        return bytes + Array("</".utf8) + element.name + [UInt8(ascii: ">")]
    }

    func endElement() {
        guard let element = open.popLast() else { return }
        if startTagIsOpen {
            bytes.append(contentsOf: "/>".utf8)
            startTagIsOpen = false
        } else {
            bytes.append(contentsOf: "</".utf8)
            bytes.append(contentsOf: element.name)
            bytes.append(UInt8(ascii: ">"))
        }
        scope.end(at: element.bindingStart)
    }

    /// How many bytes ``text(_:)`` adds for `piece`.
    func textCount(_ piece: UnsafeRawBufferPointer) -> Int {
        guard !piece.isEmpty else { return 0 }
        var count = startTagIsOpen ? 1 : 0
        for byte in piece { count += Self.escapedCount(byte) }
        return count
    }

    /// How many bytes one byte of text takes once escaped.
    @inline(__always)
    static func escapedCount(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "&"): 5  // &amp;
        case UInt8(ascii: "<"), UInt8(ascii: ">"): 4  // &lt; &gt;
        case 0x0D: 5  // &#13;
        default: 1
        }
    }

    // MARK: Names

    /// The name to write for an attribute of the element whose bindings start at
    /// `bindingStart`, declaring its prefix there if needed.
    private func attributeName(_ name: MarkupName, bindingStart: Int) -> String {
        guard let uri = name.namespaceURI, !uri.isEmpty else {
            return Self.string(Self.qualified(name.prefix ?? "", name.localName))
        }
        return scope.attributePrefix(for: uri, written: name.prefix, from: bindingStart) + ":" + name.localName
    }

    private static func qualified(_ prefix: String, _ local: String) -> [UInt8] {
        prefix.isEmpty ? Array(local.utf8) : Array(prefix.utf8) + [UInt8(ascii: ":")] + Array(local.utf8)
    }

    private static func string(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { UTF8Text.string($0) }
    }

    // MARK: Output

    private func closeStartTag() {
        guard startTagIsOpen else { return }
        bytes.append(UInt8(ascii: ">"))
        startTagIsOpen = false
    }

    private func appendEscaped(_ string: String, inAttribute: Bool) {
        var string = string
        string.withUTF8 { appendEscaped(UnsafeRawBufferPointer($0), inAttribute: inAttribute) }
    }

    private func appendEscaped(_ source: UnsafeRawBufferPointer, inAttribute: Bool) {
        if inAttribute {
            XMLEscaping.appendAttributeValue(source, to: &bytes)
        } else {
            XMLEscaping.appendText(source, to: &bytes)
        }
    }
}

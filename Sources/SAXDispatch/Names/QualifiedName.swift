#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How names with namespaces are spelled: by expat, with namespace processing on, and
/// by patterns and the name table.
///
/// Expat reports a name in a namespace as `uri␁local` (unprefixed, in a default
/// namespace) or `uri␁local␁prefix` (written with a prefix), where `␁` is
/// ``separator``; a name in no namespace comes as written. U+0001 cannot occur in an
/// XML 1.0 document, so it never occurs in a URI or a name.
///
/// The name table interns these spellings as they come; a pattern's names are interned
/// under the spelling they match (``matchKey(name:namespace:processesNamespaces:)``):
/// `local` for an unprefixed name, `uri␁local` for a name in a namespace, `prefix:local`
/// for a prefix nobody bound (a spelling expat never produces with namespace processing
/// on, since it resolves every prefix).
enum QualifiedName {
    /// The byte between a namespace URI, a local name and a prefix in expat's names.
    static let separator: UInt8 = 1
    static let separatorText = "\u{1}"
    /// What pattern names start with, without namespace processing: a character no XML
    /// 1.0 name holds (``matchKey(name:namespace:processesNamespaces:)``).
    static let writtenMarker = "\u{2}"

    /// The parts of a name: its namespace URI (`nil` for none), local name and prefix as
    /// written (`nil` for none).
    struct Parts: Sendable, Hashable {
        var namespaceURI: String?
        var localName: String
        var prefix: String?

        /// The name as written: `prefix:local`, or `local`.
        var qualifiedName: String { prefix.map { "\($0):\(localName)" } ?? localName }
    }

    /// The parts of a name as expat spells it (or a pattern name's match key).
    static func parts(of bytes: UnsafeRawBufferPointer) -> Parts {
        let split = byteParts(of: bytes)
        let uri = split.namespaceURI.map { String(decoding: $0, as: UTF8.self) }
        return Parts(
            namespaceURI: uri?.isEmpty == false ? uri : nil, localName: String(decoding: split.localName, as: UTF8.self),
            prefix: split.prefix.map { String(decoding: $0, as: UTF8.self) })
    }

    /// The parts of a name as expat spells it (`local`, `uri SEP local` or
    /// `uri SEP local SEP prefix`), as views of its bytes: for code that compares them with
    /// other bytes on a hot path, without making strings.
    static func byteParts(of bytes: UnsafeRawBufferPointer) -> (
        namespaceURI: UnsafeRawBufferPointer?, localName: UnsafeRawBufferPointer, prefix: UnsafeRawBufferPointer?
    ) {
        guard let first = separatorOffset(in: bytes) else { return (nil, bytes, nil) }
        let uri = UnsafeRawBufferPointer(rebasing: bytes[..<first])
        let rest = UnsafeRawBufferPointer(rebasing: bytes[(first + 1)...])
        guard let second = separatorOffset(in: rest) else { return (uri, rest, nil) }
        return (
            uri, UnsafeRawBufferPointer(rebasing: rest[..<second]),
            UnsafeRawBufferPointer(rebasing: rest[(second + 1)...])
        )
    }

    /// The offset of the first separator byte in `bytes`.
    @inline(__always)
    private static func separatorOffset(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(separator), bytes.count) else { return nil }
        return UnsafeRawPointer(found) - base
    }

    /// The name as written (`prefix:local` or `local`) of a name as expat spells it.
    static func qualifiedName(of bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.contains(separator) else { return String(decoding: bytes, as: UTF8.self) }
        return parts(of: bytes).qualifiedName
    }

    /// The prefix of a `prefix:local` name, or `nil` for a name without one.
    static func prefix(of name: String) -> String? {
        prefixColon(in: name).map { String(name[..<$0]) }
    }

    /// The colon that ends the prefix of a `prefix:local` name: its first, neither the
    /// first character nor the last.
    private static func prefixColon(in name: String) -> String.Index? {
        guard let colon = firstColon(in: name), colon != name.startIndex, name.utf8.index(after: colon) != name.endIndex
        else { return nil }
        return colon
    }

    /// Where the first colon of `name` is, found in its UTF-8: a colon is one byte, and XML
    /// splits a name at it whatever follows (a search by `Character` would not find one a
    /// combining mark follows, and costs a grapheme break per character). The index is a
    /// scalar boundary, so the name can be sliced at it and one past it.
    @inline(__always)
    static func firstColon<Name: StringProtocol>(in name: Name) -> String.Index? {
        name.utf8.firstIndex(of: UInt8(ascii: ":"))
    }

    /// `name` cut at every colon, found in the UTF-8 (as ``firstColon(in:)`` finds one):
    /// `a:b` gives `a` and `b`, `a` gives `a`, `a::b` an empty part between.
    static func colonSeparatedParts(of name: String) -> [Substring] {
        name.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// What a pattern name matching a local name in any namespace starts with (`*:customer`).
    static let anyNamespacePrefix = "*:"

    /// The local name of a pattern name that matches it in any namespace (`customer` for
    /// `*:customer`), or `nil` for another name.
    static func anyNamespaceLocalName(of name: String) -> String? {
        name.hasPrefix(anyNamespacePrefix) ? String(name.dropFirst(anyNamespacePrefix.count)) : nil
    }

    /// The local part of a `prefix:local` name: what follows the first colon.
    static func localPart(of name: String) -> String {
        guard let colon = prefixColon(in: name) else { return name }
        return String(name[name.utf8.index(after: colon)...])
    }

    /// How a pattern writes a name: `{uri}local` for a Clark name, else as given.
    static func patternText(name: String, namespace: String?) -> String {
        if let namespace, prefix(of: name) == nil { return "{\(namespace)}\(name)" }
        return name
    }

    /// The spelling a pattern name is interned under, so that it equals expat's spelling
    /// of the elements it matches wherever one spelling can (see the type's description).
    /// Without namespace processing, names are compared as written, under a spelling
    /// marked with ``writtenMarker`` so that an element never shares a pattern name's id
    /// (which would hide from ``NameKeys`` users which names the document used); a Clark
    /// name then matches no element.
    static func matchKey(name: String, namespace: String?, processesNamespaces: Bool) -> String {
        guard processesNamespaces else { return writtenMarker + patternText(name: name, namespace: namespace) }
        guard let namespace else { return name }
        return namespace + separatorText + localPart(of: name)
    }

    /// The parts of a path between slashes, where a slash inside a Clark name's braces
    /// (`{http://www.w3.org/2005/Atom}link`) is part of the URI.
    static func pathComponents(_ text: String) -> [Substring] {
        var components: [Substring] = []
        var start = text.startIndex
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            switch text[index] {
            case "{": depth += 1
            case "}": depth = max(0, depth - 1)
            case "/" where depth == 0:
                components.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
            index = text.index(after: index)
        }
        components.append(text[start...])
        return components
    }

    /// Parses a name in Clark notation (`{uri}local`), as handlers' lookups accept it.
    static func clark(_ name: String) -> (namespace: String, local: String)? {
        guard name.first == "{", let close = name.firstIndex(of: "}") else { return nil }
        let local = name[name.index(after: close)...]
        guard !local.isEmpty else { return nil }
        return (String(name[name.index(after: name.startIndex)..<close]), String(local))
    }
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The namespace bindings in scope where XML is being written, and the prefixes names get:
/// the one place that decides what a writer declares (``XMLWriter``, and the markup a
/// parse captures).
///
/// Bindings are kept outermost first, each element's after its ancestors': a prefix (`""`
/// for the default namespace) and its URI (`""` undeclares the default namespace). An
/// element's bindings begin at ``count`` when its start tag is written and are dropped by
/// ``end(at:)`` with its end tag.
///
/// What must stay true: a name written with a prefix is bound, where it is written, to the
/// URI it was given; `xml` is never declared and `xmlns` never bound; a prefix is declared
/// at most once on one element.
struct NamespaceScope {
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"

    private(set) var bindings: [(prefix: String, uri: String)] = []
    /// Changes whenever a binding is added or removed: what a name was found bound to stays
    /// so while it is the same.
    private(set) var generation: UInt64 = 1

    /// Where the next element's bindings begin.
    var count: Int { bindings.count }

    /// The URI `prefix` (`""`: the default namespace) is bound to, `""` where the default
    /// namespace was undeclared, `nil` where it is unbound.
    func uri(boundTo prefix: String) -> String? {
        if prefix == "xml" { return Self.xmlNamespace }
        return bindings.last { $0.prefix == prefix }?.uri
    }

    /// The bindings an element declared, its own beginning at `start`.
    func declared(from start: Int) -> ArraySlice<(prefix: String, uri: String)> {
        bindings[start...]
    }

    /// Whether the element whose bindings begin at `start` declares `prefix`.
    func declares(_ prefix: String, from start: Int) -> Bool {
        bindings[start...].contains { $0.prefix == prefix }
    }

    mutating func declare(_ prefix: String, _ uri: String) {
        bindings.append((prefix, uri))
        generation &+= 1
    }

    /// Drops the bindings of the element that ends, which began at `start`.
    mutating func end(at start: Int) {
        if start < bindings.count {
            bindings.removeSubrange(start...)
            generation &+= 1
        }
    }

    /// Whether `prefix` (UTF-8; empty for the default namespace) is bound to `uri` (UTF-8;
    /// empty for none) here: an unbound prefix to none, `xml` always to its own.
    func binds(prefix: UnsafeRawBufferPointer, to uri: UnsafeRawBufferPointer) -> Bool {
        if Self.equals("xml", prefix) { return Self.equals(Self.xmlNamespace, uri) }
        var index = bindings.count
        while index > 0 {
            index -= 1
            if Self.equals(bindings[index].prefix, prefix) { return Self.equals(bindings[index].uri, uri) }
        }
        return uri.isEmpty
    }

    /// Whether a string's UTF-8 is `bytes`, compared as memory.
    @inline(__always)
    private static func equals(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard string.utf8.count == bytes.count else { return false }
        let equal = string.utf8.withContiguousStorageIfAvailable { utf8 in
            guard let a = utf8.baseAddress, let b = bytes.baseAddress else { return true }
            return memcmp(a, b, bytes.count) == 0
        }
        return equal ?? string.utf8.elementsEqual(bytes)
    }

    /// Gives a scope restored from a copy a generation none of the bindings this one had
    /// since the copy had: `latest` is the generation they reached.
    mutating func continueGenerations(after latest: UInt64) {
        generation = latest &+ 1
    }

    mutating func removeAll() {
        bindings.removeAll()
        generation &+= 1
    }

    /// The prefix an element in `uri` (`nil` or `""`: none) is written with, declaring what
    /// it needs on the element whose bindings begin at `start`: `written` (`nil` for none)
    /// bound to `uri` if it is not; with no prefix written and `reusesBoundPrefix`, a
    /// prefix bound to `uri` in scope, or else the default namespace. An unprefixed
    /// element in no namespace where a default namespace is in scope undeclares it.
    mutating func elementPrefix(for uri: String?, written: String?, from start: Int, reusesBoundPrefix: Bool) -> String {
        let prefix = written ?? ""
        guard let uri, !uri.isEmpty else {
            if written == nil, let inherited = self.uri(boundTo: ""), !inherited.isEmpty { declare("", "") }
            return prefix
        }
        if written == nil && reusesBoundPrefix && self.uri(boundTo: "") != uri {
            if let bound = boundPrefix(for: uri) { return bound }
            if declares("", from: start) {
                // The element's own attributes declare another default namespace.
                var number = 1
                while !usable("ns\(number)", for: uri, from: start) { number += 1 }
                return "ns\(number)"
            }
        }
        if prefix != "xml" && self.uri(boundTo: prefix) != uri { declare(prefix, uri) }
        return prefix
    }

    /// The prefix an attribute in `uri` is written with on the element whose bindings begin
    /// at `start`: `written` where it is bound to `uri` or can be declared there, else a
    /// prefix bound to `uri` in scope, else a free one (`ns1`, `ns2`…), declared. A prefix
    /// in `inUse` (those of the names already in the tag) is never declared again: that
    /// would change what those names mean.
    mutating func attributePrefix(
        for uri: String, written: String?, from start: Int, inUse: Set<Substring> = []
    ) -> String {
        if let written, !written.isEmpty, usable(written, for: uri, from: start, inUse: inUse) { return written }
        if let bound = boundPrefix(for: uri) { return bound }
        var number = 1
        while !usable("ns\(number)", for: uri, from: start, inUse: inUse) { number += 1 }
        return "ns\(number)"
    }

    /// A non-empty prefix bound to `uri` and not rebound since, the innermost first.
    private func boundPrefix(for uri: String) -> String? {
        if uri == Self.xmlNamespace { return "xml" }
        return bindings.last { !$0.prefix.isEmpty && $0.uri == uri && self.uri(boundTo: $0.prefix) == uri }?.prefix
    }

    /// Whether a name in `uri` may be written with `prefix` on the element whose bindings
    /// begin at `start`: it is bound to `uri` already, or is declared there now (when this
    /// returns `true`), as that element has not bound it to anything else and no name in
    /// its tag uses it (`inUse`).
    private mutating func usable(_ prefix: String, for uri: String, from start: Int, inUse: Set<Substring> = []) -> Bool {
        if self.uri(boundTo: prefix) == uri { return true }
        if prefix == "xml" || prefix == "xmlns" || uri == Self.xmlNamespace { return false }
        if declares(prefix, from: start) || inUse.contains(prefix[...]) { return false }
        declare(prefix, uri)
        return true
    }
}

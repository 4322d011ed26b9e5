@testable import SAXDispatchTools  // SplitMix64, the seeded generator the zoo sample uses

/// Small XML documents made from a seed: nested elements with and without prefixes, namespace
/// declarations (a default one, prefixes bound to URIs that differ in a number), attributes
/// with references, text with line ends, character and entity references, CDATA sections,
/// comments and processing instructions, empty elements, deep chains. The same seed makes
/// the same document.
struct GeneratedDocuments {
    /// A fixed sequence per seed, on every platform: the generator the zoo sample uses.
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    mutating func next() -> UInt64 { random.next() }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }

    private static let plainNames = ["a", "item", "name", "record", "b", "x-1", "long_element.name", "é"]
    private static let prefixedNames = ["p:a", "p:item", "q:rec", "q:f"]
    private static let textPieces = [
        "hello", " ", "\n  ", "\r\n", "&amp;", "&#233;", "&#x1F600;", "&lt;x&gt;", "<![CDATA[a<b]]>", "<![CDATA[]]>",
        "ü", "\t", "word word", "\n", "&quot;",
    ]

    /// A document; with `namespaces`, the root declares a default namespace and the prefixes.
    mutating func document(namespaces: Bool) -> String {
        var out = below(3) == 0 ? "<?xml version=\"1.0\"?>\n" : ""
        if below(4) == 0 { out += "<!-- before -->\n" }
        let declarations =
            namespaces
            ? " xmlns=\"urn:default\" xmlns:p=\"urn:example:\(below(100)):p\" xmlns:q=\"http://example.org/\(below(100))/q\""
            : ""
        out += "<root\(declarations)\(attributes())>"
        element(into: &out, depth: 1, namespaces: namespaces)
        out += "</root>"
        if below(3) == 0 { out += "\n<?after data?>" }
        return out
    }

    private mutating func attributes() -> String {
        var out = ""
        let names = ["id", "k", "v", "p:z"]
        for index in 0..<below(4) {
            let separator = below(4) == 0 ? "\n   " : " "
            let value = pick(["1", "a&amp;b", "x&#10;y", "", "long value with spaces", "&lt;"])
            out += "\(separator)\(names[index])=\(below(2) == 0 ? "\"\(value)\"" : "'\(value)'")"
        }
        return out
    }

    /// The content of an element at `depth`: text, children, comments, processing instructions.
    private mutating func element(into out: inout String, depth: Int, namespaces: Bool) {
        let items = depth > 8 ? below(2) : 1 + below(5)
        for _ in 0..<items {
            switch below(10) {
            case 0...3:
                for _ in 0..<(1 + below(3)) { out += pick(Self.textPieces) }
            case 4...7:
                let name = namespaces && below(3) == 0 ? pick(Self.prefixedNames) : pick(Self.plainNames)
                let attributes = below(3) == 0 ? self.attributes() : ""
                if below(5) == 0 {
                    out += "<\(name)\(attributes)/>"
                } else {
                    out += "<\(name)\(attributes)>"
                    element(into: &out, depth: depth + 1, namespaces: namespaces)
                    out += "</\(name)>"
                }
            case 8:
                out += below(2) == 0 ? "<!-- c\(below(9)) -->" : "<?pi d\(below(9))?>"
            default:
                // A deep chain of single children.
                let chain = 3 + below(6)
                for level in 0..<chain { out += "<d\(level)>" }
                out += pick(Self.textPieces)
                for level in (0..<chain).reversed() { out += "</d\(level)>" }
            }
        }
    }

    /// `document` broken somewhere: cut short, a mismatched end tag, an undefined entity, a
    /// stray `<`, or a duplicate attribute, at a place the seed picks.
    mutating func broken(_ document: String) -> String {
        var bytes = Array(document.utf8)
        let at = below(bytes.count)
        switch below(5) {
        case 0:
            bytes.removeSubrange(at...)
        case 1:
            bytes.insert(contentsOf: Array("</wrong>".utf8), at: at)
        case 2:
            bytes.insert(contentsOf: Array("&undefined;".utf8), at: at)
        case 3:
            bytes.insert(contentsOf: Array("<".utf8), at: at)
        default:
            if let close = bytes[at...].firstIndex(of: UInt8(ascii: ">")) {
                bytes.insert(contentsOf: Array(" dup='1' dup='2'".utf8), at: close)
            } else {
                bytes.append(contentsOf: Array("<".utf8))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

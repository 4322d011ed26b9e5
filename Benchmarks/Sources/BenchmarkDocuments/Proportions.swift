/// How a generated document departs from its shape's own proportions: more or less text
/// per element, extra small elements with attributes, nested deeper, and text split into
/// more character-data pieces. The defaults leave every shape exactly as it is, byte for
/// byte, so the documents the figures name stay the same; the benchmark's sweep
/// (`run --sweep`) moves them to find where the per-event cost shows.
///
/// ```swift
/// let dense = Proportions(textPercent: 30, extraElements: 4)   // about twice the start tags per KiB
/// try DocumentGenerator(shape: .zoo, proportions: dense).generate(targetSize: 4 << 20) { write($0) }
/// ```
public struct Proportions: Sendable, Equatable, CustomStringConvertible {
    /// The length of generated text, in percent of the shape's own: the zoo's notes and
    /// data, the wiki's page text, and the text of the extra elements (8 bytes at 100).
    public var textPercent: Int
    /// Small elements added to each record: in each zoo animal's `<junk>`, in each osm
    /// `<node>` and `<way>`, in each wiki `<revision>`. Each is `<x>` with a few words.
    public var extraElements: Int
    /// Attributes added to each zoo `<note>`, osm `<node>` and `<way>`, wiki `<page>`,
    /// and each extra element.
    public var extraAttributes: Int
    /// The chance in percent that a gap between two generated words is a line end, an
    /// entity reference or a CDATA section, each of which makes expat hand the text over
    /// in one more piece.
    public var breakPercent: Int
    /// How deep each extra element is nested: `extraDepth` more `<x>` levels inside it.
    public var extraDepth: Int
    /// When not 0, each extra element binds the prefix `o` to one of this many namespace
    /// URIs that differ only by a number in their middle
    /// (`http://example.org/schema/17/observations`), chosen at random, and its elements
    /// and attributes carry the prefix: `<o:x xmlns:o="…" o:a0="value 0">`. Real
    /// vocabularies look like this where each record brings its own schema version,
    /// observation set or tenant namespace.
    public var namespaceURIs: Int

    public init(
        textPercent: Int = 100, extraElements: Int = 0, extraAttributes: Int = 0, breakPercent: Int = 0,
        extraDepth: Int = 0, namespaceURIs: Int = 0
    ) {
        self.textPercent = textPercent
        self.extraElements = extraElements
        self.extraAttributes = extraAttributes
        self.breakPercent = breakPercent
        self.extraDepth = extraDepth
        self.namespaceURIs = namespaceURIs
    }

    /// The shape's own proportions.
    public static let standard = Proportions()

    /// The options of `generate-documents` that give these proportions (none for the standard ones).
    public var description: String {
        var options: [String] = []
        if textPercent != 100 { options.append("--text-percent \(textPercent)") }
        if extraElements != 0 { options.append("--extra-elements \(extraElements)") }
        if extraAttributes != 0 { options.append("--extra-attributes \(extraAttributes)") }
        if breakPercent != 0 { options.append("--break-percent \(breakPercent)") }
        if extraDepth != 0 { options.append("--extra-depth \(extraDepth)") }
        if namespaceURIs != 0 { options.append("--namespace-uris \(namespaceURIs)") }
        return options.joined(separator: " ")
    }

    /// `length` scaled by ``textPercent``, at least one byte where there was any.
    func text(_ length: Int) -> Int {
        textPercent == 100 ? length : max(length > 0 ? 1 : 0, length * textPercent / 100)
    }

    /// Writes ` a0="v0" a1="v1" …`, ``extraAttributes`` of them, each with `prefix`.
    func writeAttributes(_ writer: inout DocumentWriter, prefix: StaticString = "") {
        for index in 0..<extraAttributes {
            writer.append(" ")
            writer.append(prefix)
            writer.append("a")
            writer.append(index)
            writer.append("=\"value ")
            writer.append(index)
            writer.append("\"")
        }
    }

    /// Writes ``extraElements`` elements, each ``extraDepth`` levels deep, each level with
    /// ``extraAttributes`` attributes and the innermost with a few words of text; in one of
    /// ``namespaceURIs`` namespaces each, when that is not 0.
    func writeExtraElements(_ writer: inout DocumentWriter, _ random: inout SplitMix64, indent: StaticString) {
        let prefix: StaticString = namespaceURIs > 0 ? "o:" : ""
        for _ in 0..<extraElements {
            writer.append(indent)
            for level in 0...extraDepth {
                writer.append("<")
                writer.append(prefix)
                writer.append("x")
                if level == 0 && namespaceURIs > 0 {
                    writer.append(" xmlns:o=\"http://example.org/schema/")
                    writer.append(Int(random.next() % UInt64(namespaceURIs)))
                    writer.append("/observations\"")
                }
                writeAttributes(&writer, prefix: prefix)
                writer.append(">")
            }
            Vocabulary.prose(&writer, &random, length: text(8), breaks: breakPercent)
            for _ in 0...extraDepth {
                writer.append("</")
                writer.append(prefix)
                writer.append("x>")
            }
        }
    }
}

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
    /// When not 0, each record element (zoo `<animal>`, osm `<node>` and `<way>`, wiki
    /// `<page>`) binds the prefix `o` to one of this many URIs that differ only by a number
    /// in their middle (`http://example.org/schema/17/observations`), the next one for each record;
    /// its extra elements alternate between that namespace (`<o:x>`) and a default
    /// namespace declared on them (`<x xmlns="urn:example:extra">`), and their attributes
    /// carry the prefix. Cannot be combined with ``namespaceURIs``.
    public var recordNamespaces: Int
    /// The chance in percent that a gap between two generated words is a character
    /// reference (`&#233;`, `&#x4E2D;`) or a short CDATA section: at 60, one every few
    /// bytes of text. Drawn before ``breakPercent``.
    public var referencePercent: Int
    /// Drops the line ends and indentation between elements, so elements follow each other
    /// with no character data between them (text inside elements stays as it is).
    public var noIndentation: Bool
    /// Writes each extra element's innermost level as an empty element, `<x a0="value 0" …/>`,
    /// with no text: attribute-heavy self-closing elements with ``extraAttributes``.
    public var selfClosingExtras: Bool

    public init(
        textPercent: Int = 100, extraElements: Int = 0, extraAttributes: Int = 0, breakPercent: Int = 0,
        extraDepth: Int = 0, namespaceURIs: Int = 0, recordNamespaces: Int = 0, referencePercent: Int = 0,
        noIndentation: Bool = false, selfClosingExtras: Bool = false
    ) {
        self.textPercent = textPercent
        self.extraElements = extraElements
        self.extraAttributes = extraAttributes
        self.breakPercent = breakPercent
        self.extraDepth = extraDepth
        self.namespaceURIs = namespaceURIs
        self.recordNamespaces = recordNamespaces
        self.referencePercent = referencePercent
        self.noIndentation = noIndentation
        self.selfClosingExtras = selfClosingExtras
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
        if recordNamespaces != 0 { options.append("--record-namespaces \(recordNamespaces)") }
        if referencePercent != 0 { options.append("--reference-percent \(referencePercent)") }
        if noIndentation { options.append("--no-indentation") }
        if selfClosingExtras { options.append("--self-closing-extras") }
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

    /// Writes ` xmlns:o="http://example.org/schema/K/obs"` on the `record`th record element
    /// (K cycles through ``recordNamespaces`` URIs), nothing when that is 0.
    func writeRecordNamespace(_ writer: inout DocumentWriter, record: Int) {
        guard recordNamespaces > 0 else { return }
        writer.append(" xmlns:o=\"http://example.org/schema/")
        writer.append(record % recordNamespaces)
        writer.append("/observations\"")
    }

    /// Writes ``extraElements`` elements, each ``extraDepth`` levels deep, each level with
    /// ``extraAttributes`` attributes and the innermost with a few words of text (or empty,
    /// with ``selfClosingExtras``); in one of ``namespaceURIs`` namespaces each, when that is
    /// not 0, or with ``recordNamespaces``, alternately in the record's namespace and in a
    /// default namespace.
    func writeExtraElements(_ writer: inout DocumentWriter, _ random: inout SplitMix64, indent: StaticString) {
        for index in 0..<extraElements {
            let prefix: StaticString = namespaceURIs > 0 || (recordNamespaces > 0 && index % 2 == 0) ? "o:" : ""
            let attributePrefix: StaticString = namespaceURIs > 0 || recordNamespaces > 0 ? "o:" : ""
            writer.append(indent)
            for level in 0...extraDepth {
                writer.append("<")
                writer.append(prefix)
                writer.append("x")
                if level == 0 && namespaceURIs > 0 {
                    writer.append(" xmlns:o=\"http://example.org/schema/")
                    writer.append(Int(random.next() % UInt64(namespaceURIs)))
                    writer.append("/observations\"")
                } else if level == 0 && recordNamespaces > 0 && index % 2 == 1 {
                    writer.append(" xmlns=\"urn:example:extra\"")
                }
                writeAttributes(&writer, prefix: attributePrefix)
                writer.append(selfClosingExtras && level == extraDepth ? "/>" : ">")
            }
            if !selfClosingExtras {
                Vocabulary.prose(&writer, &random, length: text(8), breaks: breakPercent, references: referencePercent)
            }
            for _ in 0..<(selfClosingExtras ? extraDepth : extraDepth + 1) {
                writer.append("</")
                writer.append(prefix)
                writer.append("x>")
            }
        }
    }
}

/// Gathers what handlers want of an element's whole content, beyond its own text: its
/// whole text (``WholeText``) and its inner markup (a ``MarkupWriter`` per element), from
/// the events of its descendants, and checks the text limits they count against.
///
/// The engine hands it the events of every element that is, or is inside, one whose
/// whole text or inner markup is wanted (``RouteFlags/inCapture``), and nothing else: a
/// document that no such handler reads never reaches it.
struct ContentCapture: ~Copyable {
    /// An open element whose inner (or outer) markup is wanted, outermost first.
    private struct Fragment {
        var depth: Int
        var writer: MarkupWriter
        /// Whether the element's own tags are part of the fragment (outer markup).
        var includesElement = false

        /// Whether the tags of the element at `depth` are written into this fragment.
        func takesTags(ofDepth depth: Int) -> Bool {
            self.depth < depth || (includesElement && self.depth == depth)
        }
    }

    /// The limits gathered content counts against: ``SafetyProfile/maximumTextBytes`` for
    /// each element's whole text and each fragment, ``SafetyProfile/maximumCollectedTextBytes``
    /// for everything collected together.
    struct Limits {
        var maximumTextBytes: Int
        var maximumCollectedTextBytes: Int
    }

    /// How the innermost element's own text grows with a piece of character data, as the
    /// engine collects it (or only counts it, ``Dispatcher/limitsAllText``): its bytes so
    /// far, and whether whitespace before its first other character is kept.
    struct OwnText {
        var isCollected: Bool
        var count: Int
        var keepsLeadingWhitespace: Bool

        static let none = OwnText(isCollected: false, count: 0, keepsLeadingWhitespace: false)

        /// How many bytes of `piece` the own text takes.
        func added(_ piece: UnsafeRawBufferPointer) -> Int {
            guard isCollected else { return 0 }
            if keepsLeadingWhitespace || count > 0 { return piece.count }
            return piece.count - Whitespace.leadingSpaceCount(piece)
        }
    }

    /// A text limit that gathering a piece of content would break.
    struct Breach {
        enum Limit: Equatable {
            /// The whole text of the element at this depth would exceed maximumTextBytes.
            case wholeText(depth: Int)
            /// The inner markup of the element at this depth would exceed maximumTextBytes.
            case innerMarkup(depth: Int)
            /// The innermost element's own text would exceed maximumTextBytes.
            case ownText
            /// Everything collected would exceed maximumCollectedTextBytes.
            case collectedText
        }

        var limit: Limit
        /// For a piece of character data: how many of its bytes come before the one that
        /// breaks the limit (text-chunk handlers still get those).
        var allowed: Int
    }

    private(set) var whole = WholeText()
    private var fragments: [Fragment] = []
    /// Writers of ended fragments, kept for the next ones.
    private var spareWriters: [MarkupWriter] = []

    /// The bytes held for whole text and inner markup together, as the collected-text limit
    /// counts them: the whole text once per element that gets it (``WholeText/heldBytes``),
    /// and each fragment.
    var heldBytes: Int { fragments.reduce(whole.heldBytes) { $0 + $1.writer.count } }

    /// Whether some open element's inner markup is being written.
    var writesMarkup: Bool { !fragments.isEmpty }

    // MARK: Elements

    /// Starts gathering what `flags` ask of the element at `depth`, the innermost open one,
    /// once its start tag is written (``beginOuterMarkup(depth:)`` comes before).
    mutating func begin(depth: Int, flags: RouteFlags) {
        if flags.contains(.wholeText) { whole.begin(depth: depth) }
        if flags.contains(.innerMarkup) { addFragment(depth: depth, includesElement: false) }
    }

    /// Starts writing the outer markup of the element at `depth`, before its start tag.
    mutating func beginOuterMarkup(depth: Int) {
        addFragment(depth: depth, includesElement: true)
    }

    private mutating func addFragment(depth: Int, includesElement: Bool) {
        let writer = spareWriters.popLast() ?? MarkupWriter()
        writer.removeAll()
        fragments.append(Fragment(depth: depth, writer: writer, includesElement: includesElement))
    }

    /// Writes the start tag of the element at `depth` into the fragments of the elements
    /// around it; returns the first limit that broke.
    mutating func writeStartTag(
        _ name: MarkupName, attributes: [(name: MarkupName, value: String)], depth: Int, others: Int, limits: Limits
    ) -> Breach? {
        for fragment in fragments where fragment.takesTags(ofDepth: depth) {
            fragment.writer.startElement(name, attributes: attributes)
        }
        return breachOfHeldContent(others: others, limits: limits)
    }

    /// The element at `depth` ended: writes its end tag into the fragments of the elements
    /// around it and stops gathering for it; returns the first limit that broke.
    mutating func end(depth: Int, others: Int, limits: Limits) -> Breach? {
        var wroteTag = false
        for fragment in fragments where fragment.depth < depth {
            fragment.writer.endElement()
            wroteTag = true
        }
        let breach = wroteTag ? breachOfHeldContent(others: others, limits: limits) : nil
        whole.end(depth: depth)
        while let last = fragments.last, last.depth == depth {
            fragments.removeLast()
            spareWriters.append(last.writer)
        }
        return breach
    }

    /// The inner markup of the element at `depth` (or its outer markup, so far: without
    /// its end tag, which ``MarkupWriter/closed`` adds), or `nil` if it is not written.
    func markup(ofDepth depth: Int, outer: Bool = false) -> MarkupWriter? {
        fragments.last { $0.depth == depth && $0.includesElement == outer }?.writer
    }

    /// The first limit that the content held breaks, after a tag was written: a fragment
    /// over maximumTextBytes (the outermost first), or everything collected over
    /// maximumCollectedTextBytes.
    private func breachOfHeldContent(others: Int, limits: Limits) -> Breach? {
        for fragment in fragments where fragment.writer.count > limits.maximumTextBytes {
            return Breach(limit: .innerMarkup(depth: fragment.depth), allowed: 0)
        }
        if others + heldBytes > limits.maximumCollectedTextBytes { return Breach(limit: .collectedText, allowed: 0) }
        return nil
    }

    // MARK: Character data

    /// The first limit that gathering `piece`, and collecting the innermost element's own
    /// text from it (`own`), would break; `nil` when all hold. `others` is what the
    /// engine collects besides: the open elements' own text.
    ///
    /// Where the piece breaks a limit, the limit is the one broken first in the text, byte
    /// by byte, so that the error does not depend on how the input was split.
    func breach(of piece: UnsafeRawBufferPointer, own: OwnText, others: Int, limits: Limits) -> Breach? {
        let wholeAdded = piece.count * whole.gatheringCount
        var fits = whole.count + (whole.isGathering ? piece.count : 0) <= limits.maximumTextBytes
        var markupAdded = 0
        for fragment in fragments {
            let added = fragment.writer.textCount(piece)
            markupAdded += added
            fits = fits && fragment.writer.count + added <= limits.maximumTextBytes
        }
        let ownAdded = own.added(piece)
        fits =
            fits && own.count + ownAdded <= limits.maximumTextBytes
            && others + heldBytes + wholeAdded + markupAdded + ownAdded <= limits.maximumCollectedTextBytes
        return fits ? nil : firstBreach(in: piece, own: own, others: others, limits: limits)
    }

    /// Finds the byte of `piece` that first breaks a limit, by gathering it a byte at a time
    /// in count only; each byte checks the limits in a fixed order.
    private func firstBreach(in piece: UnsafeRawBufferPointer, own: OwnText, others: Int, limits: Limits) -> Breach? {
        var wholeCount = whole.count
        var markupCounts = fragments.map { $0.writer.count + ($0.writer.startTagIsOpen ? 1 : 0) }
        var ownCount = own.count
        // The first byte of text closes an open start tag with a `>`, counted from the start.
        var total = others + heldBytes + fragments.count(where: { $0.writer.startTagIsOpen })
        for (index, byte) in piece.enumerated() {
            if whole.isGathering {
                wholeCount += 1
                total += whole.gatheringCount
                if wholeCount > limits.maximumTextBytes {
                    return Breach(limit: .wholeText(depth: whole.outermostDepth), allowed: index)
                }
            }
            let escaped = MarkupWriter.escapedCount(byte)
            for fragment in markupCounts.indices {
                markupCounts[fragment] += escaped
                total += escaped
            }
            if let over = markupCounts.firstIndex(where: { $0 > limits.maximumTextBytes }) {
                return Breach(limit: .innerMarkup(depth: fragments[over].depth), allowed: index)
            }
            if own.isCollected && (ownCount > 0 || own.keepsLeadingWhitespace || !Whitespace.isSpace(byte)) {
                ownCount += 1
                total += 1
                if ownCount > limits.maximumTextBytes { return Breach(limit: .ownText, allowed: index) }
            }
            if total > limits.maximumCollectedTextBytes { return Breach(limit: .collectedText, allowed: index) }
        }
        return nil
    }

    /// Gathers a piece of character data that ``breach(of:own:others:limits:)`` admitted.
    mutating func append(_ piece: UnsafeRawBufferPointer) {
        if whole.isGathering { whole.append(piece) }
        for fragment in fragments { fragment.writer.text(piece) }
    }
}

import Testing

@testable import SAXDispatch
@testable import SAXDispatchTools  // SplitMix64, a seeded generator

/// The reading back from a start tag found ahead that passes it over when it seems to be
/// inside a comment, CDATA section or processing instruction (``MarkupReadBack``,
/// ``HeldBytes/lastMark(before:downTo:)``): what it says of plain cases, and that it agrees
/// with a plain reading of the same bytes at every offset, however the bytes are cut into
/// pieces.
@Suite("Held bytes: reading back for comments, CDATA sections and processing instructions")
struct HeldBytesTests {
    /// What reading back must find, read byte by byte from the whole of `bytes` (`base` is
    /// the offset of its first byte).
    static func expected(_ bytes: [UInt8], base: Int, before offset: Int, downTo lower: Int) -> HeldBytes.MarkupMark? {
        let ends = ["?>", "-->", "]]>"].map { Array($0.utf8) }
        var index = offset - base - 1
        while index >= 0 && base + index >= lower {
            if bytes[index] == UInt8(ascii: ">") {
                for end in ends where index - end.count + 1 >= 0 {
                    if Array(bytes[(index - end.count + 1)...index]) == end { return .end }
                }
            }
            if bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count,
                bytes[index + 1] == UInt8(ascii: "!") || bytes[index + 1] == UInt8(ascii: "?")
            {
                return .opening
            }
            index -= 1
        }
        return nil
    }

    /// Whether the last `<r` of `text` seems inside markup, read back from on its own.
    static func seemsInside(_ text: String, lookBack: Int = 4096) throws -> Bool {
        let held = HeldBytes(pieces: [Array(text.utf8)[...]], start: 0)
        let at = try #require(text.range(of: "<r", options: .backwards)).lowerBound.utf16Offset(in: text)
        var readBack = MarkupReadBack(lookBack: lookBack)
        return readBack.seemsInsideMarkup(at: at, in: held, rangeStart: 0)
    }

    @Test("a tag in a comment, CDATA section or processing instruction seems inside it; one after it does not")
    func plainCases() throws {
        #expect(try Self.seemsInside("<a><!-- <r"))
        #expect(try Self.seemsInside("<a><![CDATA[ <p>x</p> <r"))
        #expect(try Self.seemsInside("<a><?pi <r"))
        #expect(try Self.seemsInside("<a><!-- a > b <r"))
        #expect(try Self.seemsInside("<a><![CDATA[ ] ]> <r"))
        #expect(try !Self.seemsInside("<a><!-- c --> <r"))
        #expect(try !Self.seemsInside("<a><![CDATA[ x ]]></b> <r"))
        #expect(try !Self.seemsInside("<a><?pi x?><r"))
        #expect(try !Self.seemsInside("<a x='1'>text</a>\n<r"))
        // What it cannot tell: an end written in text reads as an end, an opening farther
        // back than the look back as none (the range's parse finds both out).
        #expect(try !Self.seemsInside("<a><!-- x ?> <r"))
        #expect(try !Self.seemsInside("<a><!-- " + String(repeating: "x", count: 100) + " <r", lookBack: 64))
        #expect(try Self.seemsInside("<a><!-- " + String(repeating: "x", count: 100) + " <r", lookBack: 128))
        // Nor before the range's start, which is in content.
        let held = HeldBytes(pieces: [Array("<a><!--<r".utf8)[...]], start: 100)
        var fromItsOpening = MarkupReadBack(), fromAfterIt = MarkupReadBack()
        let inside = fromItsOpening.seemsInsideMarkup(at: 107, in: held, rangeStart: 103)
        let outside = fromAfterIt.seemsInsideMarkup(at: 107, in: held, rangeStart: 104)
        #expect(inside && !outside)
    }

    @Test("tags asked about in order: each reads back to the one before, and the answers are those of reading back from each alone")
    func tagsInOrder() throws {
        // A long comment of tags a look back apart, each farther from its opening than that.
        let tags = String(repeating: "<r/>" + String(repeating: " ", count: 56), count: 20)
        let text = "<a><r/><!-- " + tags + " --><r/><![CDATA[" + tags + "]]><r/>" + tags + "</a>"
        let bytes = Array(text.utf8)
        let held = HeldBytes(pieces: [bytes[...]], start: 0)
        let offsets = bytes.indices.filter { $0 + 1 < bytes.count && bytes[$0] == UInt8(ascii: "<") && bytes[$0 + 1] == UInt8(ascii: "r") }
        var inOrder = MarkupReadBack(lookBack: 64)
        let answers = offsets.map { inOrder.seemsInsideMarkup(at: $0, in: held, rangeStart: 0) }
        let alone = offsets.map { held.lastMark(before: $0, downTo: 0) == .opening }
        #expect(answers == alone)
        #expect(answers.filter { $0 }.count == 40)
        // Alone, with the same look back, only the first tag of each construct is seen inside.
        let short = offsets.map { offset in
            var readBack = MarkupReadBack(lookBack: 64)
            return readBack.seemsInsideMarkup(at: offset, in: held, rangeStart: 0)
        }
        #expect(short.filter { $0 }.count == 2)
    }

    /// A document's worth of text, tags and markup, with the bytes that end markup (`>`,
    /// `-`, `]`, `?`) where they do not end it, and sometimes a last construct left open.
    static func document(_ generator: inout some RandomNumberGenerator) -> [UInt8] {
        let pieces = [
            "text ", "a!b", "why?", "x > y", "--", "]]", "é", "<r>", "</r>", "<a b='!?'/>",
            "<!-- c -->", "<!-- a - b -- c > d --->", "<!---->", "<![CDATA[x]]>", "<![CDATA[ ] ]] > ]]]>",
            "<![CDATA[<!-- ]]>", "<!-- a -> b -->", "<![CDATA[ a]>b ]]>", "<!-->-->", "<!--->x-->", "<?>?>", "<![CDATA[]>]]>", "<?pi a ? b > c ?>", "<??>", "<?p?>", "<!-- <![CDATA[ -->", "<!DOCTYPE x>",
        ]
        var text = ""
        for _ in 0..<Int.random(in: 1...40, using: &generator) {
            text += pieces.randomElement(using: &generator) ?? ""
        }
        if Bool.random(using: &generator) {
            text += ["<!-- open", "<![CDATA[ open ]]", "<?open ?", "<!-", "<![CD", "<", "<!"].randomElement(using: &generator) ?? ""
        }
        return Array(text.utf8)
    }

    /// `bytes` cut into pieces of 1 to `largest` bytes, each a slice of an array of its own.
    static func pieces(_ bytes: [UInt8], largest: Int, _ generator: inout some RandomNumberGenerator) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var index = 0
        while index < bytes.count {
            let size = Int.random(in: 1...largest, using: &generator)
            let end = min(bytes.count, index + size)
            // Padding around the piece, so that a read past its ends would be seen.
            let padded = [UInt8(ascii: ">")] + bytes[index..<end] + [UInt8(ascii: "<")]
            pieces.append(padded[1..<(padded.count - 1)])
            index = end
        }
        return pieces
    }

    @Test("random documents in random pieces: the same mark as a byte-by-byte reading, at every offset")
    func agreesWithAReading() {
        var generator = SplitMix64(seed: 47)
        var compared = 0
        for round in 0..<400 {
            let bytes = Self.document(&generator)
            let base = round % 3 == 0 ? 0 : 1000
            let held = HeldBytes(pieces: Self.pieces(bytes, largest: [1, 3, 7, 64][round % 4], &generator), start: base)
            for offset in base...(base + bytes.count) {
                for lower in [0, base + bytes.count / 3, offset - 5] {
                    let read = held.lastMark(before: offset, downTo: lower)
                    let expected = Self.expected(bytes, base: base, before: offset, downTo: lower)
                    #expect(read == expected, "\(String(decoding: bytes, as: UTF8.self)) at \(offset - base), down to \(lower - base)")
                    compared += 1
                    if read != expected { return }
                }
            }
        }
        #expect(compared > 10_000)
    }
}

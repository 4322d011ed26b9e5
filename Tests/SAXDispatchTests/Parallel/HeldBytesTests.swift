import Testing

@testable import SAXDispatch
@testable import SAXDispatchTools  // SplitMix64, a seeded generator

/// The walk over comments, CDATA sections and processing instructions that a cut found by
/// looking ahead relies on (``HeldBytes/openMarkup(from:at:limit:spacing:)``) agrees with a
/// plain reading of the same bytes, at every offset, however the bytes are cut into pieces.
@Suite("Held bytes: the walk over comments, CDATA sections and processing instructions")
struct HeldBytesTests {
    /// What the walk must say, read byte by byte from the whole of `bytes` (`base` is the
    /// offset of its first byte).
    static func expected(
        _ bytes: [UInt8], base: Int, from: Int, at offset: Int, limit: Int, spacing: Int
    ) -> HeldBytes.OpenMarkup {
        func starts(_ pattern: String, at index: Int) -> Bool {
            let pattern = Array(pattern.utf8)
            return index + pattern.count <= bytes.count && Array(bytes[index..<(index + pattern.count)]) == pattern
        }
        func beginsPartly(_ pattern: String, at index: Int) -> Bool {
            let pattern = Array(pattern.utf8)
            let held = bytes.count - index
            return held < pattern.count && Array(bytes[index...]) == Array(pattern.prefix(held))
        }
        var index = from - base
        var read = 0
        while true {
            var markup = index
            while markup + 1 < bytes.count
                && !(bytes[markup] == UInt8(ascii: "<") && (bytes[markup + 1] == UInt8(ascii: "!") || bytes[markup + 1] == UInt8(ascii: "?")))
            {
                markup += 1
            }
            guard markup + 1 < bytes.count, base + markup < offset else { return .none }
            read += 1
            if read > limit && base + markup - from < read * spacing { return .many }
            let terminator: String
            let body: Int
            if bytes[markup + 1] == UInt8(ascii: "?") {
                (terminator, body) = ("?>", markup + 2)
            } else if starts("<!--", at: markup) {
                (terminator, body) = ("-->", markup + 4)
            } else if starts("<![CDATA[", at: markup) {
                (terminator, body) = ("]]>", markup + 9)
            } else if beginsPartly("<!--", at: markup) || beginsPartly("<![CDATA[", at: markup) {
                return .endsAfter(nil)
            } else {
                return .unexpected
            }
            var close = body
            while close < bytes.count && !starts(terminator, at: close) { close += 1 }
            guard close < bytes.count else { return .endsAfter(nil) }
            index = close + terminator.utf8.count
            if base + index > offset { return .endsAfter(base + index) }
        }
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

    @Test("random documents in random pieces: the same answer as a byte-by-byte reading, at every offset")
    func agreesWithAReading() {
        var generator = SplitMix64(seed: 47)
        var compared = 0
        for round in 0..<400 {
            let bytes = Self.document(&generator)
            let base = round % 3 == 0 ? 0 : 1000
            let held = HeldBytes(pieces: Self.pieces(bytes, largest: [1, 3, 7, 64][round % 4], &generator), start: base)
            for offset in base...(base + bytes.count) {
                for (limit, spacing) in [(Int.max, 0), (2, 8)] {
                    let walked = held.openMarkup(from: base, at: offset, limit: limit, spacing: spacing)
                    let read = Self.expected(bytes, base: base, from: base, at: offset, limit: limit, spacing: spacing)
                    #expect(walked == read, "\(String(decoding: bytes, as: UTF8.self)) at \(offset - base), limit \(limit)")
                    compared += 1
                    if walked != read { return }
                }
            }
        }
        #expect(compared > 10_000)
    }
}

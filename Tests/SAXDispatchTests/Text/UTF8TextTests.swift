import Testing

@testable import SAXDispatch
@testable import SAXDispatchTools  // SplitMix64, the seeded generator the zoo sample uses

@Suite("Strings from expat's UTF-8")
struct UTF8TextTests {
    /// Swift's own verdict on well-formedness.
    func swiftSaysWellFormed(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    @Test("the validator agrees with the standard library on edge cases and random bytes")
    func validatorAgrees() {
        let cases: [[UInt8]] = [
            [], [0x41], Array("plain ASCII longer than eight bytes".utf8), Array("Grüße → 𝄞 é".utf8),
            [0xC2, 0x80], [0xC1, 0xBF], [0xC0, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xE0, 0x9F, 0xBF],
            [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
            [0xE2, 0x82], [0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0xE2, 0x82], [0x80], [0xFF],
            Array("12345678".utf8) + [0xC3, 0xA9] + Array("abcdefgh".utf8),
        ]
        for bytes in cases {
            let verdict = bytes.withUnsafeBytes { UTF8Text.isWellFormed($0) }
            #expect(verdict == swiftSaysWellFormed(bytes), "\(bytes)")
        }
        var random = SplitMix64(seed: 2_026)
        let alphabet: [UInt8] = [0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            let verdict = bytes.withUnsafeBytes { UTF8Text.isWellFormed($0) }
            #expect(verdict == swiftSaysWellFormed(bytes), "\(bytes)")
        }
    }

    @Test("long ASCII runs, checked many bytes at a time, still find a bad or a good sequence anywhere")
    func validatorAgreesOnLongRuns() {
        let ascii = Array("The quick brown fox jumps over the lazy dog, then naps in the sun.".utf8)
        let insertions: [[UInt8]] = [[0xFF], [0x80], [0xE2, 0x82], [0xC3, 0xA9], [0xF0, 0x9D, 0x84, 0x9E], [0xED, 0xA0, 0x80]]
        for insertion in insertions {
            for position in 0...ascii.count {
                let bytes = Array(ascii[..<position]) + insertion + Array(ascii[position...])
                let verdict = bytes.withUnsafeBytes { UTF8Text.isWellFormed($0) }
                #expect(verdict == swiftSaysWellFormed(bytes), "\(insertion) at \(position)")
            }
        }
        // Mostly ASCII, as text is, with a rare other byte, over lengths past several strides.
        var random = SplitMix64(seed: 2_027)
        let rare: [UInt8] = [0x80, 0xBF, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5]
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 0...100, using: &random)).map { _ in
                Int.random(in: 0..<40, using: &random) == 0
                    ? rare.randomElement(using: &random)! : UInt8.random(in: 0x20...0x7E, using: &random)
            }
            let verdict = bytes.withUnsafeBytes { UTF8Text.isWellFormed($0) }
            #expect(verdict == swiftSaysWellFormed(bytes), "\(bytes)")
        }
    }

    @Test("the form is ASCII exactly when every byte is, at every length and position of the other byte")
    func formFindsEveryOtherByte() {
        // Lengths around the word and half-word loads, with one byte that is not ASCII at each
        // position (the overlapping loads at the end must see it), well-formed or not.
        for length in 0...40 {
            let ascii = (0..<length).map { UInt8(0x61 + $0 % 26) }
            #expect(ascii.withUnsafeBytes { UTF8Text.form(of: $0) } == .ascii, "\(length)")
            for position in 0..<length {
                for other: [UInt8] in [[0xC3, 0xA9], [0x80], [0xE2, 0x82, 0xAC], [0xFF]] {
                    var bytes = ascii
                    bytes.replaceSubrange(position..<min(length, position + other.count), with: other)
                    let form = bytes.withUnsafeBytes { UTF8Text.form(of: $0) }
                    #expect(form == (swiftSaysWellFormed(bytes) ? .wellFormed : .illFormed), "\(bytes)")
                    let made = bytes.withUnsafeBytes { UTF8Text.string($0) }
                    #expect(made == String(decoding: bytes, as: UTF8.self))
                }
            }
        }
    }

    @Test("strings are what the standard library makes, well-formed or not")
    func stringsMatch() {
        for bytes: [UInt8] in [Array("Grüße → 𝄞".utf8), [0x61, 0xED, 0xA0, 0x80, 0x62], [0xE2, 0x82]] {
            let made = bytes.withUnsafeBytes { UTF8Text.string($0) }
            #expect(made == String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test("attribute values and names from C strings are what String(cString:) makes")
    func cStringsMatch() throws {
        for bytes: [UInt8] in [[], Array("53.8491154".utf8), Array("Kirkgate & Märkt 𝄞".utf8), [0x61, 0xC3], [0xFF, 0x41]] {
            let terminated = (bytes + [0]).map { CChar(bitPattern: $0) }
            let made = terminated.withUnsafeBufferPointer { UTF8Text.string(cString: $0.baseAddress!) }
            #expect(made == terminated.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, "\(bytes)")
        }
        var values: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onStart("n") { element in
            values += [element.attributes["lat"] ?? "-", element.attributes["name"] ?? "-", element.attributes[""] ?? "-"]
        }
        try dispatcher.parse(.string("<n lat=\"53.84\" lon=\"1\" name=\"Grüße &amp; 𝄞\"/>"))
        #expect(values == ["53.84", "Grüße & 𝄞", "-"])
    }

    @Test("streamed text pieces never split a character, however long the text")
    func piecesHoldWholeCharacters() throws {
        // 3-byte characters, so the 64 KiB slice boundary falls inside one.
        let text = String(repeating: "€", count: 70_000)
        var pieces: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onText("r") { _, chunk in pieces.append(chunk.string) }
        try dispatcher.parse(.string("<r>\(text)</r>"))
        #expect(pieces.count > 1)
        #expect(!pieces.contains { $0.contains("\u{FFFD}") })
        #expect(pieces.joined() == text)
    }
}

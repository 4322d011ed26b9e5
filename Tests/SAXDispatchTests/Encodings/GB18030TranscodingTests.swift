import Testing

@testable import SAXDispatch

/// The transcoder reads GB18030 by copying ASCII and looking up two-byte sequences, with
/// iconv for the rest: whatever the bytes and however they are cut into pieces, it must
/// deliver the UTF-8 iconv gives for the whole input, stop where iconv finds an invalid
/// sequence, and carry an incomplete one at the end.
@Suite("GB18030 transcoding")
struct GB18030TranscodingTests {
    /// What a conversion gave: the UTF-8, whether it stopped at an invalid sequence, and
    /// whether the input ended inside a sequence.
    struct Result: Equatable {
        var utf8: [UInt8] = []
        var invalid = false
        var endsInside = false
    }

    static func encoded(_ text: String) -> [UInt8] {
        let converter = IconvConverter(from: "UTF-8", to: "GB18030")!
        let input = Array(text.utf8)
        var output = [UInt8](repeating: 0, count: input.count * 4 + 8)
        let (status, _, written) = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { converter.convert(source, into: $0) }
        }
        #expect(status == .complete)
        return Array(output[..<written])
    }

    /// iconv alone, over the whole input at once.
    static func reference(_ bytes: [UInt8]) -> Result {
        let converter = IconvConverter(from: "GB18030")!
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 8)
        let (status, consumed, written) = bytes.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { converter.convert(source, into: $0) }
        }
        return Result(
            utf8: Array(output[..<written]), invalid: status == .invalid,
            endsInside: status == .incomplete && consumed < bytes.count)
    }

    static func transcoded(_ bytes: [UInt8], piece: Int) -> Result {
        let transcoder = EncodingTranscoder(name: "GB18030", path: .transcoder(iconvName: "GB18030"))!
        var result = Result()
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            let outcome = bytes[offset..<end].withUnsafeBytes { piece in
                transcoder.convert(piece) { utf8 in
                    result.utf8 += utf8
                    return true
                }
            }
            if outcome == .invalid {
                result.invalid = true
                return result
            }
            offset = end
        }
        result.endsInside = transcoder.endsInsideSequence
        return result
    }

    @Test("the same UTF-8, stop and carried end as iconv, in any pieces")
    func sameAsIconv() {
        let pieces = ["a", "b c ", "<x>", "简", "体", "中文", "東京", "😀", "€", "𠀀", "\u{E5E5}", "ü", "\n"].map(Self.encoded)
        let invalid: [[UInt8]] = [[0x80], [0xFF], [0x81, 0x20], [0x81, 0x30, 0x20], [0x81, 0x30, 0x81, 0x20]]
        let incomplete: [[UInt8]] = [[0x81], [0x94, 0x39], [0x94, 0x39, 0xFC]]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for round in 0..<300 {
            var bytes: [UInt8] = []
            for _ in 0..<(1 + next(60)) { bytes += pieces[next(pieces.count)] }
            switch round % 3 {
            case 1: bytes.insert(contentsOf: invalid[next(invalid.count)], at: next(bytes.count + 1))
            case 2: bytes += incomplete[next(incomplete.count)]
            default: break
            }
            let expected = Self.reference(bytes)
            for piece in [1, 2, 3, 5, 17, 64, bytes.count] {
                #expect(Self.transcoded(bytes, piece: piece) == expected, "round \(round), pieces of \(piece)")
            }
        }
    }

    @Test("output longer than the transcoder's buffer arrives whole")
    func longOutput() {
        let bytes = Array(repeating: Self.encoded("动物园 zoo "), count: 20_000).flatMap { $0 }
        let expected = Self.reference(bytes)
        #expect(!expected.invalid && !expected.endsInside)
        #expect(Self.transcoded(bytes, piece: bytes.count) == expected)
        #expect(Self.transcoded(bytes, piece: 65_537) == expected)
    }
}

@testable import SAXDispatchTools  // SplitMix64
import Testing

@testable import SAXDispatch

/// The framer's fast reading of tags (sixteen bytes at a time, whole tags without the state
/// machine) and its proposals from an offset on: the same boundaries as a parse, however the
/// bytes are split, and the same cuts as a caller that filters every boundary.
@Suite("Framing: the fast tag scan and proposals from an offset")
struct DocumentFramerScanTests {
    /// Documents whose runs end across every position of a vector and past the four vectors the
    /// scan reads before `memchr`: long and short text, attribute values with `>`, `/` and
    /// the other quote, CRLF, comments, CDATA, PIs and an internal subset.
    static let documents: [String] = [
        #"<r><!-- <page> --><page a="<page>"/><![CDATA[<page>]]><?pi <page>?><page/></r>"#,
        #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "<page/>"><!-- <page> --><?pi <page>?><!ATTLIST page x CDATA "<">]><r>&e;<page x='>'/></r>"#,
        "<r>\r\n<page>\r<x/></page>\r\n\t<page>é東<y>\u{10000}</y></page>\r\n</r>",
        #"<a:r xmlns:a="u"><a:page/><b:page xmlns:b="u"/><page/></a:r>"#,
        "<r><page>]]</page><page>--></page><page>?></page></r>",
        "<r>" + String(repeating: "text and more text, ", count: 5) + "<page a=\"" + String(repeating: "/>'", count: 20)
            + "\" b='" + String(repeating: "\">/", count: 17) + "'>" + String(repeating: "x", count: 70)
            + "</page><page/><page  c = \"1\" /><page\n>é</page\n></r>",
        "<osm>\n <node id=\"1\" lat=\"53.8491154\" lon=\"-1.5510721\">\n  <tag k=\"a\" v=\"b\"/>\n </node>\n"
            + " <node id=\"2\"/>\n <way id=\"3\"><nd ref=\"1\"/></way>\n</osm>",
        "<r><page><![CDATA[" + String(repeating: "]>", count: 40) + "]]></page><!--" + String(repeating: "->", count: 40)
            + "--><page/><?p " + String(repeating: "?", count: 33) + "?><page/></r>",
        // Terminators' marks and `>` where they end nothing, whole in a piece or not.
        "<r><!-- -> --><page/><![CDATA[]>]]]><page/><?p >?><page><?q ??></page><!----><page/><![CDATA[]]><page/></r>",
    ]

    @Test("boundaries as the parse finds them, fed in pieces of every size from 1 to 64 bytes")
    func everySplit() {
        var found: [String] = []
        for (index, text) in Self.documents.enumerated() {
            found += DocumentFramerTests.disagreements(Array(text.utf8), file: "document \(index)", splits: [nil] + Array(1...64))
        }
        #expect(found.isEmpty, "\(found.prefix(20).joined(separator: "\n"))")
    }

    @Test("a malformed empty-element tag stops the framer at the same offset however it is split")
    func slashWithoutClose() {
        let bytes = Array("<r><page/><page a='1'/ ><page/></r>".utf8)
        for split in 1...bytes.count {
            let framer = DocumentFramerTests.frame(bytes, name: Array("page".utf8), pieces: split).framer
            #expect(framer.stop == .unexpectedMarkup(offset: 22), "split \(split)")
        }
    }

    @Test("proposals from an offset: the cuts a caller that filters every boundary takes")
    func proposalsFrom() {
        for text in Self.documents + [Self.generated(records: 300)] {
            let bytes = Array(text.utf8)
            for name in ["page", "node", "x", "r"] {
                let all = DocumentFramerTests.frame(bytes, name: Array(name.utf8), pieces: nil).boundaries
                for spacing in [1, 7, 40, 300] {
                    var expected: [Int] = []
                    var next = spacing
                    for boundary in all where boundary.offset >= next && !boundary.ancestors.isEmpty {
                        expected.append(boundary.offset)
                        next = boundary.offset + spacing
                    }
                    for split in [1, 3, 64, bytes.count] {
                        var framer = DocumentFramer(recordName: Array(name.utf8))
                        framer.proposalsFrom = spacing
                        var cuts: [FrameBoundary] = []
                        bytes.withUnsafeBytes { all in
                            var start = 0
                            while start < all.count {
                                let end = min(all.count, start + split)
                                framer.scanForCuts(UnsafeRawBufferPointer(rebasing: all[start..<end])) { boundary in
                                    guard !boundary.ancestors.isEmpty else { return boundary.offset + 1 }
                                    cuts.append(boundary)
                                    return boundary.offset + spacing
                                }
                                start = end
                            }
                        }
                        #expect(cuts.map(\.offset) == expected, "\(name) spacing \(spacing) split \(split)")
                        // A proposal is the boundary the framer proposes to everyone.
                        for cut in cuts {
                            let same = all.first { $0.offset == cut.offset }
                            #expect(same == cut)
                            #expect(cut.contextBytes == framer.prolog.count + cut.ancestors.reduce(0) { $0 + $1.bytes.count })
                        }
                    }
                }
            }
        }
    }

    /// A document of `records` pages with text, attributes and nesting.
    static func generated(records: Int) -> String {
        var random = SplitMix64(seed: 47)
        var text = "<?xml version=\"1.0\"?>\n<wiki xmlns=\"urn:w\">\n"
        for index in 0..<records {
            let words = Int(random.next() % 12)
            text += "  <page id=\"\(index)\" t='\(String(repeating: "a/", count: words))'>\n    <title>"
            text += String(repeating: "word ", count: words) + "</title><x/>\n  </page>\n"
        }
        return text + "</wiki>\n"
    }

    @Test("line feeds counted sixteen bytes at a time in long pieces: the positions counted a byte at a time")
    func longPieces() {
        var random = SplitMix64(seed: 16)
        let alphabet: [UInt8] = [0x0A, 0x20, 0x41, 0x3C, 0xC3, 0xA9, 0x0A, 0x41, 0x20, 0x0A]
        var wrong: [String] = []
        for round in 0..<80 {
            let length = 1 + Int(random.next() % 20_000)
            var bytes = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            // Every other round, a few carriage returns anywhere (one after another too): the
            // pieces that hold one are counted a byte at a time.
            if round % 2 == 1 {
                for _ in 0..<(1 + random.next() % 4) { bytes[Int(random.next() % UInt64(length))] = 0x0D }
            }
            for utf8 in [true, false] {
                var counter = FramePosition(utf8: utf8)
                var start = 0
                while start < bytes.count {
                    let end = min(bytes.count, start + 1 + Int(random.next() % 9000))
                    bytes[start..<end].withUnsafeBytes { counter.count($0) }
                    start = end
                }
                let expected = DocumentFramerTests.reference(bytes, utf8: utf8)
                if counter.line != expected.line || counter.column != expected.column {
                    wrong.append("round \(round) utf8 \(utf8): \(counter.line):\(counter.column), not \(expected.line):\(expected.column)")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test("line feeds far apart in long pieces: the positions counted a byte at a time")
    func farApartLineFeeds() {
        var random = SplitMix64(seed: 23)
        // Long lines, so the column after each piece's last line feed spans many words; and
        // 0x0B after a line feed, which a search for it a word at a time would also flag.
        let alphabet: [UInt8] = [0x20, 0x41, 0x0B, 0xC3, 0xA9, 0x09, 0x3C, 0x0B, 0x7A]
        var wrong: [String] = []
        for round in 0..<120 {
            let length = 1 + Int(random.next() % 30_000)
            let spacing = 1 + Int(random.next() % 3000)
            let bytes = (0..<length).map { _ in
                random.next() % UInt64(spacing) == 0 ? 0x0A : alphabet[Int(random.next() % UInt64(alphabet.count))]
            }
            for utf8 in [true, false] {
                var counter = FramePosition(utf8: utf8)
                var start = 0
                while start < bytes.count {
                    let end = min(bytes.count, start + 1 + Int(random.next() % 12_000))
                    bytes[start..<end].withUnsafeBytes { counter.count($0) }
                    start = end
                }
                let expected = DocumentFramerTests.reference(bytes, utf8: utf8)
                if counter.line != expected.line || counter.column != expected.column {
                    wrong.append("round \(round) utf8 \(utf8): \(counter.line):\(counter.column), not \(expected.line):\(expected.column)")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test("pieces with no line feed at all, in characters of one to four bytes: the columns counted a byte at a time")
    func noLineFeeds() {
        var random = SplitMix64(seed: 31)
        // A character of each length, and stray continuation bytes and lead bytes, which
        // count as a byte at a time counts them; a line feed only in some rounds' first byte.
        let characters: [[UInt8]] = [[0x41], [0x3C], [0xC3, 0xA9], [0xE6, 0x9D, 0xB1], [0xF0, 0x9F, 0x98, 0x80], [0x80], [0xBF], [0xC0], [0xFF], [0x0B]]
        var wrong: [String] = []
        for round in 0..<60 {
            var bytes: [UInt8] = round % 3 == 0 ? [0x0A] : []
            let length = 1 + Int(random.next() % 40_000)
            while bytes.count < length { bytes += characters[Int(random.next() % UInt64(characters.count))] }
            for utf8 in [true, false] {
                var counter = FramePosition(utf8: utf8)
                var start = 0
                while start < bytes.count {
                    let end = min(bytes.count, start + 1 + Int(random.next() % 16_000))
                    bytes[start..<end].withUnsafeBytes { counter.count($0) }
                    start = end
                }
                let expected = DocumentFramerTests.reference(bytes, utf8: utf8)
                if counter.line != expected.line || counter.column != expected.column {
                    wrong.append("round \(round) utf8 \(utf8): \(counter.line):\(counter.column), not \(expected.line):\(expected.column)")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test("sixteen bytes at a time: the first byte sought, at every start and end")
    func byteScan() {
        var random = SplitMix64(seed: 8)
        let alphabet: [UInt8] = Array("ab<>\"'/-]?\n".utf8) + [0x00, 0x80, 0xBC, 0xFF, 0x3D, 0x3B]
        let tagEnds = Array(">\"'/".utf8)
        var wrong: [String] = []
        for round in 0..<120 {
            let bytes = (0..<Int(random.next() % 120)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            bytes.withUnsafeBufferPointer { buffer in
                guard let start = buffer.baseAddress else { return }
                for from in 0...bytes.count {
                    for end in from...bytes.count {
                        for sought in tagEnds where ByteScan.first(sought, start, from: from, end) != (bytes[from..<end].firstIndex(of: sought) ?? end) {
                            wrong.append("round \(round) \(sought) in \(from)..<\(end)")
                        }
                        if ByteScan.firstInStartTag(start, from: from, end) != (bytes[from..<end].firstIndex { tagEnds.contains($0) } ?? end) {
                            wrong.append("round \(round) tag end in \(from)..<\(end)")
                        }
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }
}

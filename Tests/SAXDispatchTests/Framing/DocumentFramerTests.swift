import Foundation
@testable import SAXDispatchTools  // SplitMix64
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// The framer against a parse of the same bytes: for every local name a document's
/// elements have, the boundaries it proposes are exactly the parse's start tags of that
/// name at the depth of the first one, with the parse's line and column and the offsets
/// of the open elements, however its input is split.
@Suite("Framing: record boundaries proposed by a lexical pass")
struct DocumentFramerTests {
    /// What a parse found: every start tag written in the document's bytes (not produced by
    /// an entity reference), with its position and the offsets of the open elements.
    struct ParsedStart: Equatable, CustomStringConvertible {
        var offset: Int
        var line: Int
        var column: Int
        var depth: Int
        var localName: [UInt8]
        var ancestors: [Int]
        var description: String { "\(String(decoding: localName, as: UTF8.self))@\(offset) \(line):\(column) in \(ancestors)" }
    }

    /// The start tags a parse found before its end or its first error, and the error's offset.
    static func parse(_ bytes: [UInt8]) -> (starts: [ParsedStart], errorOffset: Int?) {
        var starts: [ParsedStart] = []
        var open: [Int] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { element in
            let offset = element.byteOffset
            let written = offset >= 0 && offset < bytes.count && bytes[offset] == UInt8(ascii: "<")
            open.append(written ? offset : -1)
            guard written else { return }
            var end = offset + 1
            var localStart = end
            while end < bytes.count, !FramedTag.endsName(bytes[end]) {
                if bytes[end] == UInt8(ascii: ":") { localStart = end + 1 }
                end += 1
            }
            starts.append(
                ParsedStart(
                    offset: offset, line: element.line, column: element.column, depth: element.depth,
                    localName: Array(bytes[localStart..<end]), ancestors: Array(open.dropLast())))
        }
        dispatcher.onAnyEnd { _ in open.removeLast() }
        do {
            try dispatcher.parse(.bytes(bytes))
            return (starts, nil)
        } catch let error as XMLParseError {
            return (starts, error.byteOffset)
        } catch {
            return (starts, 0)
        }
    }

    /// The boundaries the parse says a framer for `name` must propose: its start tags at the
    /// depth of the first of that name, from that one on, before `limit`.
    static func expected(_ starts: [ParsedStart], name: [UInt8], before limit: Int) -> [ParsedStart] {
        guard let first = starts.first(where: { $0.localName == name }) else { return [] }
        return starts.filter { $0.depth == first.depth && $0.offset >= first.offset && $0.offset < limit }
    }

    static func frame(_ bytes: [UInt8], name: [UInt8], pieces: Int?) -> (boundaries: [FrameBoundary], framer: DocumentFramer) {
        var framer = DocumentFramer(recordName: name)
        var boundaries: [FrameBoundary] = []
        bytes.withUnsafeBytes { all in
            let size = pieces ?? max(1, all.count)
            var start = 0
            while start < all.count {
                let end = min(all.count, start + size)
                framer.scan(UnsafeRawBufferPointer(rebasing: all[start..<end])) { boundaries.append($0) }
                start = end
            }
        }
        return (boundaries, framer)
    }

    /// Checks the framer for every local name of `bytes`; returns a description of each
    /// disagreement.
    static func disagreements(_ bytes: [UInt8], file: String, splits: [Int?]) -> [String] {
        let (starts, errorOffset) = parse(bytes)
        var found: [String] = []
        // The names of the first elements, at most 12: each is a framing of its own.
        var names: [[UInt8]] = []
        for start in starts where !names.contains(start.localName) && names.count < 12 { names.append(start.localName) }
        for name in names {
            let label = "\(file) record \(String(decoding: name, as: UTF8.self))"
            var first: [FrameBoundary]?
            for split in splits {
                let (boundaries, framer) = frame(bytes, name: name, pieces: split)
                if let first, first != boundaries {
                    found.append("\(label): split \(split ?? 0) proposes other boundaries than whole")
                }
                first = first ?? boundaries
                // Before an error, only the start tags the parse reported are owed: the one
                // it failed in may be proposed or not.
                let limit = errorOffset.map { min($0, (starts.last?.offset ?? -1) + 1) } ?? Int.max
                // Where the framer stopped, only the boundaries before it are owed.
                // A boundary says whether its element has the record's name, not which other name.
                var owed = expected(starts, name: name, before: limit).map { start in
                    var start = start
                    if start.localName != name { start.localName = [] }
                    return start
                }
                var proposed = boundaries.filter { $0.offset < limit }
                if let stop = framer.stop {
                    if errorOffset == nil, stop != .unsupportedEncoding {
                        found.append("\(label): stopped (\(stop)) in a document the parse accepts")
                    }
                    owed = owed.filter { owed in proposed.last.map { owed.offset <= $0.offset } ?? false }
                    proposed = Array(proposed.prefix(owed.count))
                }
                let got = proposed.map {
                    ParsedStart(
                        offset: $0.offset, line: $0.line, column: $0.column, depth: $0.ancestors.count + 1,
                        localName: $0.isRecord ? name : [], ancestors: $0.ancestors.map(\.offset))
                }
                if got != owed {
                    let index = zip(got, owed).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, owed.count)
                    let gotText = index < got.count ? got[index].description : "nothing"
                    let owedText = index < owed.count ? owed[index].description : "nothing"
                    found.append("\(label), split \(split ?? 0): boundary \(index) is \(gotText), the parse has \(owedText)")
                }
                // Every kept ancestor tag is the document's bytes at its offset.
                for boundary in proposed {
                    for tag in boundary.ancestors where Array(bytes[tag.offset..<min(bytes.count, tag.offset + tag.bytes.count)]) != tag.bytes {
                        found.append("\(label): the ancestor tag at \(tag.offset) is not the document's bytes")
                    }
                }
                if framer.rootStarted, errorOffset == nil, let rootOffset = starts.first?.offset, rootOffset <= bytes.count,
                    framer.prolog != Array(bytes[0..<rootOffset]), framer.stop == nil
                {
                    found.append("\(label): the prolog is not the bytes before the root element")
                }
            }
        }
        return found
    }

    static func documents(under directory: URL, limit: Int = 256 * 1024) -> [(String, [UInt8])] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.fileSizeKey]) else {
            return []
        }
        var documents: [(String, [UInt8])] = []
        for case let url as URL in walker where ["xml", "osm", "rss", "atom"].contains(url.pathExtension) {
            guard let data = try? Data(contentsOf: url), data.count <= limit else { continue }
            documents.append((url.path.replacingOccurrences(of: directory.path + "/", with: ""), [UInt8](data)))
        }
        return documents.sorted { $0.0 < $1.0 }
    }

    @Test("the fixtures: boundaries as the parse finds them, fed whole and by 1, 3 and 7 bytes")
    func fixtures() {
        let documents = Self.documents(under: TestPaths.fixtures)
        #expect(documents.count > 15)
        var found: [String] = []
        for (file, bytes) in documents { found += Self.disagreements(bytes, file: file, splits: [nil, 1, 3, 7]) }
        #expect(found.count == 0, "\(found.prefix(20).joined(separator: "\n"))")
    }

    @Test(
        "the W3C suite: boundaries as the parse finds them, whole and by 5 bytes",
        .enabled(if: TestPaths.conformanceSuite != nil, TestPaths.conformanceSuiteMissing))
    func conformanceSuite() throws {
        let suite = try #require(TestPaths.conformanceSuite)
        let documents = Self.documents(under: suite, limit: 64 * 1024)
        #expect(documents.count > 2000)
        var found: [String] = []
        for (file, bytes) in documents { found += Self.disagreements(bytes, file: file, splits: [nil, 5]) }
        #expect(found.count == 0, "\(found.count) disagreements:\n\(found.prefix(30).joined(separator: "\n"))")
    }

    @Test(
        "the adversarial corpus: boundaries as the parse finds them before its first error",
        .enabled(if: AdversarialCorpus.shared != nil, TestPaths.adversarialGeneratorMissing))
    func adversarialCorpus() throws {
        let corpus = try #require(AdversarialCorpus.shared)
        var found: [String] = []
        var checked = 0
        for test in corpus.cases {
            guard let data = try? Data(contentsOf: test.url), data.count <= 1 << 20 else { continue }
            found += Self.disagreements([UInt8](data), file: test.file, splits: [nil, 4])
            checked += 1
        }
        #expect(checked > 50)
        #expect(found.count == 0, "\(found.count) disagreements:\n\(found.prefix(30).joined(separator: "\n"))")
    }

    @Test("documents built to fool a framer: the record's tag in comments, CDATA, attribute values, PIs, the internal subset")
    func foolingDocuments() {
        let documents = [
            #"<r><!-- <page> --><page a="<page>"/><![CDATA[<page>]]><?pi <page>?><page/></r>"#,
            #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "<page/>"><!-- <page> --><?pi <page>?><!ATTLIST page x CDATA "<">]><r>&e;<page x='>'/></r>"#,
            "<r>\r\n<page>\r<x/></page>\n\t<page>é東<y>\u{10000}</y></page></r>",
            #"<a:r xmlns:a="u"><a:page/><b:page xmlns:b="u"/><page/></a:r>"#,
            #"<r><s><page/></s><t xml:space="preserve"><page/><page><page/></page></t></r>"#,
            "\u{FEFF}<r>\n <page/>\n <page/></r>",
            #"<r><p><page/></p><page/><q><page/></q></r>"#,
            "<r><page>]]</page><page>--></page><page>?></page></r>",
            // A stylesheet PI that says encoding, in quotes: not the declaration; the text stays UTF-8.
            "<?xml-stylesheet href=\"s.xsl?encoding='latin1'\"?><r>é<page/>東<page/></r>",
            "<?xml version='1.0' standalone='no' ?><r>é<page a=\"encoding='latin1'\"/>東<page/></r>",
        ]
        var found: [String] = []
        for (index, text) in documents.enumerated() {
            found += Self.disagreements(Array(text.utf8), file: "fooling \(index)", splits: [nil, 1, 2, 3])
        }
        #expect(found.count == 0, "\(found.joined(separator: "\n"))")
    }

    @Test("a document in ISO-8859-1 counts a column per byte; UTF-16 is not framed")
    func encodings() throws {
        var latin1 = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><r>"#.utf8)
        latin1 += [0xE9, 0xE8] + Array("<page/></r>".utf8)
        #expect(Self.disagreements(latin1, file: "latin1", splits: [nil, 1]).isEmpty)
        let (boundaries, framer) = Self.frame(latin1, name: Array("page".utf8), pieces: nil)
        #expect(boundaries.map(\.column) == [49])
        #expect(framer.stop == nil)

        let utf16 = [UInt8]("<r><page/></r>".data(using: .utf16LittleEndian)!)
        let (none, stopped) = Self.frame([0xFF, 0xFE] + utf16, name: Array("page".utf8), pieces: nil)
        #expect(none.isEmpty)
        #expect(stopped.stop == .unsupportedEncoding)
        let shiftJIS = Array(#"<?xml version="1.0" encoding="Shift_JIS"?><r><page/></r>"#.utf8)
        #expect(Self.frame(shiftJIS, name: Array("page".utf8), pieces: nil).framer.stop == .unsupportedEncoding)
    }

    @Test("ancestors, prolog and the records' depth")
    func ancestorsAndProlog() {
        let text = #"<?xml version="1.0"?>"# + "\n" + #"<m xmlns="urn:m" a="1"><s><n/></s><page id="1"><page/></page><page/></m>"#
        let (boundaries, framer) = Self.frame(Array(text.utf8), name: Array("page".utf8), pieces: 2)
        #expect(framer.recordDepth == 2)
        #expect(String(decoding: framer.prolog, as: UTF8.self) == #"<?xml version="1.0"?>"# + "\n")
        #expect(boundaries.count == 2)
        #expect(boundaries.first?.ancestors.map { String(decoding: $0.bytes, as: UTF8.self) } == [#"<m xmlns="urn:m" a="1">"#])
        #expect(boundaries.first?.ancestors.first.map { String(decoding: $0.endTag, as: UTF8.self) } == "</m>")
        #expect(boundaries.map(\.line) == [2, 2])
    }
}

extension DocumentFramerTests {
    /// Lines and columns counted a byte at a time, as expat counts them.
    static func reference(_ bytes: [UInt8], utf8: Bool) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var afterReturn = false
        for byte in bytes {
            switch byte {
            case 0x0A:
                if !afterReturn { (line, column) = (line + 1, 1) }
                afterReturn = false
            case 0x0D:
                (line, column, afterReturn) = (line + 1, 1, true)
            default:
                afterReturn = false
                if !utf8 || byte & 0xC0 != 0x80 { column += 1 }
            }
        }
        return (line, column)
    }

    @Test("positions counted eight bytes at a time equal a byte at a time, however the bytes are split")
    func positionCounting() {
        var random = SplitMix64(seed: 46)
        let mixed: [UInt8] = [0x0A, 0x0D, 0x20, 0x41, 0xC3, 0xA9, 0xE6, 0x9D, 0xB1, 0x09, 0x80, 0xBF, 0xFF, 0x3C]
        // Mostly ASCII with line feeds: the eight-at-a-time path.
        let ascii: [UInt8] = [0x0A, 0x20, 0x41, 0x3C, 0x62, 0x09, 0x7E, 0x41, 0x20, 0x0A, 0x0D]
        for round in 0..<800 {
            let alphabet = round % 2 == 0 ? mixed : ascii
            let length = Int(random.next() % 200)
            let bytes = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            for utf8 in [true, false] {
                var counter = FramePosition(utf8: utf8)
                var start = 0
                while start < bytes.count {
                    let end = min(bytes.count, start + 1 + Int(random.next() % 17))
                    bytes[start..<end].withUnsafeBytes { counter.count($0) }
                    start = end
                }
                let expected = Self.reference(bytes, utf8: utf8)
                #expect(counter.line == expected.line && counter.column == expected.column, "round \(round) utf8 \(utf8)")
            }
        }
    }
}

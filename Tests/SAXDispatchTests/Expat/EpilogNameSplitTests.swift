import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

/// After the root element, expat 2.5.0 reads a name that ends a non-final input as junk at
/// its start, where the same name fed whole is an invalid token at the character after it
/// (`x=`). The driver holds such a name back, so the error does not depend on where the
/// input was split: fed in any pieces, read in any chunks, or read on workers.
@Suite("A name after the root element, split between two feeds")
struct EpilogNameSplitTests {
    static let documents = [
        "<r><a/><b/></r>rversion=\"1.0\"?>\n<r/>\n",
        "<root>\n  <a/>\n</root>x\u{02}y",
        "<r/>#abc=",
        "<r/>\n)x",
        "<r/>abc:def&amp;",
        "<r/><!-- c -->\u{E9}t\u{E9}\u{0}",
        "<r/>\u{E9}t\u{E9}=",
        "<r/><?pi data?>na-me.x<",
        "<r/> name ",
        "<r>text</r>",
        "<r>text with some words</r>\n<!-- after -->\n<?pi after?>\n",
    ]

    /// The error (or events) of a parse, as one comparable string.
    static func outcome(_ parse: (Dispatcher) throws -> Void) -> String {
        var events: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { events.append("<\($0.name) \($0.line):\($0.column)") }
        dispatcher.onAnyEnd(text: .own) { element, text in events.append("\(element.name)>'\(text)'") }
        do {
            try parse(dispatcher)
            return events.joined(separator: " ")
        } catch let error as XMLParseError {
            return events.joined(separator: " ") + " | \(error.code) \(error.line):\(error.column)@\(error.byteOffset)"
        } catch {
            return "\(error)"
        }
    }

    /// The outcome of one parse that gives expat the whole input in its last call.
    static func fedWhole(_ bytes: [UInt8]) -> String {
        outcome { try $0.parse(.bytes(bytes)) }
    }

    static func encodings(_ document: String) -> [(String, [UInt8])] {
        let units = Array(document.utf16)
        return [
            ("UTF-8", Array(document.utf8)),
            ("UTF-16LE", [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            ("UTF-16BE", [0xFE, 0xFF] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
        ]
    }

    @Test("fed in two pieces at every byte, the same error as fed whole", arguments: documents)
    func twoFeeds(document: String) {
        for (encoding, bytes) in Self.encodings(document) {
            let whole = Self.fedWhole(bytes)
            let fedThenFinished = Self.outcome { dispatcher in
                let parser = PushParser(dispatcher)
                try parser.feed(bytes)
                try parser.finish()
            }
            #expect(fedThenFinished == whole, "\(encoding), fed whole, then finished")
            for cut in 0...bytes.count {
                let split = Self.outcome { dispatcher in
                    let parser = PushParser(dispatcher)
                    try parser.feed(bytes[..<cut])
                    try parser.feed(bytes[cut...])
                    try parser.finish()
                }
                #expect(split == whole, "\(encoding), cut at \(cut)")
            }
        }
    }

    @Test("fed and read in pieces of every small size, the same error as fed whole", arguments: documents)
    func pieces(document: String) {
        for (encoding, bytes) in Self.encodings(document) {
            let whole = Self.fedWhole(bytes)
            for size in 1...17 {
                let fed = Self.outcome { dispatcher in
                    let parser = PushParser(dispatcher)
                    try parser.feed(bytes, inPiecesOf: size)
                    try parser.finish()
                }
                #expect(fed == whole, "\(encoding), fed \(size) bytes at a time")
                let read = Self.outcome { try $0.parse(.pieces(bytes, of: size)) }
                #expect(read == whole, "\(encoding), read \(size) bytes at a time")
            }
        }
    }

    /// Chunks of 1 KiB and more are read straight into expat's buffer: the name is carried
    /// to the front of the next read.
    @Test("read into expat's buffer with the name at every place of a chunk boundary")
    func readIntoExpatsBuffer() throws {
        for tail in ["rversion=\"1.0\"?>", "x\u{02}", "#abc=", ")x", "\u{E9}t\u{E9}="] {
            for padding in 1000...1040 {
                let document = "<r>" + String(repeating: "w", count: padding) + "</r>" + tail
                let bytes = Array(document.utf8)
                let whole = Self.fedWhole(bytes)
                #expect(whole.contains("|"), "\(tail): an error")
                let path = FileManagerTemp.write(Data(bytes), name: "epilog-name-\(padding).xml")
                let read = Self.outcome { try $0.parse(.file(path).chunked(1024)) }
                #expect(read == whole, "\(tail), padding \(padding)")
            }
        }
    }

    /// A name longer than the driver holds back is junk at its start, as expat reports it
    /// when the input ends in it: bounded memory over exactness for names of kilobytes.
    @Test("a junk name longer than the held-back maximum is reported at its start")
    func longJunkName() {
        let name = String(repeating: "n", count: ExpatDriver.longestHeldEpilogName * 3)
        let bytes = Array("<r/>\(name)".utf8)
        let fed = Self.outcome { dispatcher in
            let parser = PushParser(dispatcher)
            try parser.feed(bytes, inPiecesOf: 1000)
            try parser.finish()
        }
        #expect(fed.hasSuffix("| junkAfterDocumentElement 1:5@4"))
    }

    /// The fuzzer's find: handler sets on two workers with ranges of a byte read 7 bytes at
    /// a time, against one parse.
    @Test("handler sets on workers, read in 7-byte pieces, end with one parse's error")
    func handlerSetsOnWorkers() throws {
        for document in ["<r><a/><b/></r>rversion=\"1.0\"?>\n<r/>\n", "<root>\n  <a/>\n</root>x\u{02}y"] {
            let bytes = Array(document.utf8)
            let whole = Self.fedWhole(bytes)
            for workers in [1, 2, 3] {
                let error: String
                do {
                    _ = try Dispatcher.parse(.pieces(bytes, of: 7), workers: workers, rangeBytes: 1) { _, dispatcher in
                        dispatcher.onAnyStart { _ in }
                        return { 0 }
                    } merge: { (_: Int) in }
                    error = "none"
                } catch let parseError as XMLParseError {
                    error = "\(parseError.code) \(parseError.line):\(parseError.column)@\(parseError.byteOffset)"
                }
                #expect(whole.hasSuffix("| " + error), "\(workers) workers: \(document.debugDescription)")
            }
        }
    }
}

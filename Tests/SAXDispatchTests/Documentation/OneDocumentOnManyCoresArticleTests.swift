import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// The code of OneDocumentOnManyCores.md, verbatim, on a small MediaWiki-like document.
@Suite("Article: One document on many cores")
struct OneDocumentOnManyCoresArticleTests {
    struct Page: Equatable, Sendable {
        let title: String
        let text: String
    }

    struct DecodedPage: Decodable, Sendable {
        let title: String
    }

    static let path: String = {
        var text = "<?xml version=\"1.0\"?>\n<mediawiki xmlns=\"http://www.mediawiki.org/xml/export-0.10/\">\n"
        for index in 0..<3000 {
            text += "  <page>\n    <title>Page \(index)</title>\n    <revision><text>Text of page \(index)</text></revision>\n  </page>\n"
        }
        text += "</mediawiki>\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("many-cores-\(text.utf8.count).xml").path
        // One file per content, written whole or not at all: runs at once share it, and none leaves one of its own.
        try? Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }()

    let path = Self.path

    @Test("records and Decodable values on two workers, in document order")
    func workers() throws {
        var titles: [String] = []
        var decodedTitles: [String] = []
        let page = XMLRecord("/mediawiki/page", .text("title"), .text("revision/text")) { Page(title: $0, text: $1) }
        try page.forEach(in: .file(path), workers: 2) { page in
            titles.append(page.title)
        }
        try XMLRecordDecoder().forEach(DecodedPage.self, at: "/mediawiki/page", in: .file(path), workers: 2) { page in
            decodedTitles.append(page.title)
        }
        let expected = (0..<3000).map { "Page \($0)" }
        #expect(titles == expected)
        #expect(decodedTitles == expected)

        let summary = try page.forEach(in: .file(path), workers: 2) { _ in }
        print(summary.rangesReadInParallel, summary.sequentialFrom ?? -1)
        #expect(summary.rangesReadInParallel >= 1)
        #expect(summary.sequentialFrom == nil)
    }

    @Test("records as they complete, numbered in document order")
    func asTheyComplete() throws {
        let page = XMLRecord("/mediawiki/page", .text("title"), .text("revision/text")) { Page(title: $0, text: $1) }
        final class Titles: @unchecked Sendable {
            private let lock = NSLock()
            private(set) var byNumber: [Int: String] = [:]
            func add(_ title: String, at number: Int) { lock.withLock { byNumber[number] = title } }
        }
        let titlesByNumber = Titles()
        try page.forEachAsCompleted(in: .file(path), workers: 2) { number, page in
            titlesByNumber.add(page.title, at: number)
        }
        #expect(titlesByNumber.byNumber.count == 3000)
        #expect(titlesByNumber.byNumber.sorted { $0.key < $1.key }.map(\.value) == (0..<3000).map { "Page \($0)" })
    }

    @Test("ranges read one by one give every record once")
    func ranges() throws {
        let page = XMLRecord("/mediawiki/page", .text("title"), .text("revision/text")) { Page(title: $0, text: $1) }
        let document = XMLInput.file(path)
        let ranges = try XMLDocumentRange.split(document, record: "page", parts: 4)
        var perRange: [[Page]] = []
        for range in ranges {
            perRange.append(try page.all(in: .range(range, of: document)))
        }
        #expect(ranges.count == 4)
        #expect(perRange.flatMap { $0 } == (try page.all(in: document)))
    }

    @Test("a handler set per range, merged: one parse's count")
    func handlerSets() throws {
        final class Count { var elements = 0 }
        var elements = 0
        try Dispatcher.parse(.file(path), workers: 2) { range, handlers in
            let count = Count()
            handlers.onAnyStart { element in
                if range.owns(element) { count.elements += 1 }
            }
            return { count.elements }
        } merge: { elements += $0 }
        #expect(elements == 1 + 3000 * 4)
    }

    @Test("byte ranges cut anywhere read every record once; a record's offset resumes a task")
    func byteRanges() throws {
        let page = XMLRecord("/mediawiki/page", .text("title"), .text("revision/text")) { Page(title: $0, text: $1) }
        let whole = try page.all(in: .file(path))
        for cut in [0, 1, 97, 100_000, 150_001, Int.max - 1] {
            var firstPart: [Page] = []
            var secondPart: [Page] = []
            try page.forEach(in: .file(path), startingIn: 0..<cut) { firstPart.append($0) }
            try page.forEach(in: .file(path), startingIn: cut..<Int.max) { secondPart.append($0) }
            #expect(firstPart + secondPart == whole, "cut \(cut)")
        }
        let located = XMLRecord("/mediawiki/page", .byteOffset, .text("title")) { (offset: $0, title: $1) }
        let last = try located.all(in: .file(path)).last
        let offset = try #require(last?.offset)
        #expect(last?.title == "Page 2999")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes[offset..<(offset + 6)] == Data("<page>".utf8))
        #expect(try page.forEach(in: .file(path), startingIn: (offset + 1)..<Int.max) { _ in }.delivered == 0)
    }
}

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
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("many-cores-\(getpid()).xml").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
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
}

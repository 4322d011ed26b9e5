import Foundation
import SAXDispatch

/// A page of a MediaWiki export (`<mediawiki><page>…</page>…</mediawiki>`), with its
/// latest revision. Keys name child elements; `redirect/@title` reads the title
/// attribute of `<redirect title="…"/>`, and the enum maps `ns` to a readable name.
struct Page: Codable, Equatable, Sendable {
    struct Revision: Codable, Equatable, Sendable {
        let id: Int
        let timestamp: Date
        /// The contributor's user name; an anonymous edit has an `<ip>` instead.
        let author: String?
        /// The wikitext, exactly as written (the decoder keeps whitespace).
        let text: String

        enum CodingKeys: String, CodingKey {
            case id, timestamp, text
            case author = "contributor/username"
        }
    }

    let title: String
    let namespace: Int
    let id: Int
    /// The page this one redirects to, if it is a redirect.
    let redirect: String?
    let revision: Revision

    enum CodingKeys: String, CodingKey {
        case title, id, revision
        case namespace = "ns"
        case redirect = "redirect/@title"
    }
}

/// Streams the pages of a MediaWiki export as they arrive, one `Page` at a time:
/// a dump of any size reads in the memory of one page.
enum WikiDump {
    /// The decoder for pages: the wikitext keeps its whitespace.
    static let decoder: XMLRecordDecoder = {
        var decoder = XMLRecordDecoder()
        decoder.whitespace = .preserve
        return decoder
    }()

    /// The pages of an export as they arrive: byte chunks from a network download or a
    /// decompressor (`.chunks(download)`), bytes (`.bytes(response)`), or a file read
    /// chunk by chunk (`.file(path)`). The parser runs only as fast as the pages are taken.
    ///
    /// The stream's `next()` throws `XMLDecodingError` (with line, column and element path)
    /// for a page that does not decode, `XMLParseError` for a malformed export, or the
    /// source's error.
    static func pages(from input: AsyncXMLInput) -> XMLStream<Page> {
        decoder.stream(Page.self, at: "/mediawiki/page", from: input)
    }

    /// What ``summarize(_:)`` counts.
    struct Summary: Equatable {
        var pages = 0
        var redirects = 0
        var characters = 0
    }

    /// Prints a line per page (title, text length in characters, redirect target) and
    /// returns the totals.
    static func summarize<Pages: AsyncSequence>(_ pages: Pages, print: (String) -> Void = { Swift.print($0) })
        async throws -> Summary where Pages.Element == Page
    {
        var summary = Summary()
        for try await page in pages {
            summary.pages += 1
            summary.characters += page.revision.text.count
            var line = "\(page.title)\t\(page.revision.text.count)"
            if let target = page.redirect {
                summary.redirects += 1
                line += "\t→ \(target)"
            }
            print(line)
        }
        return summary
    }
}

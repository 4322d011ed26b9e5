import Foundation
import SAXDispatch
import SAXDispatchTools
import Testing

@testable import BordersExample
@testable import FeedExample
@testable import RecurlyAccountExample
@testable import WikiDumpExample
@testable import WikiFilterExample
@testable import ZooExample

#if canImport(FoundationXML)
import FoundationXML
#endif

func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
}

@Suite("Examples")
struct ExamplesTests {
    let november2 = Date(timeIntervalSince1970: 1_793_610_000)  // 2026-11-02T09:00:00Z
    let november10 = Date(timeIntervalSince1970: 1_794_313_800)  // 2026-11-10T12:30:00Z
    let paths = "Paths, not trees: routing <name> by context"

    @Test("Zoo: immutable models from typed records, and the same from hand-written handlers")
    func zoo() throws {
        let zoo = try ZooRecords.read(contentsOfFile: fixture("zoo.xml"))
        #expect(try ZooHandlerReader.read(contentsOfFile: fixture("zoo.xml")) == zoo)
        #expect(
            zoo.animals == [
                Animal(kind: "cat", name: "grumpy", url: try #require(URL(string: "http://en.wikipedia.org/wiki/Grumpy_Cat"))),
                Animal(
                    kind: "dog", name: "i have no idea what i'm doing",
                    url: try #require(URL(string: "http://knowyourmeme.com/memes/i-have-no-idea-what-im-doing"))),
            ])
        #expect(zoo.toiletCount == 42)
        #expect(zoo.disabledParking == true)
        #expect(zoo.drainage == "Good")
    }

    @Test("Zoo: a value that does not convert is a clear error naming the element, field, text and type")
    func zooBadValue() throws {
        let path = fixture("zoo-bad-toilet.xml")
        let error = #expect(throws: XMLRecordError.self) { try ZooRecords.read(contentsOfFile: path) }
        #expect(
            error?.description
                == "\(path):15:9: error: cannot convert \"4x2\" to Int at zoo/facilities/toilet (in record Zoo, field toiletCount): expected an integer")
        let handlerError = #expect(throws: HandlerError.self) { try ZooHandlerReader.read(contentsOfFile: path) }
        #expect(handlerError?.underlying as? ZooError == ZooError(message: "cannot convert \"4x2\" to Int"))
    }

    @Test("Borders: paths filed by the border kind of their parent")
    func borders() throws {
        let map = try BordersReader.read(contentsOfFile: fixture("borders.xml"))
        #expect(map.paths[.internalBorder] == ["M 0 0 L 10 0", "M 10 0 L 10 10", "M 5 0 L 5 10"])
        #expect(map.paths[.externalBorder] == ["M 0 10 L 10 10"])
        #expect(map.paths[.continentBorder] == ["M 0 0 L 0 10"])
        #expect(map.ignoredPaths == 1)
    }

    @Test("Feed: RSS 2.0 read with typed records, every field, and the same from mounted handler sets")
    func rssFeed() throws {
        let (rss, summary) = try FeedRecords.read(contentsOfFile: fixture("feed-rss.xml"))
        #expect((summary.delivered, summary.failed) == (1, 0))
        #expect(try FeedReader.read(contentsOfFile: fixture("feed-rss.xml")) == rss)
        #expect(rss.format == .rss)
        #expect(rss.title == "Streaming Notes")  // the channel's, not the image's
        #expect(rss.selfLink == URL(string: "https://example.org/notes/rss"))  // atom:link[@rel='self']/@href
        #expect(
            rss.entries == [
                FeedEntry(
                    id: "note-1", title: "Parsing 5 GB of XML in 20 MB", link: URL(string: "https://example.org/notes/5gb"),
                    date: november2, published: nil, author: "Ann Example",
                    enclosures: [
                        Enclosure(url: try #require(URL(string: "https://example.org/notes/5gb.mp3")), length: 24_986_239, type: "audio/mpeg")
                    ]),
                FeedEntry(
                    id: "https://example.org/notes/paths", title: paths, link: URL(string: "https://example.org/notes/paths"),
                    date: november10, published: nil, author: "bo@example.org (Bo Example)", enclosures: []),
            ])
    }

    @Test("Feed: Atom read with typed records: alternate links, enclosure links, ISO 8601 dates, the feed's author inherited")
    func atomFeed() throws {
        let (atom, summary) = try FeedRecords.read(contentsOfFile: fixture("feed-atom.xml"))
        #expect((summary.delivered, summary.failed) == (1, 0))
        #expect(try FeedReader.read(contentsOfFile: fixture("feed-atom.xml")) == atom)
        #expect(atom.format == .atom)
        #expect(atom.title == "Streaming Notes")
        #expect(atom.selfLink == URL(string: "https://example.org/notes/atom"))  // link[@rel='self']/@href
        // The first entry's link says rel="alternate", the second's has no rel (alternate too);
        // the enclosure is a link as well, but not the entry's link.
        #expect(
            atom.entries == [
                FeedEntry(
                    id: "note-1", title: "Parsing 5 GB of XML in 20 MB", link: URL(string: "https://example.org/notes/5gb"),
                    date: november2, published: Date(timeIntervalSince1970: 1_793_552_400),  // 2026-11-01T18:00:00+01:00
                    author: "Ann Example",
                    enclosures: [
                        Enclosure(url: try #require(URL(string: "https://example.org/notes/5gb.mp3")), length: 24_986_239, type: "audio/mpeg")
                    ]),
                FeedEntry(
                    id: "https://example.org/notes/paths", title: paths, link: URL(string: "https://example.org/notes/paths"),
                    date: november10, published: nil, author: "Notes Team", enclosures: []),
            ])
    }

    @Test("Feed: Atom written with an unusual prefix (and a decoy under the usual one) reads as the default-namespace feed")
    func atomFeedPrefixed() throws {
        let (expected, _) = try FeedRecords.read(contentsOfFile: fixture("feed-atom.xml"))
        let (prefixed, summary) = try FeedRecords.read(contentsOfFile: fixture("feed-atom-prefixed.xml"))
        #expect((summary.delivered, summary.failed) == (1, 0))
        #expect(prefixed == expected)
        #expect(try FeedReader.read(contentsOfFile: fixture("feed-atom-prefixed.xml")) == expected)
    }

    @Test("Feed: RSS extensions under unusual prefixes read by namespace; a decoy dc:creator in another namespace is not one")
    func rssFeedPrefixed() throws {
        let (expected, _) = try FeedRecords.read(contentsOfFile: fixture("feed-rss.xml"))
        let (prefixed, summary) = try FeedRecords.read(contentsOfFile: fixture("feed-rss-prefixed.xml"))
        #expect((summary.delivered, summary.failed) == (1, 0))
        #expect(prefixed.selfLink == expected.selfLink)
        #expect(prefixed.entries.map(\.author) == expected.entries.map(\.author))
        #expect(prefixed.entries.map(\.content) == ["<p>Stream it &amp; keep only what you need.</p>", nil])
        var withoutContent = prefixed
        withoutContent = Feed(
            format: prefixed.format, title: prefixed.title, selfLink: prefixed.selfLink,
            entries: prefixed.entries.map { entry in
                FeedEntry(
                    id: entry.id, title: entry.title, link: entry.link, date: entry.date, published: entry.published,
                    author: entry.author, enclosures: entry.enclosures)
            })
        #expect(withoutContent == expected)
        #expect(try FeedReader.read(contentsOfFile: fixture("feed-rss-prefixed.xml")) == prefixed)
    }

    @Test("Feed: an item with a bad date is skipped with a diagnostic naming its line and column; the others are read")
    func feedBadDate() throws {
        let path = fixture("feed-bad-date.xml")
        let expected =
            "\(path):10:7: error: cannot convert \"yesterday\" to Date at rss/channel/item/pubDate (in record item, field pubDate): expected an RFC 822 date such as Tue, 10 Jun 2003 04:00:00 GMT"
        var reported: [String] = []
        let (feed, summary) = try FeedRecords.read(contentsOfFile: path) { reported.append($0.description) }
        #expect(reported == [expected])
        #expect((summary.delivered, summary.failed) == (1, 1))
        #expect(summary.diagnostics.map(\.description) == [expected])
        let diagnostic = try #require(summary.diagnostics.first)
        #expect((diagnostic.recordName, diagnostic.line, diagnostic.column) == ("item", 8, 5))
        #expect(diagnostic.recordPath == ElementPath(["rss", "channel", "item"]))
        #expect(
            feed.entries == [
                FeedEntry(id: "Fine", title: "Fine", link: nil, date: november2, published: nil, author: nil, enclosures: []),
                FeedEntry(
                    id: "https://example.org/notes/also-fine", title: "Also fine",
                    link: URL(string: "https://example.org/notes/also-fine"), date: november10, published: nil, author: nil,
                    enclosures: [
                        Enclosure(url: try #require(URL(string: "https://example.org/notes/also-fine.ogg")), length: 1024, type: "audio/ogg")
                    ]),
            ])

        // The item record alone streams the items; its summary counts them.
        var titles: [String] = []
        let items = try FeedRecords.rssItem.forEach(in: .file(path)) { titles.append($0.title) }
        #expect(titles == ["Fine", "Also fine"])
        #expect((items.delivered, items.failed) == (2, 1))
        #expect(items.diagnostics.map(\.description) == [expected])

        // The handler version has no such policy: the first bad item ends the parse.
        let error = #expect(throws: HandlerError.self) { try FeedReader.read(contentsOfFile: path) }
        #expect(error?.underlying as? FeedError == FeedError(message: "item has no RFC 822 pubDate: \"yesterday\""))
        #expect(error?.description.hasPrefix("\(path):8:5: error: in the end handler of rss/channel/item: ") == true)
    }

    @Test("Feed: a bad enclosure is dropped with its own diagnostic; its item is kept")
    func feedBadEnclosure() throws {
        let xml = """
            <rss><channel><title>T</title>
            <item><title>A</title><pubDate>Mon, 02 Nov 2026 09:00:00 GMT</pubDate>
            <enclosure url="https://example.org/a.mp3" length="big" type="audio/mpeg"/></item>
            </channel></rss>
            """
        var reported: [String] = []
        var items: [FeedEntry] = []
        let summary = try FeedRecords.rssItem.forEach(in: .string(xml), diagnostics: { reported.append($0.description) }) {
            items.append($0)
        }
        #expect(items.map(\.title) == ["A"])
        #expect(items.first?.enclosures == [])
        #expect(
            reported == [
                "<string>:3:1: error: cannot convert \"big\" to Int at rss/channel/item/enclosure/@length (in record Enclosure, field @length): expected an integer"
            ])
        #expect((summary.delivered, summary.failed) == (1, 1))
    }

    @Test("RecurlyAccount: typed records with href links, nil=\"nil\", an enum state and a nested address; the handlers agree")
    func account() throws {
        let account = try AccountRecords.read(contentsOfFile: fixture("account.xml"))
        #expect(try AccountReader.read(contentsOfFile: fixture("account.xml")) == account)
        #expect(try AccountDecoding.read(contentsOfFile: fixture("account.xml")) == account)
        #expect(account.href == URL(string: "https://api.recurly.com/v2/accounts/1"))
        #expect(
            account.links == [
                "adjustments": try #require(URL(string: "https://api.recurly.com/v2/accounts/1/adjustments")),
                "billing_info": try #require(URL(string: "https://api.recurly.com/v2/accounts/1/billing_info")),
                "invoices": try #require(URL(string: "https://api.recurly.com/v2/accounts/1/invoices")),
                "subscriptions": try #require(URL(string: "https://api.recurly.com/v2/accounts/1/subscriptions")),
                "transactions": try #require(URL(string: "https://api.recurly.com/v2/accounts/1/transactions")),
            ])
        #expect(account.code == "1")
        #expect(account.state == .active)
        #expect(account.username == nil)
        #expect(account.companyName == nil)
        #expect(account.email == "verena@example.com")
        #expect(account.firstName == "Verena")
        #expect(account.lastName == "Example")
        // address/state is the address's region; the account's state is the enum above.
        #expect(
            account.address
                == Account.Address(
                    address1: "123 Main St.", address2: nil, city: "San Francisco", region: "CA", zip: "94105", country: "US",
                    phone: nil))
        #expect(account.createdAt == Date(timeIntervalSince1970: 1_319_544_000))  // 2011-10-25T12:00:00Z
    }

    @Test("RecurlyAccount: an unknown state and a required field marked nil are reported together")
    func accountBadValues() throws {
        let xml = """
            <account href="https://api.recurly.com/v2/accounts/2">
              <account_code>2</account_code>
              <state>frozen</state>
              <email nil="nil"></email>
              <first_name>A</first_name>
              <last_name>B</last_name>
              <created_at>2011-10-25</created_at>
            </account>
            """
        let error = #expect(throws: XMLRecordError.self) { try AccountRecords.account.first(in: .string(xml)) }
        #expect(
            error?.description == """
                <string>:3:3: error: cannot convert "frozen" to State at account/state (in record Account, field state): expected one of the values of State
                <string>:4:3: error: email of record Account is nil but required
                """)
        // The enum converts from its raw value: past_due, not the case name.
        let fixed = xml.replacingOccurrences(of: "frozen", with: "past_due")
            .replacingOccurrences(of: "<email nil=\"nil\"></email>", with: "<email>a@example.com</email>")
        let pastDue = try AccountRecords.account.first(in: .string(fixed))
        #expect(pastDue.state == .pastDue)
        #expect(pastDue.address == nil)
        #expect(pastDue.links.isEmpty)
        #expect(pastDue.createdAt == Date(timeIntervalSince1970: 1_319_500_800))  // 2011-10-25, read as UTC
    }

    @Test("RecurlyAccount with Codable: an unknown state is a DecodingError with its line, column, path and text")
    func accountCodableBadState() throws {
        let xml = """
            <account href="https://api.recurly.com/v2/accounts/2">
              <account_code>2</account_code>
              <state>frozen</state>
              <email>a@example.com</email>
              <first_name>A</first_name>
              <last_name>B</last_name>
              <created_at>2011-10-25T12:00:00Z</created_at>
            </account>
            """
        do {
            _ = try AccountDecoding.decoder.decode(Account.self, from: .string(xml))
            Issue.record("expected an error")
        } catch let error as XMLDecodingError {
            guard case let .dataCorrupted(context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(context.codingPath.map(\.stringValue) == ["state"])
            #expect(
                context.debugDescription
                    == "<string>:3:3: cannot convert \"frozen\" to State at account/state (decoding Account): expected one of the values of State"
            )
        }
        let fixed = try AccountDecoding.decoder.decode(Account.self, from: .string(xml.replacingOccurrences(of: "frozen", with: "past_due")))
        #expect(fixed.state == .pastDue)
        #expect(fixed.username == nil && fixed.address == nil && fixed.links.isEmpty)
    }

    static let wikiSample: URL? = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../shared/corpus/real/camchenry+wikidump/benches/enwiki-10k.xml").standardized
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    @Test(
        "WikiFilter: the articles of the Wikipedia sample without their text have the canonical form lxml's filter has",
        .enabled(
            if: wikiSample != nil,
            "skipped: the Wikipedia sample is not at ../shared/corpus/real/camchenry+wikidump/benches/enwiki-10k.xml"))
    func wikiFilterAgainstLxml() throws {
        let sample = try #require(Self.wikiSample)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wiki-filter-\(getpid()).xml").path
        defer { unlink(path) }
        try WikiFilter.transform(namespace: "0").run(.file(sample.path), to: .file(path))
        // Made by Scripts/lxml-wiki-filter.py from the same sample; .ci/run compares with lxml live.
        let expected = try CanonicalXML().canonicalize(.file(fixture("wiki-articles.lxml.xml")))
        let filtered = try CanonicalXML().canonicalize(.file(path))
        #expect(filtered == expected)
        let text = String(decoding: filtered, as: UTF8.self)
        #expect(text.components(separatedBy: "<page>").count - 1 == 153)
        #expect(!text.contains("<text"))
        #expect(!text.contains("<ns>4</ns>"))
    }

    @Test(
        "WikiDump: the pages of the real Wikipedia sample, encoded one at a time and decoded again, are equal",
        .enabled(
            if: wikiSample != nil,
            "skipped: the Wikipedia sample is not at ../shared/corpus/real/camchenry+wikidump/benches/enwiki-10k.xml"))
    func wikiDumpRoundTrip() throws {
        let sample = try #require(Self.wikiSample)
        let pages = try WikiDump.decoder.all(Page.self, at: "/mediawiki/page", in: .file(sample.path))
        #expect(pages.count == 196)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wiki-round-trip-\(getpid()).xml").path
        defer { unlink(path) }
        let writer = try XMLWriter(to: .file(path))
        try writer.startElement("mediawiki")
        let encoder = XMLRecordEncoder()
        for page in pages { try encoder.encode(page, as: "page", to: writer) }
        try writer.endElement()
        try writer.finish()
        #expect(try WikiDump.decoder.all(Page.self, at: "/mediawiki/page", in: .file(path)) == pages)
    }

    @Test(
        "WikiDump: the pages of the real Wikipedia sample stream as Decodable values, as Foundation's XMLParser reads them",
        .enabled(
            if: wikiSample != nil,
            "skipped: the Wikipedia sample is not at ../shared/corpus/real/camchenry+wikidump/benches/enwiki-10k.xml"))
    func wikiDump() async throws {
        let sample = try #require(Self.wikiSample)
        var lines: [String] = []
        let summary = try await WikiDump.summarize(WikiDump.pages(from: .file(sample.path))) { lines.append($0) }

        // An independent reading of the same file: titles, redirect targets and text lengths.
        let reference = try ReferencePages(contentsOf: sample)
        #expect(summary.pages == 196)
        #expect(summary.pages == reference.titles.count)
        #expect(summary.redirects == reference.redirects.count)
        #expect(summary.characters == reference.textLengths.reduce(0, +))
        let expectedLines = zip(zip(reference.titles, reference.textLengths), reference.redirectOfPage).map { page, redirect in
            "\(page.0)\t\(page.1)" + (redirect.map { "\t→ \($0)" } ?? "")
        }
        #expect(lines == expectedLines)
        #expect(lines.first == "Wikipedia:Articles for deletion/Domotic maid\t\(reference.textLengths[0])")

        // The same pages from an asynchronous byte sequence, gathered into chunks.
        let bytes = try [UInt8](Data(contentsOf: sample))
        let trickle = AsyncStream<UInt8> { continuation in
            for byte in bytes { continuation.yield(byte) }
            continuation.finish()
        }
        var titles: [String] = []
        var input = AsyncXMLInput.bytes(trickle)
        input.chunkSize = 1000
        for try await page in WikiDump.decoder.stream(Page.self, at: "/mediawiki/page", from: input) {
            titles.append(page.title)
        }
        #expect(titles == reference.titles)

        let program = try run("WikiDumpExample", sample.path)
        #expect(program.status == 0)
        #expect(
            program.output.hasSuffix(
                "196 pages, \(reference.redirects.count) redirects, \(summary.characters) characters of wikitext\n"))
    }

    @Test("the example programs run and print their results")
    func programsRun() throws {
        let zoo = try run("ZooExample")
        #expect(zoo.status == 0)
        #expect(zoo.output.contains("Zoo with 2 animals"))
        #expect(zoo.output.contains("  dog: \"i have no idea what i'm doing\" <http://knowyourmeme.com/memes/i-have-no-idea-what-im-doing>"))
        #expect(zoo.output.contains("toilets: 42, disabled parking: true, drainage: Good"))

        let bad = try run("ZooExample", fixture("zoo-bad-toilet.xml"))
        #expect(bad.status == 1)
        #expect(bad.error.contains("15:9: error: cannot convert \"4x2\" to Int at zoo/facilities/toilet (in record Zoo, field toiletCount)"))

        let feeds = try run("FeedExample")
        #expect(feeds.status == 0)
        #expect(feeds.output.contains("atom feed \"Streaming Notes\" with 2 entries"))
        #expect(feeds.output.contains("  2026-11-10T12:30:00Z Paths, not trees: routing <name> by context <https://example.org/notes/paths> by Notes Team"))
        #expect(feeds.output.contains("    enclosure https://example.org/notes/5gb.mp3 (audio/mpeg, 24986239 bytes)"))
        #expect(feeds.error.isEmpty)

        let badDate = fixture("feed-bad-date.xml")
        let skipped = try run("FeedExample", badDate)
        #expect(skipped.status == 0)
        #expect(skipped.output.contains("rss feed \"Broken\" with 2 entries"))
        #expect(skipped.output.contains("  2026-11-10T12:30:00Z Also fine <https://example.org/notes/also-fine> by unknown"))
        #expect(
            skipped.error == """
                \(badDate):10:7: error: cannot convert "yesterday" to Date at rss/channel/item/pubDate (in record item, field pubDate): expected an RFC 822 date such as Tue, 10 Jun 2003 04:00:00 GMT
                \(badDate): 1 record(s) skipped

                """)

        let borders = try run("BordersExample")
        #expect(borders.status == 0)
        #expect(borders.output.contains("internalBorder (3):"))

        let account = try run("RecurlyAccountExample")
        #expect(account.status == 0)
        #expect(account.output.contains("username: nil, company: nil"))
        #expect(account.output.contains("state: active"))
        #expect(account.output.contains("address: 123 Main St., 94105 San Francisco, CA, US"))
        #expect(account.output.contains("link billing_info: https://api.recurly.com/v2/accounts/1/billing_info"))
        #expect(try run("RecurlyAccountExample", "--codable").output == account.output)
        #expect(try run("RecurlyAccountExample", "--handlers").output == account.output)
    }

    /// Runs a built example next to the test bundle.
    func run(_ product: String, _ arguments: String...) throws -> (status: Int32, output: String, error: String) {
        let directory = Bundle.module.bundleURL.deletingLastPathComponent()
        let executable = directory.appendingPathComponent(product)
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build the examples first: swift build")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }
}

/// The pages of a MediaWiki export as Foundation's `XMLParser` reads them: a check
/// that shares no code with SAXDispatch.
final class ReferencePages: NSObject, XMLParserDelegate {
    private(set) var titles: [String] = []
    private(set) var textLengths: [Int] = []
    private(set) var redirectOfPage: [String?] = []
    var redirects: [String] { redirectOfPage.compactMap { $0 } }
    private var path: [String] = []
    private var text = ""

    init(contentsOf url: URL) throws {
        super.init()
        let parser = try #require(XMLParser(contentsOf: url))
        parser.delegate = self
        try #require(parser.parse(), "XMLParser failed: \(String(describing: parser.parserError))")
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        path.append(name)
        text = ""
        if path == ["mediawiki", "page"] { redirectOfPage.append(nil) }
        if path == ["mediawiki", "page", "redirect"] { redirectOfPage[redirectOfPage.count - 1] = attributes["title"] }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if path == ["mediawiki", "page", "title"] { titles.append(text) }
        if path == ["mediawiki", "page", "revision", "text"] { textLengths.append(text.count) }
        path.removeLast()
        text = ""
    }
}

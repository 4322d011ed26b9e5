import Foundation
import SAXDispatch
import Testing

@testable import BordersExample
@testable import FeedExample
@testable import RecurlyAccountExample
@testable import ZooExample

func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
}

@Suite("Examples")
struct ExamplesTests {
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
        let error = #expect(throws: RecordError.self) { try ZooRecords.read(contentsOfFile: path) }
        #expect(
            error?.description
                == "\(path):15:9: error: cannot convert \"4x2\" to Int at zoo/facilities/toilet (in record Zoo, field toiletCount): expected an integer in \(Int.min)...\(Int.max)")
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

    @Test("Feed: RSS 2.0 and Atom through one mounted handler set per entry type")
    func feeds() throws {
        let rss = try FeedReader.read(contentsOfFile: fixture("feed-rss.xml"))
        let atom = try FeedReader.read(contentsOfFile: fixture("feed-atom.xml"))
        #expect((rss.format, rss.title, atom.format, atom.title) == (.rss, "Streaming Notes", .atom, "Streaming Notes"))
        let first = Date(timeIntervalSince1970: 1_793_610_000)  // 2026-11-02T09:00:00Z
        let second = Date(timeIntervalSince1970: 1_794_313_800)  // 2026-11-10T12:30:00Z
        let paths = "Paths, not trees: routing <name> by context"
        #expect(
            rss.entries == [
                FeedEntry(
                    id: "note-1", title: "Parsing 5 GB of XML in 20 MB", link: URL(string: "https://example.org/notes/5gb"),
                    date: first, author: "Ann Example"),
                FeedEntry(
                    id: "https://example.org/notes/paths", title: paths, link: URL(string: "https://example.org/notes/paths"),
                    date: second, author: "bo@example.org (Bo Example)"),
            ])
        // The alternate link, not the enclosure; the second entry inherits the feed's author.
        #expect(
            atom.entries == [
                FeedEntry(
                    id: "note-1", title: "Parsing 5 GB of XML in 20 MB", link: URL(string: "https://example.org/notes/5gb"),
                    date: first, author: "Ann Example"),
                FeedEntry(
                    id: "https://example.org/notes/paths", title: paths, link: URL(string: "https://example.org/notes/paths"),
                    date: second, author: "Notes Team"),
            ])
    }

    @Test("Feed: an entry that cannot be read names its element and line")
    func feedBadDate() throws {
        let path = fixture("feed-bad-date.xml")
        let error = #expect(throws: HandlerError.self) { try FeedReader.read(contentsOfFile: path) }
        #expect(error?.underlying as? FeedError == FeedError(message: "item has no RFC 822 pubDate: \"yesterday\""))
        #expect(error?.description.hasPrefix("\(path):8:5: error: in the end handler of rss/channel/item: ") == true)
    }

    @Test("RecurlyAccount: href links, nil=\"nil\" and an enum state")
    func account() throws {
        let account = try AccountReader.read(contentsOfFile: fixture("account.xml"))
        #expect(account.href == URL(string: "https://api.recurly.com/v2/accounts/1"))
        #expect(account.links.count == 5)
        #expect(account.links["adjustments"] == URL(string: "https://api.recurly.com/v2/accounts/1/adjustments"))
        #expect(account.code == "1")
        #expect(account.state == .active)
        #expect(account.username == nil)
        #expect(account.companyName == nil)
        #expect(account.email == "verena@example.com")
        #expect(account.firstName == "Verena")
        #expect(account.lastName == "Example")
        #expect(account.createdAt == Date(timeIntervalSince1970: 1_319_544_000))
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

        let borders = try run("BordersExample")
        #expect(borders.status == 0)
        #expect(borders.output.contains("internalBorder (3):"))

        let account = try run("RecurlyAccountExample")
        #expect(account.status == 0)
        #expect(account.output.contains("username: nil, company: nil"))
        #expect(account.output.contains("state: active"))
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

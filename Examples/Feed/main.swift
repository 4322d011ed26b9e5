// Reads RSS 2.0 and Atom feeds into immutable `Feed` and `FeedEntry` values with typed
// records. An item that cannot be read is skipped: its diagnostic, with line and
// column, goes to standard error and the rest of the feed is printed.
//
//     swift run FeedExample [FILE...]
//
// Without FILE it reads the RSS and the Atom fixture the tests use. Exit status 1 when
// a file cannot be read as a feed at all; skipped items do not count.
import Foundation

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Tests/ExamplesTests/Fixtures").standardized
let paths = CommandLine.arguments.count > 1
    ? Array(CommandLine.arguments.dropFirst())
    : ["feed-rss.xml", "feed-atom.xml"].map { fixtures.appendingPathComponent($0).path }

func printError(_ message: String) {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
}

var failed = false
for path in paths {
    do {
        let (feed, summary) = try FeedRecords.read(contentsOfFile: path) { printError("\($0)") }
        print("\(feed.format.rawValue) feed \"\(feed.title)\" with \(feed.entries.count) entries")
        for entry in feed.entries {
            let date = entry.date.formatted(.iso8601)
            print("  \(date) \(entry.title) <\(entry.link?.absoluteString ?? "-")> by \(entry.author ?? "unknown")")
            for enclosure in entry.enclosures {
                let length = enclosure.length.map { "\($0) bytes" } ?? "length unknown"
                print("    enclosure \(enclosure.url) (\(enclosure.type ?? "no type"), \(length))")
            }
        }
        if summary.failed > 0 {
            printError("\(path): \(summary.failed) record(s) skipped")
        }
    } catch {
        printError("\(error)")
        failed = true
    }
}
exit(failed ? 1 : 0)

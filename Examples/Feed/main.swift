// Reads an RSS 2.0 or Atom feed into immutable `Feed` and `FeedEntry` values, with
// one handler set per kind of entry, mounted where those entries occur.
//
//     swift run FeedExample [FILE...]
//
// Without FILE it reads the RSS and the Atom fixture the tests use.
import Foundation

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Tests/ExamplesTests/Fixtures").standardized
let paths = CommandLine.arguments.count > 1
    ? Array(CommandLine.arguments.dropFirst())
    : ["feed-rss.xml", "feed-atom.xml"].map { fixtures.appendingPathComponent($0).path }

var failed = false
for path in paths {
    do {
        let feed = try FeedReader.read(contentsOfFile: path)
        print("\(feed.format.rawValue) feed \"\(feed.title)\" with \(feed.entries.count) entries")
        for entry in feed.entries {
            let date = entry.date.formatted(.iso8601)
            print("  \(date) \(entry.title) <\(entry.link?.absoluteString ?? "-")> by \(entry.author ?? "unknown")")
        }
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        failed = true
    }
}
exit(failed ? 1 : 0)

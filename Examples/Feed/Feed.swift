import Foundation
import SAXDispatch

/// One item of an RSS 2.0 feed or entry of an Atom feed.
struct FeedEntry: Equatable, Sendable {
    let id: String
    let title: String
    let link: URL?
    let date: Date
    let author: String?
}

/// A feed of either kind, as immutable values.
struct Feed: Equatable, Sendable {
    enum Format: String, Sendable { case rss, atom }

    let format: Format
    let title: String
    let entries: [FeedEntry]
}

/// Why an item or entry could not become a `FeedEntry`; the parse wraps it in a
/// `HandlerError` naming the element and its position.
struct FeedError: Error, CustomStringConvertible, Equatable {
    var message: String

    var description: String { message }
}

/// The handlers for one RSS 2.0 `<item>`, written relative to the item: mounted at
/// `/rss/channel/item`, they never see the channel's own `<title>` or `<link>`.
final class RSSItemReader: ElementHandlers {
    private(set) var entries: [FeedEntry] = []
    private var fields: [String: String] = [:]

    static func registerHandlers(_ handlers: inout HandlerRegistry<RSSItemReader>) {
        handlers.onStart(.mountPoint, RSSItemReader.begin)
        for field: ElementPattern in ["/title", "/link", "/guid", "/pubDate", "/author", "/dc:creator"] {
            handlers.onEnd(field, RSSItemReader.field)
        }
        handlers.onEnd(.mountPoint, RSSItemReader.finish)
    }

    func begin(_ item: ElementContext) {
        fields = [:]
    }

    func field(_ element: ElementContext, _ text: String) {
        fields[element.name] = text
    }

    func finish(_ item: ElementContext) throws {
        guard let title = fields["title"] else { throw FeedError(message: "item has no title") }
        guard let dateText = fields["pubDate"], let date = Self.dateFormat.date(from: dateText) else {
            throw FeedError(message: "item has no RFC 822 pubDate: \(fields["pubDate"]?.debugDescription ?? "none")")
        }
        let link = fields["link"].flatMap { URL(string: $0) }
        entries.append(
            FeedEntry(
                id: fields["guid"] ?? fields["link"] ?? title, title: title, link: link, date: date,
                author: fields["dc:creator"] ?? fields["author"]))
    }

    private static let dateFormat: DateFormatter = {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return format
    }()
}

/// The handlers for one Atom `<entry>`, relative to the entry. An entry without an
/// author inherits the feed's, which the feed-level handlers supply afterwards.
final class AtomEntryReader: ElementHandlers {
    private(set) var entries: [FeedEntry] = []
    private var fields: [String: String] = [:]

    static func registerHandlers(_ handlers: inout HandlerRegistry<AtomEntryReader>) {
        handlers.onStart(.mountPoint, AtomEntryReader.begin)
        for field: ElementPattern in ["/title", "/id", "/updated", "/author/name"] {
            handlers.onEnd(field, AtomEntryReader.field)
        }
        handlers.onStart("/link", AtomEntryReader.link)
        handlers.onEnd(.mountPoint, AtomEntryReader.finish)
    }

    func begin(_ entry: ElementContext) {
        fields = [:]
    }

    func field(_ element: ElementContext, _ text: String) {
        fields[element.name == "name" ? "author" : element.name] = text
    }

    /// `<link href>` without `rel` is the alternate link too; enclosures and the like are not.
    func link(_ element: ElementContext) {
        let attributes = element.attributes
        if (attributes["rel"] ?? "alternate") == "alternate", let href = attributes["href"] {
            fields["link"] = href
        }
    }

    func finish(_ entry: ElementContext) throws {
        guard let id = fields["id"] else { throw FeedError(message: "entry has no id") }
        guard let title = fields["title"] else { throw FeedError(message: "entry \(id) has no title") }
        guard let updated = fields["updated"], let date = try? Date(updated, strategy: .iso8601) else {
            throw FeedError(message: "entry \(id) has no ISO 8601 updated date: \(fields["updated"]?.debugDescription ?? "none")")
        }
        entries.append(
            FeedEntry(id: id, title: title, link: fields["link"].flatMap { URL(string: $0) }, date: date, author: fields["author"]))
    }
}

/// Reads an RSS 2.0 or Atom feed: a few feed-level handlers, and one mounted handler
/// set per kind of entry.
enum FeedReader {
    /// - Throws: `HandlerError` wrapping a `FeedError` for an entry that lacks what a
    ///   `FeedEntry` needs, `XMLParseError` for a malformed document, `XMLInputError`,
    ///   or `FeedError` when the document is neither RSS nor Atom.
    static func read(contentsOfFile path: String) throws -> Feed {
        let items = RSSItemReader()
        let entries = AtomEntryReader()
        var format: Feed.Format?
        var title: String?
        var feedAuthor: String?

        var dispatcher = Dispatcher()
        dispatcher.onStart("/rss") { _ in format = .rss }
        dispatcher.onStart("/feed") { _ in format = .atom }
        dispatcher.onEnd("/rss/channel/title") { _, text in title = text }
        dispatcher.onEnd("/feed/title") { _, text in title = text }
        dispatcher.onEnd("/feed/author/name") { _, text in feedAuthor = text }
        dispatcher.mount(Dispatcher(handling: items), at: "/rss/channel/item")
        dispatcher.mount(Dispatcher(handling: entries), at: "/feed/entry")
        try dispatcher.parse(contentsOfFile: path)

        switch format {
        case .rss?:
            return Feed(format: .rss, title: title ?? "", entries: items.entries)
        case .atom?:
            let inherited = entries.entries.map { entry in
                FeedEntry(id: entry.id, title: entry.title, link: entry.link, date: entry.date, author: entry.author ?? feedAuthor)
            }
            return Feed(format: .atom, title: title ?? "", entries: inherited)
        case nil:
            throw FeedError(message: "\(path): neither an RSS 2.0 <rss> nor an Atom <feed> document")
        }
    }
}

import Foundation
import SAXDispatch

/// The handlers for one RSS 2.0 `<item>`, written relative to the item: mounted at
/// `/rss/channel/item`, they never see the channel's own `<title>` or `<link>`.
final class RSSItemReader: ElementHandlers {
    private(set) var entries: [FeedEntry] = []
    private var fields: [String: String] = [:]
    private var enclosures: [Enclosure] = []

    static func registerHandlers(_ handlers: inout HandlerRegistry<RSSItemReader>) {
        handlers.onStart(.mountPoint, RSSItemReader.begin)
        handlers.namespaces = FeedNamespaces.bindings
        for field: ElementPattern in ["/title", "/link", "/guid", "/pubDate", "/author", "/dc:creator", "/content:encoded"] {
            handlers.onEnd(field, RSSItemReader.field)
        }
        handlers.onStart("/enclosure", RSSItemReader.enclosure)
        handlers.onEnd(.mountPoint, RSSItemReader.finish)
    }

    func begin(_ item: ElementContext) {
        fields = [:]
        enclosures = []
    }

    /// Keyed by local name: RSS's own elements are in no namespace, and its extensions
    /// have local names of their own (`creator`, `encoded`), whatever their prefix.
    func field(_ element: ElementContext, _ text: String) {
        fields[element.localName] = text
    }

    func enclosure(_ element: ElementContext) throws {
        let attributes = element.attributes
        guard let url = attributes["url"].flatMap(URL.init(string:)), let length = attributes["length"].flatMap({ Int($0) }),
            let type = attributes["type"]
        else { throw FeedError(message: "enclosure needs a url, a length and a type") }
        enclosures.append(Enclosure(url: url, length: length, type: type))
    }

    func finish(_ item: ElementContext) throws {
        guard let title = fields["title"] else { throw FeedError(message: "item has no title") }
        guard let dateText = fields["pubDate"], let date = Self.dateFormat.date(from: dateText) else {
            throw FeedError(message: "item has no RFC 822 pubDate: \(fields["pubDate"]?.debugDescription ?? "none")")
        }
        let link = fields["link"].flatMap { URL(string: $0) }
        entries.append(
            FeedEntry(
                id: fields["guid"] ?? fields["link"] ?? title, title: title, link: link, date: date, published: nil,
                author: fields["creator"] ?? fields["author"], enclosures: enclosures, content: fields["encoded"]))
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
    private var enclosures: [Enclosure] = []

    static func registerHandlers(_ handlers: inout HandlerRegistry<AtomEntryReader>) {
        handlers.onStart(.mountPoint, AtomEntryReader.begin)
        handlers.namespaces = FeedNamespaces.bindings
        for field: ElementPattern in ["/atom:title", "/atom:id", "/atom:updated", "/atom:published", "/atom:author/atom:name"] {
            handlers.onEnd(field, AtomEntryReader.field)
        }
        handlers.onStart("/atom:link", AtomEntryReader.link)
        handlers.onEnd(.mountPoint, AtomEntryReader.finish)
    }

    func begin(_ entry: ElementContext) {
        fields = [:]
        enclosures = []
    }

    func field(_ element: ElementContext, _ text: String) {
        // Keyed by local name: the document may write Atom with any prefix.
        fields[element.localName == "name" ? "author" : element.localName] = text
    }

    /// `<link href>` without `rel` is the alternate link too; enclosures are collected.
    func link(_ element: ElementContext) {
        let attributes = element.attributes
        guard let href = attributes["href"] else { return }
        switch attributes["rel"] ?? "alternate" {
        case "alternate":
            fields["link"] = fields["link"] ?? href
        case "enclosure":
            if let url = URL(string: href) {
                enclosures.append(Enclosure(url: url, length: attributes["length"].flatMap { Int($0) }, type: attributes["type"]))
            }
        default:
            break
        }
    }

    func finish(_ entry: ElementContext) throws {
        guard let id = fields["id"] else { throw FeedError(message: "entry has no id") }
        guard let title = fields["title"] else { throw FeedError(message: "entry \(id) has no title") }
        guard let updated = fields["updated"], let date = try? Date(updated, strategy: .iso8601) else {
            throw FeedError(message: "entry \(id) has no ISO 8601 updated date: \(fields["updated"]?.debugDescription ?? "none")")
        }
        var published: Date?
        if let text = fields["published"] {
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw FeedError(message: "entry \(id) has no ISO 8601 published date: \(text.debugDescription)")
            }
            published = date
        }
        entries.append(
            FeedEntry(
                id: id, title: title, link: fields["link"].flatMap { URL(string: $0) }, date: date, published: published,
                author: fields["author"], enclosures: enclosures))
    }
}

/// Reads an RSS 2.0 or Atom feed: a few feed-level handlers, and one mounted handler
/// set per kind of entry. The same feed read by hand, kept to compare with
/// `FeedRecords` and to show handler sets mounted where their elements occur; unlike
/// the records, one bad item ends the parse.
enum FeedReader {
    /// - Throws: `HandlerError` wrapping a `FeedError` for an entry that lacks what a
    ///   `FeedEntry` needs, `XMLParseError` for a malformed document, `XMLInputError`,
    ///   or `FeedError` when the document is neither RSS nor Atom.
    static func read(contentsOfFile path: String) throws -> Feed {
        let items = RSSItemReader()
        let entries = AtomEntryReader()
        var format: Feed.Format?
        var title: String?
        var selfLink: URL?
        var feedAuthor: String?

        var dispatcher = Dispatcher()
        dispatcher.namespaces = FeedNamespaces.bindings
        dispatcher.onStart("/rss") { _ in format = .rss }
        dispatcher.onStart("/atom:feed") { _ in format = .atom }
        dispatcher.onEnd("/rss/channel/title") { _, text in title = text }
        dispatcher.onEnd("/atom:feed/atom:title") { _, text in title = text }
        for pattern: ElementPattern in ["/rss/channel/atom:link[@rel='self']", "/atom:feed/atom:link[@rel='self']"] {
            dispatcher.onStart(pattern) { element in selfLink = element.attributes["href"].flatMap(URL.init(string:)) }
        }
        dispatcher.onEnd("/atom:feed/atom:author/atom:name") { _, text in feedAuthor = text }
        dispatcher.mount(Dispatcher(handling: items), at: "/rss/channel/item")
        dispatcher.mount(Dispatcher(handling: entries), at: "/atom:feed/atom:entry")
        try dispatcher.parse(.file(path))

        switch format {
        case .rss?:
            return Feed(format: .rss, title: title ?? "", selfLink: selfLink, entries: items.entries)
        case .atom?:
            let inherited = entries.entries.map { $0.inheriting(author: feedAuthor) }
            return Feed(format: .atom, title: title ?? "", selfLink: selfLink, entries: inherited)
        case nil:
            throw FeedError(message: "\(path): neither an RSS 2.0 <rss> nor an Atom <feed> document")
        }
    }
}

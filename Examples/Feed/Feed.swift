import Foundation
import SAXDispatch

/// A media file attached to an item: RSS `<enclosure url length type>`, Atom
/// `<link rel="enclosure" href length type>`.
struct Enclosure: Equatable, Sendable {
    let url: URL
    /// Bytes; RSS requires it, Atom may leave it out.
    let length: Int?
    let type: String?
}

/// One item of an RSS 2.0 feed or entry of an Atom feed.
struct FeedEntry: Equatable, Sendable {
    let id: String
    let title: String
    let link: URL?
    /// RSS `pubDate`, Atom `updated`.
    let date: Date
    /// Atom `published`; RSS has no separate date.
    let published: Date?
    let author: String?
    let enclosures: [Enclosure]
    /// RSS `content:encoded`: the item's full text, usually HTML.
    var content: String? = nil

    /// The same entry by `author` when it names none itself (an Atom entry inherits the feed's).
    func inheriting(author feedAuthor: String?) -> FeedEntry {
        FeedEntry(
            id: id, title: title, link: link, date: date, published: published, author: author ?? feedAuthor,
            enclosures: enclosures, content: content)
    }
}

/// A feed of either kind, as immutable values.
struct Feed: Equatable, Sendable {
    /// Which kind of document the feed came from: `<rss>` or `<feed>`.
    enum Format: String, Sendable { case rss, atom }

    let format: Format
    let title: String
    /// The feed's own address: RSS `atom:link[@rel='self']`, Atom `link[@rel='self']`.
    let selfLink: URL?
    let entries: [FeedEntry]
}

/// Why a document could not become a `Feed`. Inside a handler the parse wraps it in a
/// `HandlerError` naming the element and its position.
struct FeedError: Error, CustomStringConvertible, Equatable {
    var message: String

    var description: String { message }
}

/// An Atom `<link>` as read, before the entry sorts its links by relation.
struct AtomLink: Sendable {
    /// `alternate` when the element has no `rel` (RFC 4287, 4.2.7.2).
    let rel: String
    let href: URL
    let type: String?
    let length: Int?
}

/// The namespaces feeds use, by the prefixes this example's patterns write. A document
/// may spell them with any prefix (Atom usually as its default namespace): names match
/// by namespace URI, not by prefix.
enum FeedNamespaces {
    static let atom = "http://www.w3.org/2005/Atom"
    static let bindings: NamespaceBindings = [
        "atom": atom,
        "dc": "http://purl.org/dc/elements/1.1/",
        "content": "http://purl.org/rss/1.0/modules/content/",
    ]
}

/// RSS 2.0 and Atom as typed records. An item or entry that cannot be read (a date
/// that is not a date) is skipped and reported; the rest of the feed is read. Each
/// record names what it reads, relative to its element; nothing else is captured.
/// RSS's own elements are in no namespace; its extensions (`atom:link`, `dc:creator`,
/// `content:encoded`) and all of Atom are named through ``FeedNamespaces/bindings``.
enum FeedRecords {
    /// An RSS enclosure: RSS 2.0 requires all three attributes. A bad one is dropped and
    /// reported; its item is kept.
    static let rssEnclosure = XMLRecord(
        "enclosure",
        .value("@url", as: URL.self),
        .value("@length", as: Int.self),
        .text("@type")
    ) { Enclosure(url: $0, length: $1, type: $2) }.onFailure(.skip)

    /// An RSS `<item>`; alone it streams the items of `/rss/channel`.
    static let rssItem = XMLRecord(
        "/rss/channel/item",
        .text("title"),
        .value("link", as: URL?.self),
        .value("guid", as: String?.self),
        .date("pubDate", format: .rfc822),
        .value("dc:creator", as: String?.self),
        .value("author", as: String?.self),
        .many("enclosure", rssEnclosure),
        .value("content:encoded", as: String?.self)
    ) { title, link, guid, date, creator, author, enclosures, content in
        FeedEntry(
            id: guid ?? link?.absoluteString ?? title, title: title, link: link, date: date, published: nil,
            author: creator ?? author, enclosures: enclosures, content: content)
    }.named("item").onFailure(.skip).namespaces(FeedNamespaces.bindings)

    static let rss = XMLRecord(
        "/rss",
        .text("channel/title"),
        .value("channel/atom:link[@rel='self']/@href", as: URL?.self),
        .many("channel/item", rssItem)
    ) { Feed(format: .rss, title: $0, selfLink: $1, entries: $2) }.namespaces(FeedNamespaces.bindings)

    /// Every `<link>` of an entry, with or without `rel`: a path cannot ask for a link
    /// that has no `rel`, which Atom counts as the alternate one.
    static let atomLink = XMLRecord(
        "atom:link",
        .value("@rel", as: String.self, default: "alternate"),
        .value("@href", as: URL.self),
        .value("@type", as: String?.self),
        .value("@length", as: Int?.self)
    ) { AtomLink(rel: $0, href: $1, type: $2, length: $3) }.onFailure(.skip).namespaces(FeedNamespaces.bindings)

    /// An Atom `<entry>`; alone it streams the entries of `/feed`.
    static let atomEntry = XMLRecord(
        "/atom:feed/atom:entry",
        .text("atom:id"),
        .text("atom:title"),
        .many("atom:link", atomLink),
        .date("atom:updated"),
        .optional(.date("atom:published")),
        .value("atom:author/atom:name", as: String?.self)
    ) { id, title, links, updated, published, author in
        FeedEntry(
            id: id, title: title, link: links.first { $0.rel == "alternate" }?.href, date: updated,
            published: published, author: author,
            enclosures: links.filter { $0.rel == "enclosure" }.map { Enclosure(url: $0.href, length: $0.length, type: $0.type) })
    }.named("entry").onFailure(.skip).namespaces(FeedNamespaces.bindings)

    static let atom = XMLRecord(
        "/atom:feed",
        .text("atom:title"),
        .value("atom:link[@rel='self']/@href", as: URL?.self),
        .value("atom:author/atom:name", as: String?.self),  // the feed's author, not an entry's
        .many("atom:entry", atomEntry)
    ) { title, selfLink, author, entries in
        Feed(format: .atom, title: title, selfLink: selfLink, entries: entries.map { $0.inheriting(author: author) })
    }.namespaces(FeedNamespaces.bindings)

    /// Reads an RSS 2.0 or Atom feed, skipping the items and entries that cannot be read.
    ///
    /// - Parameter diagnostics: Receives each skipped item's error as it happens.
    /// - Returns: The feed and the parse summary; `summary.failed` counts the skipped
    ///   items, entries, links and enclosures, `summary.diagnostics` holds their errors.
    /// - Throws: `FeedError` when the document is neither RSS nor Atom, `XMLRecordError`
    ///   when the feed's own title is missing, `XMLParseError` for a malformed document,
    ///   `XMLInputError`.
    static func read(contentsOfFile path: String, diagnostics: ((XMLRecordError) -> Void)? = nil) throws
        -> (feed: Feed, summary: RecordParseSummary)
    {
        let record: XMLRecord<Feed>
        switch try rootName(ofFile: path) {
        case "rss": record = rss
        case "{\(FeedNamespaces.atom)}feed": record = atom
        default: throw FeedError(message: "\(path): neither an RSS 2.0 <rss> nor an Atom <feed> document")
        }
        var feed: Feed?
        let summary = try record.forEach(in: .file(path), diagnostics: diagnostics) { feed = $0 }
        guard let feed else { throw FeedError(message: "\(path): no \(record.pattern) element") }
        return (feed, summary)
    }

    /// The name of the document's root element in Clark notation (`{uri}local`, or
    /// `local` in no namespace): the parse stops at the first start tag.
    private static func rootName(ofFile path: String) throws -> String? {
        var root: String?
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { element in
            root = element.expandedName
            element.stopParsing()
        }
        try dispatcher.parse(.file(path))
        return root
    }
}

/// The records the writing benchmark writes (`Benchmarks/run --writing`): the same values
/// for every contender, each a function of its index alone, so that Swift's writers and
/// Python's (`Scripts/lxml_write.py`, which computes them the same way) write one document.
///
/// - zoo: `<zoo><animals>` of `<animal>` with `kind`, `nested_nonsense/name` and `url`.
/// - osm: `<osm version="0.6">` of `<node id lat lon version user>`, every fourth with two
///   `<tag k v/>`.
/// - wiki: `<mediawiki>` of `<page>` with `title`, `ns`, `id` and
///   `revision/{id,timestamp,text}`, about 2 KB of text each.
/// Text and values hold `&`, `<`, `>` and quotes, so that escaping is measured too.
public enum WrittenRecords {
    public struct Animal: Codable, Sendable {
        public struct Nested: Codable, Sendable { public var name: String }
        public var kind: String
        public var nested_nonsense: Nested
        public var url: String
    }

    public struct Tag: Codable, Sendable {
        public var k: String
        public var v: String
    }

    public struct Node: Codable, Sendable {
        public var id: String
        public var lat: String
        public var lon: String
        public var version: String
        public var user: String
        public var tag: [Tag]
    }

    public struct Revision: Codable, Sendable {
        public var id: String
        public var timestamp: String
        public var text: String
    }

    public struct Page: Codable, Sendable {
        public var title: String
        public var ns: String
        public var id: String
        public var revision: Revision
    }

    static let kinds = ["cat", "dog", "lion", "emu", "yak"]

    public static func animal(_ index: Int) -> Animal {
        Animal(
            kind: kinds[index % 5], nested_nonsense: Animal.Nested(name: "animal \(index) & friend <\(index % 97)>"),
            url: "http://example.org/zoo/\(index)?a=1&b=\(index % 13)")
    }

    public static func node(_ index: Int) -> Node {
        let tags =
            index % 4 == 0
            ? [Tag(k: "highway", v: "residential"), Tag(k: "name", v: "Street \(index) \"Nord\" & S\u{FC}d")] : []
        return Node(
            id: "\(1_000_000 + index)", lat: "\(index % 180 - 90).\(1_000_000 + index * 7919 % 1_000_000)",
            lon: "\(index % 360 - 180).\(1_000_000 + index * 104_729 % 1_000_000)", version: "\(1 + index % 9)",
            user: "mapper\(index % 1000)", tag: tags)
    }

    /// About 2 KB of wikitext with markup characters, as a dump's text holds them.
    static let paragraph = String(
        repeating: "'''Lorem''' ipsum [[dolor]] sit amet, {{cite|a=1}} <ref>consectetur & \"adipiscing\"</ref> elit; ",
        count: 20)

    public static func page(_ index: Int) -> Page {
        Page(
            title: "Page \(index) & co", ns: "0", id: "\(index)",
            revision: Revision(
                id: "\(10_000_000 + index)", timestamp: "2024-01-\(10 + index % 19)T12:\(10 + index % 50):00Z",
                text: paragraph + "\(index)"))
    }
}

/// `WRITER SHAPE RECORDS FILE [VARIANT]`, the writing contenders' arguments.
public struct WriterArguments: Sendable {
    public var shape: Shape
    public var records: Int
    public var path: String
    public var variant: String?

    public static func parse(_ arguments: [String] = CommandLine.arguments) -> WriterArguments? {
        guard arguments.count == 4 || arguments.count == 5, let shape = Shape(rawValue: arguments[1]), shape != .zooNamespaced,
            let records = Int(arguments[2]), records >= 0
        else {
            print("usage: \(arguments.first ?? "writer") zoo|osm|wiki RECORDS FILE [VARIANT]")
            return nil
        }
        return WriterArguments(shape: shape, records: records, path: arguments[3], variant: arguments.count == 5 ? arguments[4] : nil)
    }

    /// The line every writer prints: what it wrote.
    public func resultLine() -> String {
        "write \(shape.rawValue) records=\(records)"
    }
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The document shapes the benchmarks use.
public enum Shape: String, CaseIterable, Sendable {
    /// The README's zoo scaled up: `<animal>` records with `kind`, `nested_nonsense/name`
    /// and `url`, each followed by a large `<junk>` subtree nobody asks for (about 75%
    /// of the bytes) that holds decoy `<name>` elements at other places.
    case zoo
    /// The zoo written with namespaces, as real vocabularies are: the same elements, text
    /// and proportions, the zoo's names in `urn:example:zoo` under the prefix `z`, each
    /// `<junk>` in a default namespace, and the decoy names in `urn:example:decoy` under the
    /// same prefix `z` rebound locally (one of them in a `z:nested_nonsense` of that
    /// namespace). Only a reader that matches by namespace URI extracts the right names.
    case zooNamespaced = "zoo-ns"
    /// OpenStreetMap-like and attribute-heavy: `<node>`s (80% self-closing) with
    /// `<tag k v/>` children, then `<way>`s with `<nd ref/>` and tags.
    case osm
    /// A MediaWiki-dump-like, text-heavy document: `<page>` with `title`, `id` and
    /// `revision/{id,timestamp,text}`, several KB of text per page.
    case wiki
}

/// The two tasks every contender implements identically.
public enum BenchmarkTask: String, CaseIterable, Sendable {
    /// Number of start tags and total UTF-8 bytes of all character data.
    case count
    /// zoo and zoo-ns: animal records and the UTF-8 length of kind + name + url (in zoo-ns,
    /// of the elements in the zoo's namespace); osm: nodes, the sum of `lat`,
    /// `<tag k="highway">` count; wiki: pages and text bytes.
    case extract
}

/// The line every contender prints, so the runner can check that they agree.
public enum ResultLine {
    public static func count(_ shape: Shape, elements: Int, textBytes: Int) -> String {
        "count \(shape.rawValue) elements=\(elements) text_bytes=\(textBytes)"
    }

    /// The zoo's line, or zoo-ns's (`shape`): the same fields, so the two can be compared.
    public static func zoo(_ shape: Shape = .zoo, records: Int, fieldBytes: Int) -> String {
        "extract \(shape.rawValue) records=\(records) field_bytes=\(fieldBytes)"
    }

    public static func osm(nodes: Int, latitudeSum: Double, highwayTags: Int) -> String {
        "extract osm nodes=\(nodes) lat_sum=\(formatted(latitudeSum)) highway_tags=\(highwayTags)"
    }

    public static func wiki(pages: Int, textBytes: Int) -> String {
        "extract wiki pages=\(pages) text_bytes=\(textBytes)"
    }

    /// Six decimals, printed by C's `%.6f` so every contender rounds the same way.
    static func formatted(_ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.6f", $0) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Command-line arguments shared by the contenders: `TASK SHAPE FILE`.
public struct ContenderArguments: Sendable {
    public var task: BenchmarkTask
    public var shape: Shape
    public var path: String
    /// How a contender with several ways of doing the task should do it (its fifth
    /// argument); `nil` for its default.
    public var variant: String?

    /// Parses `CommandLine.arguments`, or returns nil with a usage line printed.
    public static func parse(_ arguments: [String] = CommandLine.arguments) -> ContenderArguments? {
        guard arguments.count == 4 || arguments.count == 5, let task = BenchmarkTask(rawValue: arguments[1]),
            let shape = Shape(rawValue: arguments[2])
        else {
            let shapes = Shape.allCases.map(\.rawValue).joined(separator: "|")
            print("usage: \(arguments.first ?? "contender") count|extract \(shapes) FILE [VARIANT]")
            return nil
        }
        return ContenderArguments(
            task: task, shape: shape, path: arguments[3], variant: arguments.count == 5 ? arguments[4] : nil)
    }
}

/// Writes a line to standard error (without Foundation).
public func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

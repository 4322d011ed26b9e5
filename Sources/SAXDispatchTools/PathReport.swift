/// How `saxdispatch paths` prints a census: an aligned table for people, or JSON Lines
/// for programs.
///
/// Names keep the prefixes the document wrote. When some are in namespaces, the
/// namespaces come first, so that a user sees what to bind: a table of PREFIX and
/// NAMESPACE (`(default)` for a default namespace, one row per URI when a prefix stood
/// for several), or one JSON object, `{"namespaces":[{"prefix":…,"uri":…},…]}`.
public enum PathReport {
    /// The output formats.
    public enum Format: String, Sendable, CaseIterable {
        /// Aligned columns with a header: PATH, COUNT, DEPTH, BELOW, ATTRIBUTES (and SAMPLE),
        /// after the table of namespaces, if any.
        case table
        /// One object per path: `path`, `count`, `depth`, `levelsBelow`, `attributes`,
        /// `namespaceURIs` (and `sample`, `null` when the path has no text), after the
        /// object of namespaces, if any.
        case jsonl
    }

    /// How a default namespace is shown in the table, where a prefix would be.
    public static let defaultNamespaceLabel = "(default)"

    /// The text of `entries` in `format`, ending with a newline, after `namespaces`
    /// when there are any; `samples` adds the sample column or key.
    public static func text(
        _ entries: [PathCensus.Entry], namespaces: [PathCensus.Namespace] = [], format: Format, samples: Bool
    ) -> String {
        switch format {
        case .table: namespaceTable(namespaces) + table(entries, samples: samples)
        case .jsonl: namespaceObject(namespaces) + jsonLines(entries, samples: samples)
        }
    }

    /// PREFIX and NAMESPACE columns, then an empty line; nothing when there are no namespaces.
    static func namespaceTable(_ namespaces: [PathCensus.Namespace]) -> String {
        guard !namespaces.isEmpty else { return "" }
        let rows = [("PREFIX", "NAMESPACE")] + namespaces.map { ($0.prefix ?? defaultNamespaceLabel, $0.uri) }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0 + String(repeating: " ", count: width - $0.count) + "  " + $1 + "\n" }.joined() + "\n"
    }

    /// `{"namespaces":[{"prefix":null,"uri":"…"},…]}` on a line; nothing when there are none.
    static func namespaceObject(_ namespaces: [PathCensus.Namespace]) -> String {
        guard !namespaces.isEmpty else { return "" }
        var bytes = Array("{\"namespaces\":[".utf8)
        for (index, namespace) in namespaces.enumerated() {
            bytes += Array((index == 0 ? "{\"prefix\":" : ",{\"prefix\":").utf8)
            JSONText.appendString(orNull: namespace.prefix, to: &bytes)
            bytes += Array(",\"uri\":".utf8)
            JSONText.appendString(namespace.uri, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes += Array("]}\n".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func table(_ entries: [PathCensus.Entry], samples: Bool) -> String {
        var rows = [["PATH", "COUNT", "DEPTH", "BELOW", "ATTRIBUTES"] + (samples ? ["SAMPLE"] : [])]
        for entry in entries {
            var row = [
                entry.path, ProgressMeter.grouped(entry.count), String(entry.depth), String(entry.levelsBelow),
                entry.attributes.joined(separator: " "),
            ]
            if samples { row.append(entry.sample ?? "") }
            rows.append(row)
        }
        // The path column is left-aligned, the counts right-aligned, the rest left as is.
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for row in rows {
            var line = row[0] + String(repeating: " ", count: widths[0] - row[0].count)
            for column in 1..<4 {
                line += "  " + String(repeating: " ", count: widths[column] - row[column].count) + row[column]
            }
            if samples {
                line += "  " + row[4] + String(repeating: " ", count: widths[4] - row[4].count) + "  " + row[5]
            } else {
                line += "  " + row[4]
            }
            while line.last == " " { line.removeLast() }
            text += line + "\n"
        }
        return text
    }

    static func jsonLines(_ entries: [PathCensus.Entry], samples: Bool) -> String {
        var bytes: [UInt8] = []
        for entry in entries {
            bytes += Array("{\"path\":".utf8)
            JSONText.appendString(entry.path, to: &bytes)
            bytes += Array(",\"count\":\(entry.count),\"depth\":\(entry.depth),\"levelsBelow\":\(entry.levelsBelow)".utf8)
            bytes += Array(",\"attributes\":[".utf8)
            for (index, name) in entry.attributes.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONText.appendString(name, to: &bytes)
            }
            bytes += Array("],\"namespaceURIs\":[".utf8)
            for (index, uri) in entry.namespaceURIs.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONText.appendString(uri, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
            if samples {
                bytes += Array(",\"sample\":".utf8)
                JSONText.appendString(orNull: entry.sample, to: &bytes)
            }
            bytes += Array("}\n".utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

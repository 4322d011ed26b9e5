#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes extracted rows as JSON Lines, CSV or TSV into a buffer that is handed to a
/// sink in large pieces.
///
/// - JSON Lines: one object per row, keys in field order; `null` for an absent optional
///   field, arrays for lists, numbers and booleans unquoted, dates as ISO 8601 text in UTC.
///   Non-finite doubles are written as the strings `"INF"`, `"-INF"` and `"NaN"`.
/// - CSV (RFC 4180): a header row, then one row per record; a value holding a comma, a
///   quote, a carriage return or a line feed is quoted, its quotes doubled. Rows end with
///   a line feed. `null` is an empty value; a list is written as its JSON array text.
/// - TSV: a header row, then one row per record; tab, line feed, carriage return and
///   backslash in values are written `\t`, `\n`, `\r`, `\\`. `null` is an empty value;
///   a list is written as its JSON array text.
/// - XML: each record element as a fragment that stands alone (its outer markup, with the
///   namespace declarations it needs), one per line: a line feed in its text is written
///   `&#10;`, which reads back as the same character. With the byte offset of each record
///   (`--with-offset`), the offset, a tab, then the record.
public struct RowWriter {
    /// The output formats.
    public enum Format: String, Sendable, CaseIterable {
        case jsonl, csv, tsv, xml
    }

    public let format: Format
    private let names: [String]
    /// Each name as a JSON string followed by a colon, ready to copy.
    private let jsonKeys: [[UInt8]]
    private var output: OutputBuffer
    private var wroteHeader = false

    /// - Parameters:
    ///   - names: The column names, in field order.
    ///   - sink: Receives the written bytes; called when the buffer is full and on ``flush()``.
    public init(format: Format, names: [String], sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.format = format
        self.names = names
        output = OutputBuffer(sink: sink)
        jsonKeys = names.enumerated().map { index, name in
            var key: [UInt8] = Array((index == 0 ? "{" : ",").utf8)
            JSONText.appendString(name, to: &key)
            key.append(UInt8(ascii: ":"))
            return key
        }
    }

    /// Writes the header row (CSV and TSV) if it is not written yet; called by the first ``write(_:)``.
    public mutating func writeHeader() {
        guard !wroteHeader else { return }
        wroteHeader = true
        switch format {
        case .jsonl, .xml: return
        case .csv, .tsv: writeRow(names.map { .string($0) })
        }
    }

    /// Leaves the header row out: the rows continue a table whose header was written elsewhere.
    public mutating func omitHeader() {
        wroteHeader = true
    }

    /// Writes one row; `values` are in field order.
    public mutating func write(_ values: [ExtractedValue]) {
        writeHeader()
        writeRow(values)
        output.flushIfFull()
    }

    /// Hands everything written so far to the sink.
    public mutating func flush() {
        output.flush()
    }

    private mutating func writeRow(_ values: [ExtractedValue]) {
        switch format {
        case .jsonl:
            if values.isEmpty { output.bytes.append(contentsOf: "{}".utf8) }
            for (key, value) in zip(jsonKeys, values) {
                output.bytes += key
                Self.appendJSON(value, to: &output.bytes)
            }
            if !values.isEmpty { output.bytes.append(UInt8(ascii: "}")) }
        case .xml:
            // One value, the record; with its byte offset first, a tab between them.
            for (index, value) in values.enumerated() {
                if index > 0 { output.bytes.append(UInt8(ascii: "\t")) }
                for byte in Self.cellText(value).utf8 {
                    if byte == UInt8(ascii: "\n") { output.bytes.append(contentsOf: "&#10;".utf8) } else { output.bytes.append(byte) }
                }
            }
        case .csv, .tsv:
            let separator = UInt8(ascii: format == .csv ? "," : "\t")
            for (index, value) in values.enumerated() {
                if index > 0 { output.bytes.append(separator) }
                let text = Self.cellText(value)
                if format == .csv { Self.appendCSV(text, to: &output.bytes) } else { Self.appendTSV(text, to: &output.bytes) }
            }
        }
        output.bytes.append(UInt8(ascii: "\n"))
    }

    // MARK: - Values

    /// A value's text in a CSV or TSV cell.
    static func cellText(_ value: ExtractedValue) -> String {
        switch value {
        case .null: ""
        case .string(let text): text
        case .integer(let number): String(number)
        case .number(let number): numberText(number)
        case .decimal(let number): number.description
        case .boolean(let flag): flag ? "true" : "false"
        case .date(let date): ISO8601Text.string(from: date)
        case .list: jsonText(value)
        }
    }

    /// A value as JSON text.
    static func jsonText(_ value: ExtractedValue) -> String {
        var bytes: [UInt8] = []
        appendJSON(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A double as the shortest text that reads back as the same value; `INF`, `-INF`, `NaN`
    /// (XML Schema's spellings) when it is not finite.
    static func numberText(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-INF" : "INF" }
        return number.description
    }

    static func appendJSON(_ value: ExtractedValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .string(let text): JSONText.appendString(text, to: &bytes)
        case .integer(let number): bytes.append(contentsOf: String(number).utf8)
        case .number(let number):
            if number.isFinite { bytes.append(contentsOf: number.description.utf8) } else { JSONText.appendString(numberText(number), to: &bytes) }
        case .decimal(let number): bytes.append(contentsOf: number.description.utf8)
        case .boolean(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .date(let date): JSONText.appendString(ISO8601Text.string(from: date), to: &bytes)
        case .list(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                appendJSON(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
    }

    /// `text` as a CSV value, quoted when it holds a comma, a quote, CR or LF.
    static func appendCSV(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            let needsQuotes = utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            guard needsQuotes else {
                bytes.append(contentsOf: utf8)
                return
            }
            bytes.append(UInt8(ascii: "\""))
            for byte in utf8 {
                if byte == UInt8(ascii: "\"") { bytes.append(byte) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// `text` as a TSV value, with tab, LF, CR and backslash escaped.
    static func appendTSV(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                default: bytes.append(byte)
                }
            }
        }
    }
}

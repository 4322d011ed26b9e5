#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SAXDispatch

/// A range of a document (``XMLDocumentRange``) as one line of `saxdispatch split`'s JSON
/// Lines: where it begins and ends, its line and column, how many records the framing pass
/// found in it, and the context and closing tags a task needs to read it as a document of
/// its own (as JSON strings when they are UTF-8, otherwise in base64 under `context_base64`
/// and `closing_base64`).
///
/// ```
/// {"start":1048712,"end":2097514,"line":21004,"column":3,"records":412,"context":"<?xml …?>\n<mediawiki …>","closing":"</mediawiki>"}
/// ```
public enum RangeLine {
    public static func line(_ range: XMLDocumentRange) -> String {
        var bytes: [UInt8] = []
        bytes += Array("{\"start\":\(range.start),\"end\":".utf8)
        bytes += Array((range.end.map(String.init) ?? "null").utf8)
        bytes += Array(",\"line\":\(range.line),\"column\":\(range.column),\"records\":\(range.records)".utf8)
        append("context", range.context, to: &bytes)
        append("closing", range.closing, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func append(_ key: String, _ value: [UInt8], to bytes: inout [UInt8]) {
        if let text = String(validating: value, as: UTF8.self) {
            bytes += Array(",\"\(key)\":".utf8)
            JSONText.appendString(text, to: &bytes)
        } else {
            bytes += Array(",\"\(key)_base64\":\"\(base64(value))\"".utf8)
        }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The range a line of `saxdispatch split`'s output describes, or `nil` when the line
    /// is not one (a JSON object with `start`, `line`, `column` and `context` or
    /// `context_base64`).
    public static func range(parsing line: String) -> XMLDocumentRange? {
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(line.utf8)), fields.start >= 0 else { return nil }
        func bytes(_ text: String?, _ base64: String?) -> [UInt8]? {
            if let text { return Array(text.utf8) }
            return base64.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) }
        }
        guard let context = bytes(fields.context, fields.context_base64) else { return nil }
        return XMLDocumentRange(
            start: fields.start, end: fields.end, line: fields.line, column: fields.column, context: context,
            closing: bytes(fields.closing, fields.closing_base64) ?? [], records: fields.records ?? 0)
    }

    /// A line's fields, as ``line(_:)`` writes them.
    private struct Fields: Decodable {
        var start: Int
        var end: Int?
        var line: Int
        var column: Int
        var records: Int?
        var context: String?
        var context_base64: String?
        var closing: String?
        var closing_base64: String?
    }

    /// The ranges of a file of `saxdispatch split`'s lines, in order.
    ///
    /// - Throws: ``XMLInputError`` when the file cannot be read, ``RangeLine/Malformed``
    ///   for a line that is not a range.
    public static func ranges(inFile path: String) throws -> [XMLDocumentRange] {
        var reader = try XMLInput.file(path).makeReader()
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        var ranges: [XMLDocumentRange] = []
        for (index, line) in bytes.split(separator: 0x0A).enumerated() where !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) {
            guard let range = range(parsing: String(decoding: line, as: UTF8.self)) else {
                throw Malformed(path: path, line: index + 1)
            }
            ranges.append(range)
        }
        return ranges
    }

    /// A line of a file of ranges that is not one.
    public struct Malformed: Error, CustomStringConvertible {
        /// The file.
        public var path: String
        /// The line, from 1.
        public var line: Int
        /// `PATH:LINE: not a range as saxdispatch split prints one (…)`.
        public var description: String {
            "\(path):\(line): not a range as saxdispatch split prints one ({\"start\":…,\"line\":…,\"column\":…,\"context\":…})"
        }
    }

    static func base64(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(bytes.count, index + 3)]
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
            for position in 0..<4 {
                out.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 63] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

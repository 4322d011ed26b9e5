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

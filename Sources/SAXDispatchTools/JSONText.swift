/// JSON text for the command-line tool's outputs (JSON Lines rows, paths, events),
/// written straight into byte buffers.
enum JSONText {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `text` as a JSON string: quotes, backslashes and control characters escaped, the
    /// rest copied as UTF-8.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
                case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case 0..<0x20, 0x7F:
                    bytes.append(contentsOf: "\\u00".utf8)
                    bytes += [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `text` as a JSON string, or `null` when there is none.
    static func appendString(orNull text: String?, to bytes: inout [UInt8]) {
        if let text { appendString(text, to: &bytes) } else { bytes += Array("null".utf8) }
    }

    /// `text` as a JSON string value.
    static func string(_ text: String) -> String {
        var bytes: [UInt8] = []
        appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Reads a flat JSON object, as `saxdispatch split` writes one per line: string keys whose
/// values are integers, `null` or strings (kept as their UTF-8 bytes, escapes decoded).
/// Nested values are not read: an object that has one is not flat.
enum FlatJSON {
    enum Value: Equatable {
        case integer(Int)
        case string([UInt8])
        case null
    }

    /// The object's fields, or `nil` when `bytes` are not a flat JSON object.
    static func object(_ bytes: [UInt8]) -> [String: Value]? {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        var fields: [String: Value] = [:]
        reader.skipSpace()
        if reader.take(UInt8(ascii: "}")) { return reader.atEnd ? fields : nil }
        while true {
            reader.skipSpace()
            guard let key = reader.string() else { return nil }
            reader.skipSpace()
            guard reader.take(UInt8(ascii: ":")) else { return nil }
            reader.skipSpace()
            guard let value = reader.value() else { return nil }
            fields[String(decoding: key, as: UTF8.self)] = value
            reader.skipSpace()
            if reader.take(UInt8(ascii: "}")) { return reader.atEnd ? fields : nil }
            guard reader.take(UInt8(ascii: ",")) else { return nil }
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool {
            var copy = self
            copy.skipSpace()
            return copy.index == bytes.count
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func value() -> Value? {
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "\"") { return string().map { .string($0) } }
            if bytes[index...].starts(with: "null".utf8) {
                index += 4
                return .null
            }
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return Int(String(decoding: bytes[start..<index], as: UTF8.self)).map { .integer($0) }
        }

        /// A string's UTF-8 bytes, its escapes decoded (`\uXXXX` and its surrogate pairs too).
        mutating func string() -> [UInt8]? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") { return out }
                guard byte == UInt8(ascii: "\\") else {
                    out.append(byte)
                    continue
                }
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00..<0xE000).contains(low)
                        else { return nil }
                        scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    out += Array(String(Character(unicode)).utf8)
                default: out.append(escape)
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16)
            else { return nil }
            index += 4
            return value
        }
    }
}

import Testing

@testable import SAXDispatch

/// Escaping skips clean words eight bytes at a time: every byte that needs escaping is
/// found at every offset, in text and in attribute values, next to every other byte.
@Suite("Writing: escaping")
struct XMLEscapingTests {
    /// The escaping, one byte at a time, as the format says.
    static func reference(_ bytes: [UInt8], inAttribute: Bool) -> [UInt8] {
        var output: [UInt8] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): output += Array("&amp;".utf8)
            case UInt8(ascii: "<"): output += Array("&lt;".utf8)
            case UInt8(ascii: ">"): output += Array("&gt;".utf8)
            case 0x0D: output += Array("&#13;".utf8)
            case UInt8(ascii: "\"") where inAttribute: output += Array("&quot;".utf8)
            case 0x09 where inAttribute: output += Array("&#9;".utf8)
            case 0x0A where inAttribute: output += Array("&#10;".utf8)
            default: output.append(byte)
            }
        }
        return output
    }

    @Test("every byte at every offset of strings up to 40 bytes, among bytes that look alike")
    func everyByteAtEveryOffset() {
        // Neighbours of the escaped bytes in their bit patterns, and UTF-8.
        let filler: [UInt8] = [0x61, 0x3D, 0x3F, 0x3B, 0x08, 0x0B, 0x0C, 0x0E, 0x20, 0x21, 0x23, 0x27, 0xC3, 0xA9, 0xBC, 0xBE, 0xA6]
        for length in 1...40 {
            for special in [UInt8](0...255) {
                for position in Set([0, length - 1, (Int(special) * 13 + length) % length]) {
                    var bytes = (0..<length).map { filler[($0 * 7 + Int(special)) % filler.count] }
                    bytes[position] = special
                    for inAttribute in [false, true] {
                        var output: [UInt8] = []
                        bytes.withUnsafeBytes { buffer in
                            if inAttribute {
                                XMLEscaping.appendAttributeValue(buffer, to: &output)
                            } else {
                                XMLEscaping.appendText(buffer, to: &output)
                            }
                        }
                        #expect(output == Self.reference(bytes, inAttribute: inAttribute), "\(bytes) \(inAttribute)")
                    }
                }
            }
        }
    }

    /// The first character XML cannot carry, found one scalar at a time.
    static func referenceInvalid(_ bytes: [UInt8]) -> Int? {
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                let value = scalar.value
                if (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D) || value == 0xFFFE || value == 0xFFFF {
                    return offset
                }
                offset += String(scalar).utf8.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    @Test("the first character XML cannot carry is found at every offset, among ASCII, tabs, line ends and UTF-8")
    func invalidCharacterAtEveryOffset() {
        let pieces: [[UInt8]] = [[0x61], [0x20], [0x09], [0x0A], [0x0D], [0x7E], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80]]
        let invalid: [[UInt8]] = [[0x00], [0x01], [0x1F], [0x0B], [0xEF, 0xBF, 0xBE], [0xEF, 0xBF, 0xBF], [0xC3], [0x80], [0xED, 0xA0, 0x80]]
        for length in 0...24 {
            for (kind, bad) in invalid.enumerated() {
                for position in Set([0, length / 2, length]) {
                    var bytes: [UInt8] = []
                    for index in 0..<length {
                        if index == position { bytes += bad }
                        bytes += pieces[(index * 5 + kind) % pieces.count]
                    }
                    if position == length { bytes += bad }
                    let found = bytes.withUnsafeBytes { XMLEscaping.firstInvalidCharacter(in: $0) }
                    #expect(found == Self.referenceInvalid(bytes), "\(bytes)")
                    #expect(found != nil)
                }
            }
            let clean = (0..<length).flatMap { pieces[$0 % pieces.count] }
            #expect(clean.withUnsafeBytes { XMLEscaping.firstInvalidCharacter(in: $0) } == nil)
        }
    }
}

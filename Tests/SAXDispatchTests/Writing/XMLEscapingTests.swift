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
}

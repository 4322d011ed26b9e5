@testable import SAXDispatch
import Testing

/// The byte buffer behind collected text and gathered chunks, whose short appends copy
/// with overlapping loads and stores instead of memcpy.
@Suite("Text buffer: appends of every short length, at every offset")
struct TextBufferTests {
    @Test("appends of 0 to 40 bytes after 0 to 19 bytes hold exactly the bytes appended")
    func shortAppends() {
        let source = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for prefix in 0..<20 {
            for length in 0...40 {
                var buffer = TextBuffer(capacity: 8)
                var expected: [UInt8] = []
                source.withUnsafeBytes { bytes in
                    // A prefix from another part of the source, so a copy that read the wrong
                    // offset or wrote past its end shows.
                    if let base = bytes.baseAddress {
                        buffer.append(base + 20, count: prefix)
                        expected += source[20..<(20 + prefix)]
                        buffer.append(base + 3, count: length)
                        expected += source[3..<(3 + length)]
                        buffer.append(base + 50, count: 2)
                        expected += source[50..<52]
                    }
                }
                #expect(Array(buffer.bytes(from: 0)) == expected, "prefix \(prefix), length \(length)")
                #expect(buffer.count == prefix + length + 2)
            }
        }
    }

    @Test("copySmall copies 1 to 16 bytes and writes nothing beyond them")
    func copySmallBounds() {
        let source: [UInt8] = Array(1...16)
        for count in 0...16 {
            var destination = [UInt8](repeating: 0xEE, count: 32)
            source.withUnsafeBytes { from in
                destination.withUnsafeMutableBytes { to in
                    if let from = from.baseAddress, let to = to.baseAddress {
                        TextBuffer.copySmall(from: from, to: to + 8, count: count)
                    }
                }
            }
            #expect(Array(destination[8..<(8 + count)]) == Array(source[..<count]))
            #expect(destination[..<8].allSatisfy { $0 == 0xEE }, "count \(count): written before the destination")
            #expect(destination[(8 + count)...].allSatisfy { $0 == 0xEE }, "count \(count): written past the end")
        }
    }
}

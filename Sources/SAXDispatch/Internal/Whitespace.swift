/// Applies a whitespace policy to UTF-8 bytes and makes the `String` a handler gets.
enum Whitespace {
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        var end = bytes.count
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    static func string(_ bytes: UnsafeRawBufferPointer, policy: WhitespacePolicy) -> String {
        switch policy {
        case .preserve:
            return UTF8Text.string(bytes)
        case .trim:
            return UTF8Text.string(trimmed(bytes))
        case .collapse:
            let core = trimmed(bytes)
            return String(unsafeUninitializedCapacity: core.count) { output in
                var written = 0
                var inSpace = false
                for byte in core {
                    if isSpace(byte) {
                        inSpace = true
                        continue
                    }
                    if inSpace {
                        output[written] = 0x20
                        written += 1
                        inSpace = false
                    }
                    output[written] = byte
                    written += 1
                }
                return written
            }
        }
    }
}

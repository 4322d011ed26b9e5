/// Applies a whitespace policy to UTF-8 bytes and makes the `String` a handler gets.
enum Whitespace {
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// How many whitespace bytes `bytes` starts with.
    @inline(__always)
    static func leadingSpaceCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        var count = 0
        while count < bytes.count && isSpace(bytes[count]) { count += 1 }
        return count
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

    /// `value` (an attribute's, for a record field) under `policy`, as text from expat
    /// gets it: `count=" 7 "` reads as `7`, as `<count> 7 </count>` does.
    @inline(__always)
    static func applying(_ policy: WhitespacePolicy, to value: String) -> String {
        if policy == .preserve { return value }
        // Most values have no whitespace at either end: they are returned as they are.
        let untouched =
            policy == .trim
            && value.utf8.withContiguousStorageIfAvailable { bytes in
                guard let first = bytes.first, let last = bytes.last else { return false }
                return !isSpace(first) && !isSpace(last)
            } == true
        return untouched ? value : applyingSlowly(policy, to: value)
    }

    private static func applyingSlowly(_ policy: WhitespacePolicy, to value: String) -> String {
        var value = value
        return value.withUTF8 { string(UnsafeRawBufferPointer($0), policy: policy) }
    }
}

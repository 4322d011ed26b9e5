#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The strings last made from C strings, kept a few at a time: a C string equal to one of
/// them gives that string again (compared by length, then as memory), any other a new one,
/// which takes the oldest one's place.
struct RecentCStrings {
    private static let count = 4
    private var strings: [String] = []
    private var next = 0

    mutating func string(_ cString: UnsafePointer<CChar>) -> String {
        let length = strlen(cString)
        let bytes = UnsafeRawBufferPointer(start: cString, count: length)
        for string in strings where bytesEqual(string, bytes) { return string }
        let made = UTF8Text.string(bytes)
        if strings.count < Self.count {
            strings.append(made)
        } else {
            strings[next] = made
            next = (next + 1) % Self.count
        }
        return made
    }
}

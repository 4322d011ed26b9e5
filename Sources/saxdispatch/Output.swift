#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Writing to the standard streams and formatting numbers without full Foundation,
/// which would load ICU and add several MiB to every run's resident memory.
enum Output {
    static func standardOutput(_ bytes: UnsafeRawBufferPointer) {
        write(1, bytes)
    }

    static func standardError(_ text: String) {
        var text = text
        text.withUTF8 { write(2, UnsafeRawBufferPointer($0)) }
    }

    /// Ends the process with a status code.
    static func terminate(_ status: Int32) -> Never {
        exit(status)
    }

    /// `value` with `decimals` digits after the point, as C's `%.Nf` prints it.
    static func decimal(_ value: Double, _ decimals: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = withVaList([Int32(decimals), value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let written = Glibc_or_Darwin_write(descriptor, base + offset, bytes.count - offset)
            if written <= 0 {
                if written < 0 && errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}

#if canImport(Glibc)
private let Glibc_or_Darwin_write = Glibc.write
#elseif canImport(Darwin)
private let Glibc_or_Darwin_write = Darwin.write
#elseif canImport(Musl)
private let Glibc_or_Darwin_write = Musl.write
#endif

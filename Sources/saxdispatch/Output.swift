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

    /// Writes `text` as UTF-8; a failed write ends the run as ``write(_:_:)`` says.
    static func standardOutput(_ text: String) {
        var text = text
        text.withUTF8 { write(1, UnsafeRawBufferPointer($0)) }
    }

    static func standardError(_ bytes: UnsafeRawBufferPointer) {
        write(2, bytes)
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

    /// Writes all of `bytes`. When standard output cannot be written (a full disk), the
    /// run ends with status 1: output must not be lost silently. A reader that went away
    /// (`| head`) ends it quietly: by SIGPIPE, as it does other tools, or where that
    /// signal is ignored, with status 1 and no message.
    private static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let written = Glibc_or_Darwin_write(descriptor, base + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 {
                guard descriptor == 1 else { return }
                let number = errno
                if number != EPIPE {
                    standardError("saxdispatch: error: cannot write standard output: " + String(cString: strerror(number)) + "\n")
                }
                terminate(1)
            }
            offset += written
        }
    }

    /// From now on, an interrupt (Ctrl-C) or termination erases the progress line before
    /// the process ends as the signal says.
    static func erasesLineOnInterrupt() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { received in
                let erase: StaticString = "\r\u{1B}[K"
                _ = Glibc_or_Darwin_write(2, erase.utf8Start, erase.utf8CodeUnitCount)
                signal(received, SIG_DFL)
                raise(received)
            }
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

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's peak resident memory.
public enum PeakMemory {
    /// Peak resident set size in bytes (`VmHWM` on Linux, `ru_maxrss` elsewhere), or nil if unknown.
    public static func residentBytes() -> Int? {
        #if os(Linux)
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("VmHWM:") {
                let digits = text.dropFirst(6).filter(\.isNumber)
                return Int(digits).map { $0 * 1024 }
            }
        }
        return nil
        #else
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
        return Int(usage.ru_maxrss)
        #endif
    }
}

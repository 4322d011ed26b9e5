#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SAXDispatch

/// The processors online, for how many threads decompress at once: at least 1.
func processorCount() -> Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}

/// Moves a reader to another thread. Unchecked `Sendable`: the thread that made it never
/// touches the reader again.
final class ReaderHandoff: @unchecked Sendable {
    let reader: any XMLInputReader
    init(_ reader: any XMLInputReader) { self.reader = reader }
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Bytes kept for later, in memory up to a limit and past it in a temporary file, so that
/// what a file's parse writes while it waits for its turn takes bounded memory however
/// much it is: the rows `extract` writes from a file of gigabytes.
///
/// The temporary file is removed from its directory as soon as it is made: it goes away
/// with the process, however that ends. When none can be made (no writable temporary
/// directory), the bytes stay in memory rather than being lost.
struct SpillBuffer {
    private var memory: [UInt8] = []
    private var file: Int32 = -1
    /// The bytes the temporary file holds: a write that fails part of the way is cut
    /// back to it, so that the bytes kept in memory instead are not there twice.
    private var fileSize = 0
    private let memoryLimit: Int

    /// A buffer that keeps up to `memoryLimit` bytes in memory.
    init(memoryLimit: Int) {
        self.memoryLimit = memoryLimit
    }

    /// Whether nothing was appended since the buffer was made or last replayed.
    var isEmpty: Bool { memory.isEmpty && file < 0 }

    /// Appends `bytes`, moving what memory holds to the temporary file once it would pass the limit.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if memory.count + bytes.count > memoryLimit, spill(), write(bytes) { return }
        memory.append(contentsOf: bytes)
    }

    /// Hands everything appended, in order, to `write`, in pieces, and empties the buffer.
    mutating func replay(_ write: (UnsafeRawBufferPointer) -> Void) {
        if file >= 0 {
            var piece = [UInt8](repeating: 0, count: 1 << 16)
            if lseek(file, 0, SEEK_SET) == 0 {
                while true {
                    let count = piece.withUnsafeMutableBytes { Glibc_or_Darwin_read(file, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    piece.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                }
            }
            close(file)
            file = -1
            fileSize = 0
        }
        memory.withUnsafeBytes { if !$0.isEmpty { write($0) } }
        memory = []
    }

    /// Drops what was appended, closing the temporary file.
    mutating func discard() {
        if file >= 0 { close(file) }
        file = -1
        fileSize = 0
        memory = []
    }

    /// Moves the bytes in memory to the temporary file (made on first use); false when
    /// there is none and they stay in memory.
    private mutating func spill() -> Bool {
        if file < 0 {
            file = Self.makeTemporaryFile()
            guard file >= 0 else { return false }
        }
        let written = memory.withUnsafeBytes { write($0) }
        if written { memory.removeAll(keepingCapacity: true) }
        return written
    }

    /// Appends `bytes` to the temporary file; on a failed write (a full disk), cuts the
    /// file back to what it held and says false.
    private mutating func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if Self.writeAll(file, bytes) {
            fileSize += bytes.count
            return true
        }
        _ = ftruncate(file, off_t(fileSize))
        _ = lseek(file, off_t(fileSize), SEEK_SET)
        return false
    }

    /// An unnamed temporary file, open for reading and writing, or -1.
    private static func makeTemporaryFile() -> Int32 {
        var directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        if directory.isEmpty { directory = "/tmp" }
        var template = Array((directory + "/saxdispatch-output-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else { return -1 }
        template.withUnsafeBufferPointer { if let path = $0.baseAddress { unlink(path) } }
        return descriptor
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let written = Glibc_or_Darwin_write(descriptor, base + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}

#if canImport(Glibc)
private let Glibc_or_Darwin_write = Glibc.write
private let Glibc_or_Darwin_read = Glibc.read
#elseif canImport(Darwin)
private let Glibc_or_Darwin_write = Darwin.write
private let Glibc_or_Darwin_read = Darwin.read
#elseif canImport(Musl)
private let Glibc_or_Darwin_write = Musl.write
private let Glibc_or_Darwin_read = Musl.read
#endif
